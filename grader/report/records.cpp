#include "records.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <stdexcept>
#include <tuple>

namespace tilelab::report {

std::optional<TestName> graded_identity(const ListedTest& test, const Registry& registry) {
    const auto has = [&](const char* label) {
        return std::find(test.labels.begin(), test.labels.end(), label) != test.labels.end();
    };
    if (!has("graded") || has("cpu") == has("gpu")) return std::nullopt;
    TestName id;
    id.cpu = has("cpu");
    int labs = 0, suites = 0, widths = 0;
    for (const std::string& label : test.labels) {
        if (std::find(registry.lab_ids.begin(), registry.lab_ids.end(), label) != registry.lab_ids.end()) {
            id.lab = label;
            ++labs;
        } else if (registry.suites.count(label)) {
            id.suite = label;
            ++suites;
        } else if (label.size() > 2 && label.size() <= 4 && label.compare(0, 2, "tw") == 0 &&
                   std::all_of(label.begin() + 2, label.end(), [](char c) { return c >= '0' && c <= '9'; })) {
            id.tile_width = std::stoi(label.substr(2));
            ++widths;
        }
    }
    if (labs != 1 || suites != 1 || widths != 1) return std::nullopt;
    id.row = (id.cpu ? "cpu." : "") + id.suite;
    return id;
}

std::vector<ListedTest> read_test_list(const nlohmann::json& ctest) {
    std::vector<ListedTest> tests;
    if (!ctest.is_object() || !ctest.contains("tests") || !ctest["tests"].is_array())
        throw std::runtime_error("not CTest's list of tests (ctest --show-only=json-v1): it has no \"tests\"");
    for (const auto& test : ctest["tests"]) {
        if (!test.contains("name") || !test["name"].is_string()) continue;
        ListedTest listed{test["name"].get<std::string>(), {}};
        if (test.contains("properties") && test["properties"].is_array())
            for (const auto& property : test["properties"])
                if (property.value("name", "") == "LABELS" && property.contains("value") && property["value"].is_array())
                    for (const auto& label : property["value"])
                        if (label.is_string()) listed.labels.push_back(label.get<std::string>());
        tests.push_back(std::move(listed));
    }
    return tests;
}

std::string shorten(const std::string& text) {
    if (text.size() <= 240) return text;
    std::size_t cut = 237;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    return text.substr(0, cut) + "...";
}

namespace {

/// A record's string field, "" where it has none.
std::string text_of(const nlohmann::json& record, const char* key) {
    const auto found = record.find(key);
    return found != record.end() && found->is_string() ? found->get<std::string>() : std::string();
}

/// A gate's measures, where the record holds a speedup and the one required.
std::optional<GateMeasures> gate_of(const nlohmann::json& record) {
    const auto found = record.find("measures");
    if (found == record.end() || !found->is_object()) return std::nullopt;
    const auto& measures = *found;
    const auto number = [&](const char* key) -> std::optional<double> {
        const auto it = measures.find(key);
        if (it == measures.end() || !it->is_number()) return std::nullopt;
        return it->get<double>();
    };
    const auto speedup = number("speedup");
    const auto required = number("required_speedup");
    if (!speedup || !required) return std::nullopt;
    GateMeasures gate{*speedup, *required, number("model_speedup"), text_of(measures, "required_by"),
                      text_of(measures, "gpu"), number("gflops")};
    // The rung of the lab's ladder (tilelab/gate_ladder.hpp) and the times that say what the next rung needs.
    const auto rung = number("rung"), rungs = number("rungs");
    if (rung && rungs && *rung >= 1 && *rung <= *rungs && *rungs <= 16) {
        gate.rung = static_cast<int>(*rung);
        gate.rungs = static_cast<int>(*rungs);
    }
    gate.student_ms = number("student_ms").value_or(0);
    gate.reference_ms = number("reference_ms").value_or(0);
    const auto right = measures.find("results_right");
    gate.results_right = right == measures.end() || !right->is_boolean() || right->get<bool>();
    return gate;
}

/// The test as its record says, or failed with the reason the record could not be read.
TestResult from_record(const std::string& verdicts, const std::string& name, TestName id) {
    TestResult result{name, std::move(id), "failed", "", 0, std::nullopt};
    const std::string file = "verdicts/" + name + ".json";
    nlohmann::json record;
    try {
        record = load_json(verdicts + "/" + name + ".json");
    } catch (const std::runtime_error&) {
        result.reason = "the check's record " + file + " is not JSON: a checker that stopped while writing it";
        return result;
    }
    const std::string verdict = record.is_object() ? text_of(record, "verdict") : "";
    // The record names its test, and says what it checked as the labels do (a record moved from another test's
    // place is not this test's).
    const auto number = record.is_object() ? record.find("tile_width") : record.end();
    const bool same_check = record.is_object() && text_of(record, "test") == name && text_of(record, "lab") == result.id.lab &&
                            text_of(record, "check") == result.id.suite &&
                            text_of(record, "backend") == (result.id.cpu ? "cpu" : "gpu") && number != record.end() &&
                            number->is_number_integer() && number->get<int>() == result.id.tile_width;
    if (!same_check || (verdict != "passed" && verdict != "failed" && verdict != "skipped")) {
        result.reason = "the check's record " + file + " is not one of this test (record 1 with its name and a verdict)";
        return result;
    }
    result.state = verdict;
    const auto seconds = record.find("seconds");
    if (seconds != record.end() && seconds->is_number()) result.seconds = seconds->get<double>();
    const std::string hint = text_of(record, "hint");
    const std::string message = text_of(record, "message");
    result.reason = !hint.empty() ? "hint: " + hint : !message.empty() ? message : verdict;
    result.reason = shorten(result.reason);
    result.gate = gate_of(record);
    return result;
}

}  // namespace

std::vector<TestResult> read_results(const std::string& verdicts, const std::vector<ListedTest>& tests,
                                     const Registry& registry) {
    std::vector<TestResult> results;
    // A lab's build at a tile width on a backend -> its build check left "failed".
    std::map<std::tuple<std::string, int, bool>, bool> build_failed;
    for (const auto& test : tests) {
        auto id = graded_identity(test, registry);
        if (!id) continue;
        const std::string& name = test.name;
        const auto build = std::make_tuple(id->lab, id->tile_width, id->cpu);
        std::ifstream exists(verdicts + "/" + name + ".json");
        if (exists) {
            results.push_back(from_record(verdicts, name, *id));
            if (id->suite == "build") build_failed[build] = results.back().state == "failed";
            continue;
        }
        if (id->suite != "build" && build_failed.count(build) && build_failed[build]) {
            results.push_back({name, *id, "notrun", "not run: the lab's build check failed (missing file or compile error)",
                               0, std::nullopt});
        } else {
            results.push_back({name, *id, "failed",
                               "the check did not finish (stopped at its time limit, or crashed); see verdicts/" + name + ".log",
                               0, std::nullopt});
            if (id->suite == "build") build_failed[build] = true;
        }
    }
    return results;
}

}  // namespace tilelab::report
