#include "records.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <stdexcept>

namespace tilelab::report {

std::optional<TestName> parse_graded_name(const std::string& name, const Registry& registry) {
    static const std::regex pattern(R"(^graded\.(lab[0-9]+)\.tw([0-9]+)\.((cpu\.)?([A-Za-z0-9_-]+))$)");
    std::smatch match;
    if (!std::regex_match(name, match, pattern) || !registry.suites.count(match[5].str()) ||
        std::find(registry.lab_ids.begin(), registry.lab_ids.end(), match[1].str()) == registry.lab_ids.end())
        return std::nullopt;
    return TestName{match[1].str(), std::stoi(match[2].str()), match[4].matched, match[5].str(), match[3].str()};
}

std::vector<std::string> read_test_list(const nlohmann::json& ctest) {
    std::vector<std::string> names;
    if (!ctest.is_object() || !ctest.contains("tests") || !ctest["tests"].is_array())
        throw std::runtime_error("not CTest's list of tests (ctest --show-only=json-v1): it has no \"tests\"");
    for (const auto& test : ctest["tests"])
        if (test.contains("name") && test["name"].is_string()) names.push_back(test["name"].get<std::string>());
    return names;
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
    const auto right = measures.find("results_right");
    return GateMeasures{*speedup,
                        *required,
                        number("model_speedup"),
                        text_of(measures, "required_by"),
                        text_of(measures, "gpu"),
                        number("gflops"),
                        right == measures.end() || !right->is_boolean() || right->get<bool>()};
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
    if (!record.is_object() || text_of(record, "test") != name ||
        (verdict != "passed" && verdict != "failed" && verdict != "skipped")) {
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

std::vector<TestResult> read_results(const std::string& verdicts, const std::vector<std::string>& tests,
                                     const Registry& registry) {
    std::vector<TestResult> results;
    std::map<std::string, bool> build_failed;  // "graded.lab02.tw16[.cpu]" -> its build check left "failed"
    for (const auto& name : tests) {
        auto id = parse_graded_name(name, registry);
        if (!id) continue;
        std::ifstream exists(verdicts + "/" + name + ".json");
        if (exists) {
            results.push_back(from_record(verdicts, name, *id));
            if (id->suite == "build")
                build_failed[name.substr(0, name.size() - 6)] = results.back().state == "failed";
            continue;
        }
        const std::string prefix = name.substr(0, name.size() - id->suite.size() - 1);
        if (id->suite != "build" && build_failed.count(prefix) && build_failed[prefix]) {
            results.push_back({name, *id, "notrun", "not run: the lab's build check failed (missing file or compile error)",
                               0, std::nullopt});
        } else {
            results.push_back({name, *id, "failed",
                               "the check did not finish (stopped at its time limit, or crashed); see verdicts/" + name + ".log",
                               0, std::nullopt});
            if (id->suite == "build") build_failed[prefix] = true;
        }
    }
    return results;
}

}  // namespace tilelab::report
