// The speedup a performance gate requires (grader/gate/gate_threshold.hpp) and each lab's fraction (its registry
// entry, grader/labs.json, as the checker reads it): derived from the model answer's speedup on the grading GPU,
// overridden by TILELAB_MIN_SPEEDUP, clamped so the model always passes; and, on the H100's margin data
// (grader/selftest/gate/margins.json, from docs/benchmarks.md), passing every honest kernel and failing every
// untiled one; and each rung of a lab's ladder, on the same data, decided with margin, the previous lab's model
// earning the lower rungs and not the top.
#include "gate_threshold.hpp"
#include "lab_registry.hpp"
#include "lab_under_test.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace tilelab::grader;

namespace {

// The registry's entry for @p lab at TILE_WIDTH 16, as the checker reads it from its command line.
LabUnderTest lab_entry(const std::string& lab) {
    std::vector<std::string> words = {"checker", "--lab", lab, "--tile-width", "16", "--runner", "/bin/true"};
    std::vector<char*> argv;
    for (std::string& word : words) argv.push_back(word.data());
    int argc = static_cast<int>(argv.size());
    return parse_checker_options(argc, argv.data()).lab;
}

// One measurement of the margin data: a kernel's speedup over the gate's reference, the lab's model answer's
// speedup there, and whether the gate must pass it.
struct Measured {
    std::string lab;
    std::string kernel;
    double speedup;
    double model_speedup;
    bool honest;
    std::string gpu;  // where, and at which size: speedups over another reference are chained on one GPU and size
    int size;
};

// The margin data (grader/selftest/gate/margins.json): honest kernels must pass with margin, untiled ones fail
// with margin.
std::vector<Measured> margin_data() {
    std::ifstream in(TILELAB_GATE_MARGINS);
    REQUIRE(in);
    const nlohmann::json data = nlohmann::json::parse(in);
    std::vector<Measured> measured;
    for (const auto& k : data.at("kernels"))
        measured.push_back({k.at("lab").get<std::string>(), k.at("kernel").get<std::string>(), k.at("speedup").get<double>(),
                            k.at("model_speedup").get<double>(), k.at("must").get<std::string>() == "pass",
                            k.at("gpu").get<std::string>(), k.at("size").get<int>()});
    REQUIRE_FALSE(measured.empty());
    return measured;
}

// What the margin must be at least, on either side of the requirement: a run-to-run spread on the H100 is under
// 0.01x (docs/benchmarks.md), and another GPU's may be larger.
constexpr double margin = 0.04;

// A kernel of the margin data measured at the previous lab's speed: that lab's model, submitted to this lab.
bool at_previous_labs_speed(const Measured& m) {
    return !m.honest && (m.kernel.find("previous-lab-model") == 0 || m.kernel.find("'s model") != std::string::npos);
}

// The speedup over @p reference of a kernel whose speedup over its lab's top rung's reference is @p speedup, on one
// GPU and size: chained through each model answer's speedup over its own top reference (@p models: lab -> that
// speedup), from the top reference down to @p reference. Nothing when a model on the way was not measured there.
std::optional<double> over_reference(double speedup, const LabEntry& lab, const std::string& reference,
                                     const std::map<std::string, double>& models) {
    std::string at = lab.gate.top().reference;
    while (at != reference) {
        const LabEntry* below = find_lab(at);
        if (below == nullptr || !below->has_gate() || !models.count(at)) return std::nullopt;
        speedup *= models.at(at);
        at = below->gate.top().reference;
    }
    return speedup;
}

// The models' speedups over their labs' top references, on each GPU and size of the margin data.
std::map<std::string, std::map<std::string, double>> model_speedups(const std::vector<Measured>& data) {
    std::map<std::string, std::map<std::string, double>> models;
    for (const Measured& m : data)
        if (m.kernel == "model") models[m.gpu + "@" + std::to_string(m.size)][m.lab] = m.model_speedup;
    return models;
}

}  // namespace

TEST_SUITE("gate_threshold") {
    TEST_CASE("each gated lab's rungs, as the checker reads them, are its registry entry's, each fraction in [0, 1)") {
        int gated = 0;
        for (const LabEntry& entry : all_labs()) {
            CAPTURE(entry.id);
            const LabUnderTest lab = lab_entry(entry.id);
            if (!entry.has_gate()) {
                CHECK(std::string(lab.reference).empty());
                continue;
            }
            ++gated;
            // The checker's lab is its top rung's: the previous stage's model, by the lab's margin.
            CHECK(lab.gate_fraction == entry.gate.top().fraction);
            CHECK(std::string(lab.reference) == entry.gate.top().reference_name);
            CHECK(std::string(entry.gate.top().suite) == "perf");
            for (const GateRung& rung : entry.gate.rungs) {
                CAPTURE(std::string(rung.suite));
                CHECK(rung.fraction >= 0.0);
                CHECK(rung.fraction < 1.0);
                REQUIRE(find_lab(rung.reference) != nullptr);
                CHECK(std::string(find_lab(rung.reference)->folder) == rung.reference_folder);
                int number = 0;
                CHECK(find_rung(entry, rung.suite, number) == &rung);
                CHECK(&entry.gate.rungs[static_cast<std::size_t>(number - 1)] == &rung);
            }
        }
        CHECK(gated > 0);
        int number = 7;
        CHECK(find_rung(*find_lab("lab01"), "perf", number) == nullptr);  // a lab without a gate has no rung
        CHECK(number == 0);
    }

    TEST_CASE("on the margin data every rung's verdict is clear, each rung asks more than the one below, honest "
              "kernels reach every rung, and the previous lab's model the lower rungs only") {
        const std::vector<Measured> data = margin_data();
        const auto models = model_speedups(data);
        int chained = 0, previous = 0;
        for (const Measured& m : data) {
            const LabEntry* entry = find_lab(m.lab);
            REQUIRE(entry != nullptr);
            REQUIRE(entry->has_gate());
            const auto& on_gpu = models.at(m.gpu + "@" + std::to_string(m.size));
            double asked_before = 0;  // the last rung's requirement as a speedup over the top reference
            for (const GateRung& rung : entry->gate.rungs) {
                const bool top = &rung == &entry->gate.top();
                const auto speedup = over_reference(m.speedup, *entry, rung.reference, on_gpu);
                const auto model = over_reference(m.model_speedup, *entry, rung.reference, on_gpu);
                if (!speedup || !model) continue;  // a model on the way not measured on this GPU and size
                ++chained;
                const double required = gate_threshold(rung.fraction, *model, std::nullopt).required;
                INFO(m.lab << " " << m.kernel << " (" << m.gpu << ", " << m.size << "^3), rung " << std::string(rung.suite)
                           << " against " << std::string(rung.reference) << ": " << *speedup << "x, model " << *model
                           << "x, required " << required << "x");
                // The same requirement as a speedup over the top reference: a rung above asks more of the kernel.
                const double asked = required * (m.speedup / *speedup);
                CHECK(asked > asked_before);
                asked_before = asked;
                if (m.honest) {
                    CHECK(*speedup >= required + margin);
                } else if (top || std::string(rung.reference) == entry->gate.top().reference) {
                    CHECK(*speedup + margin <= required);  // untiled, or the previous lab's idea: no rung of its race
                } else if (at_previous_labs_speed(m)) {
                    CHECK(*speedup >= required + margin);  // an earlier lab's model is slower than the previous one's
                    ++previous;
                } else {
                    CHECK(std::abs(*speedup - required) >= margin);  // reached or not, but never on the line
                }
            }
        }
        CHECK(chained > 0);
        CHECK(previous > 0);
    }

    TEST_CASE("on the H100's and the H200's margin data, honest kernels pass and untiled ones fail, each with margin") {
        std::set<std::string> measured_models;
        for (const Measured& m : margin_data()) {
            REQUIRE_MESSAGE(find_lab(m.lab) != nullptr, m.lab << " in margins.json is no lab of the registry");
            if (m.kernel == "model") measured_models.insert(m.lab);
            const double required = gate_threshold(lab_entry(m.lab).gate_fraction, m.model_speedup, std::nullopt).required;
            INFO(m.lab << " " << m.kernel << ": " << m.speedup << "x, model " << m.model_speedup << "x, required "
                       << required << "x");
            if (m.honest) CHECK(m.speedup >= required + margin);
            else CHECK(m.speedup + margin <= required);
        }
        // A gate's fraction is chosen from measurements: every gated lab's model answer is among them.
        for (const LabEntry& entry : all_labs())
            if (entry.has_gate()) {
                const std::string lab = entry.id;
                CHECK_MESSAGE(measured_models.count(lab) == 1, lab << "'s model is not in margins.json");
            }
    }

    TEST_CASE("a race stops early only where its last pairs could not change the verdict, on the margin data") {
        int decided_early = 0, measured = 0;
        for (const Measured& m : margin_data()) {
            const double required = gate_threshold(lab_entry(m.lab).gate_fraction, m.model_speedup, std::nullopt).required;
            ++measured;
            // A race's first pairs read its speedup within a spread (margin) of the whole race's: a stop needs a gap
            // wider than that on either side of this requirement, or a reading just past the stop could belong to
            // a kernel on the line's other side.
            for (const EarlyStop& stop : early_stops) {
                INFO(m.lab << " requires " << required << "x; the stop after " << stop.pairs << " pairs is "
                           << stop.margin << " times away");
                CHECK(required * stop.margin - required > margin);
                CHECK(required - required / stop.margin > margin);
            }
            for (const double so_far : {m.speedup - margin, m.speedup, m.speedup + margin})
                for (const EarlyStop& stop : early_stops)
                    if (race_decided_early(stop.pairs, so_far, required)) {
                        INFO(m.lab << " " << m.kernel << ": " << so_far << "x after " << stop.pairs << " pairs");
                        CHECK((so_far >= required) == m.honest);
                    }
            bool stops = false;
            for (const EarlyStop& stop : early_stops) stops = stops || race_decided_early(stop.pairs, m.speedup, required);
            decided_early += stops;
        }
        // Most kernels are far from the line: the stops are what keeps a class's gates short.
        CHECK(decided_early * 4 >= measured * 3);
    }

    TEST_CASE("a slow race is raced again once, and only when grading") {
        CHECK(race_again(1, 1, 1.00, 1.21));        // an honest kernel's race on a loaded machine
        CHECK(race_again(1, 1, 0.80, 1.00));
        CHECK_FALSE(race_again(1, 1, 1.21, 1.21));  // a fast race decides
        CHECK_FALSE(race_again(1, 2, 1.00, 1.21));  // the second race decides, slow or not
        CHECK_FALSE(race_again(3, 1, 1.00, 1.21));  // trials asked for (scripts/gate-margins.sh) are each decided
        CHECK_FALSE(race_again(1, 1, 0.003, 1.14)); // far slower than any load makes a kernel: decided at once
        // That a second race does not let a slow kernel through rests on the margin data: every untiled kernel is
        // slower than its requirement by more than a race's spread (the margin data's case above).
    }

    TEST_CASE("a race stops only at a stop's own number of pairs, and never on the line") {
        CHECK(race_decided_early(early_stops[0].pairs, 2.0, 1.3));
        CHECK(race_decided_early(early_stops[0].pairs, 0.9, 1.3));
        CHECK_FALSE(race_decided_early(early_stops[0].pairs - 1, 2.0, 1.3));
        CHECK_FALSE(race_decided_early(early_stops[std::size(early_stops) - 1].pairs + 1, 2.0, 1.3));
        for (const EarlyStop& stop : early_stops) {
            CHECK(stop.margin > 1.0);
            CHECK(stop.pairs >= 5);  // a median of fewer requests is moved by one that a loaded machine delays
            CHECK_FALSE(race_decided_early(stop.pairs, 1.3, 1.3));
        }
        for (std::size_t i = 1; i < std::size(early_stops); ++i) {  // later stops, closer to the line
            CHECK(early_stops[i].pairs > early_stops[i - 1].pairs);
            CHECK(early_stops[i].margin < early_stops[i - 1].margin);
        }
    }

    TEST_CASE("derived: 1 + f x (model - 1), not below 1.0") {
        const GateThreshold t = gate_threshold(0.25, 2.19, std::nullopt);
        CHECK(t.required == doctest::Approx(1.2975));
        CHECK_FALSE(t.overridden);
        CHECK_FALSE(t.capped);
        REQUIRE(t.model_speedup);
        CHECK(*t.model_speedup == doctest::Approx(2.19));
        CHECK(t.explain().find("1 + 0.25 x (2.19 - 1)") != std::string::npos);
        CHECK(gate_threshold(0.0, 1.27, std::nullopt).required == doctest::Approx(1.0));
        CHECK(gate_threshold(0.5, 1.23, std::nullopt).required == doctest::Approx(1.115));
    }

    TEST_CASE("clamped: never above 95% of the model's own speedup, so the model passes on any GPU") {
        const GateThreshold slow_stage = gate_threshold(0.0, 1.02, std::nullopt);  // "not slower" above the model
        CHECK(slow_stage.capped);
        CHECK(slow_stage.required == doctest::Approx(0.95 * 1.02));
        CHECK(slow_stage.explain().find("gains too little") != std::string::npos);
        const GateThreshold model_slower = gate_threshold(0.25, 0.9, std::nullopt);
        CHECK(model_slower.capped);
        CHECK(model_slower.required == doctest::Approx(0.855));
        for (double model : {0.5, 0.99, 1.0, 1.01, 1.1, 1.5, 2.5, 5.0})
            for (double f : {0.0, 0.25, 0.5, 1.0}) {
                const double required = gate_threshold(f, model, std::nullopt).required;
                CHECK(required < model);
                if (model >= 1.0 / model_share_cap) CHECK(required >= 1.0);
            }
    }

    TEST_CASE("TILELAB_MIN_SPEEDUP overrides, and a malformed one is refused rather than read as 0") {
        CHECK_FALSE(speedup_override(nullptr));
        CHECK_FALSE(speedup_override(""));
        REQUIRE(speedup_override("1.25"));
        CHECK(*speedup_override("1.25") == doctest::Approx(1.25));
        for (const char* bad : {"abc", "0", "-1", "1.2x", "nan", "inf", " "}) CHECK_THROWS_AS(speedup_override(bad), std::invalid_argument);
        const GateThreshold t = gate_threshold(0.25, 2.19, 1.5);
        CHECK(t.overridden);
        CHECK(t.required == doctest::Approx(1.5));
        CHECK(t.explain() == "set by TILELAB_MIN_SPEEDUP");
        REQUIRE(t.model_speedup);  // still reported beside it
        CHECK(gate_threshold(0.25, std::nullopt, 3.0).required == doctest::Approx(3.0));  // an override needs no model
    }

    TEST_CASE("refuses what it cannot derive from") {
        CHECK_THROWS_AS(gate_threshold(0.25, std::nullopt, std::nullopt), std::invalid_argument);
        CHECK_THROWS_AS(gate_threshold(-0.1, 2.0, std::nullopt), std::invalid_argument);
        CHECK_THROWS_AS(gate_threshold(1.5, 2.0, std::nullopt), std::invalid_argument);
        CHECK_THROWS_AS(gate_threshold(0.25, 0.0, std::nullopt), std::invalid_argument);
        CHECK_THROWS_AS(gate_threshold(0.25, std::numeric_limits<double>::quiet_NaN(), std::nullopt), std::invalid_argument);
    }
}
