// The performance gate's ladder (common/include/tilelab/gate_ladder.hpp): which rung a kernel reached, which is next
// and the time that rung needs; and its points, each rung its own check of the registry (grader/report/grade.hpp),
// so that a kernel at the previous lab's speed earns the lower rungs' points and not the top's.
#include "grade.hpp"
#include "registry.hpp"

#include <tilelab/gate_ladder.hpp>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using tilelab::ladder::needed_ms;
using tilelab::ladder::RungRace;
using tilelab::ladder::standing;
using tilelab::ladder::standing_line;

namespace {

// A race of rung @p rung, won or not, timed: the lab's kernel @p lab_ms a launch against the reference's
// @p reference_ms, @p required asked.
RungRace race(int rung, bool won, double lab_ms, double reference_ms, double required, const std::string& name) {
    RungRace r;
    r.rung = rung;
    r.measured = true;
    r.won = won;
    r.lab_ms = lab_ms;
    r.reference_ms = reference_ms;
    r.speedup = reference_ms / lab_ms;
    r.required = required;
    r.name = name;
    return r;
}

// A registry of one lab with a ladder of three rungs (1 + 1 + 2 points), as labs.json declares lab 09's.
tilelab::report::Registry ladder_registry() {
    const nlohmann::json gate = {{"kind", "gate"}, {"gpu_only", "the performance gate compares GPU timings"}};
    return tilelab::report::read_registry(nlohmann::json::parse(R"({
        "skipped_checks": "exclude",
        "suites": {"build": {"kind": "build"}, "tiny": {"kind": "correctness"},
                   "perf-rung1": {"kind": "gate", "gpu_only": "timings"}, "perf-rung2": {"kind": "gate", "gpu_only": "timings"},
                   "perf": {"kind": "gate", "gpu_only": "timings"}},
        "labs": [{"id": "lab09", "folder": "09_tensor_cores", "files": ["kernel.cu"], "checks": [
            {"name": "computes", "points": 3, "suites": ["tiny"]},
            {"name": "beats lab 06's model kernel", "points": 1, "suites": ["perf-rung1"]},
            {"name": "beats lab 07's model kernel", "points": 1, "suites": ["perf-rung2"]},
            {"name": "beats the previous lab's model kernel", "points": 2, "suites": ["perf"]}]}]})"));
}

// The test of @p suite with state @p state, and a gate's measures of rung @p rung of 3 where @p rung > 0.
tilelab::report::TestResult test(const std::string& suite, const std::string& state, int rung, double speedup,
                                 double required, double student_ms, double reference_ms) {
    tilelab::report::TestResult t;
    t.name = "graded.lab09.tw16." + suite;
    t.id = {"lab09", 16, false, suite, suite};
    t.state = state;
    t.reason = state == "passed" ? "" : "hint: not fast enough";
    if (rung > 0) {
        tilelab::report::GateMeasures gate;
        gate.speedup = speedup;
        gate.required = required;
        gate.model_speedup = 3.1;
        gate.required_by = "calibration";
        gate.gpu = "NVIDIA H200";
        gate.rung = rung;
        gate.rungs = 3;
        gate.student_ms = student_ms;
        gate.reference_ms = reference_ms;
        t.gate = gate;
    }
    return t;
}

// A kernel at lab 08's model's speed submitted to lab 09: faster than lab 06's and lab 07's models, not lab 08's by
// the margin (1.00x against 1.14x).
std::vector<tilelab::report::TestResult> previous_labs_speed() {
    return {test("tiny", "passed", 0, 0, 0, 0, 0), test("perf-rung1", "passed", 1, 1.98, 1.0, 1.0, 1.98),
            test("perf-rung2", "passed", 2, 1.25, 1.0, 1.0, 1.25), test("perf", "failed", 3, 1.0, 1.14, 1.0, 1.0)};
}

}  // namespace

TEST_SUITE("gate_ladder") {
    TEST_CASE("the rung reached is the highest won with every rung below it; the next is the lowest not won") {
        CHECK(standing({}, 3).reached == 0);
        CHECK(standing({}, 3).next == 1);
        const auto lower = standing({race(1, true, 1, 2, 1, ""), race(2, true, 1, 1.3, 1, ""), race(3, false, 1, 1, 1.14, "")}, 3);
        CHECK(lower.reached == 2);
        CHECK(lower.next == 3);
        CHECK(lower.rungs == 3);
        const auto top = standing({race(3, true, 1, 2, 1.14, ""), race(1, true, 1, 4, 1, ""), race(2, true, 1, 3, 1, "")}, 3);
        CHECK(top.reached == 3);  // any order
        CHECK(top.next == 0);
        // A rung won above one lost (a ladder's rungs race different references) is not reached: the line names the
        // first rung still to climb.
        const auto gap = standing({race(1, false, 1, 0.9, 1, ""), race(2, true, 1, 1.1, 1, "")}, 2);
        CHECK(gap.reached == 0);
        CHECK(gap.next == 1);
        // A rung with no race (not run, its check failed before it raced) is not won.
        CHECK(standing({race(2, true, 1, 2, 1, "")}, 2).next == 1);
    }

    TEST_CASE("the next rung's time: the reference's time over the speedup it requires, where it was timed") {
        CHECK(needed_ms(race(3, false, 1.01, 1.0, 1.14, "")) == doctest::Approx(1.0 / 1.14));
        RungRace wrong = race(3, false, 1.01, 1.0, 1.14, "");
        wrong.measured = false;  // its results were wrong: no time is asked of a kernel that does not compute P
        CHECK(needed_ms(wrong) == 0);
        CHECK(needed_ms(RungRace{}) == 0);
    }

    TEST_CASE("the line names the rung reached, and the next one with the time it needs") {
        const std::vector<RungRace> at_previous = {race(1, true, 1.0, 1.98, 1.0, "beats lab 06's model kernel"),
                                                   race(2, true, 1.0, 1.25, 1.0, "beats lab 07's model kernel"),
                                                   race(3, false, 1.0, 1.0, 1.14, "beats the previous lab's model kernel")};
        CHECK(standing_line(at_previous, 3) ==
              "rung 2 of 3 reached (beats lab 07's model kernel); next: rung 3 (beats the previous lab's model "
              "kernel), 1.14x required: 0.877 ms or less a launch, the kernel took 1.000 ms");
        CHECK(standing_line({race(1, false, 2.0, 1.0, 1.1, "faster than the naive kernel")}, 2) ==
              "no rung of 2 reached; next: rung 1 (faster than the naive kernel), 1.10x required: 0.909 ms or less a "
              "launch, the kernel took 2.000 ms");
        CHECK(standing_line({race(1, true, 0.5, 1.0, 1.1, "a"), race(2, true, 0.5, 1.0, 1.26, "b")}, 2) ==
              "rung 2 of 2 reached (b): the top of the ladder");
        RungRace untimed = race(1, false, 1, 1, 1.1, "a");
        untimed.measured = false;
        CHECK(standing_line({untimed, race(2, true, 0.5, 1.0, 1.26, "b")}, 2) ==
              "no rung of 2 reached; next: rung 1 (a), not timed; rung 2 won too");
        CHECK(standing_line({race(1, true, 0.5, 1.0, 1.1, "a")}, 3) == "rung 1 of 3 reached (a); next: rung 2, not raced");
    }

    TEST_CASE("each rung earns its own check's points: the previous lab's speed earns the lower rungs' only") {
        const tilelab::report::Grade grade = tilelab::report::score(ladder_registry(), previous_labs_speed());
        REQUIRE(grade.checks.size() == 4);
        CHECK(grade.checks[1].earned == 1);
        CHECK(grade.checks[2].earned == 1);
        CHECK(grade.checks[3].earned == 0);
        CHECK(grade.checks[3].state == "failed");
        CHECK(grade.earned == 3 + 2);
        CHECK(grade.possible == 3 + 4);  // the lab's speed points, 4 as before the ladder, split 1 + 1 + 2
        // Every rung reached: all the speed points; none: none of them.
        auto all = previous_labs_speed();
        all[3].state = "passed";
        CHECK(tilelab::report::score(ladder_registry(), all).earned == 7);
        auto none = previous_labs_speed();
        for (auto& t : none)
            if (t.gate) t.state = "failed";
        CHECK(tilelab::report::score(ladder_registry(), none).earned == 3);
        // On a machine without a GPU every rung is skipped, and left out of the total as the gate was.
        auto cpu = previous_labs_speed();
        for (auto& t : cpu)
            if (t.gate) {
                t.state = "skipped";
                t.gate.reset();
            }
        const auto skipped = tilelab::report::score(ladder_registry(), cpu);
        CHECK(skipped.possible == 3);
        CHECK(skipped.checks[1].state == "skipped");
    }

    TEST_CASE("the report's gate lines: the lab's ladder, then each rung's race named by its check") {
        const tilelab::report::Grade grade = tilelab::report::score(ladder_registry(), previous_labs_speed());
        const std::string report = tilelab::report::render_report(grade, {"alice", "b", "b/results.json", {}, {}});
        CHECK(report.find("\nPerformance gates:\n  lab09 on NVIDIA H200: rung 2 of 3 reached (beats lab 07's model "
                          "kernel); next: rung 3 (beats the previous lab's model kernel), 1.14x required: 0.877 ms or "
                          "less a launch, the kernel took 1.000 ms\n") != std::string::npos);
        CHECK(report.find("\n    rung 1 (beats lab 06's model kernel): speedup 1.98x, required 1.00x, calibrated on "
                          "this GPU: the lab's model answer is 3.10x\n") != std::string::npos);
        CHECK(report.find("\n    rung 3 (beats the previous lab's model kernel): speedup 1.00x, required 1.14x")
              != std::string::npos);
        // results.json: one test per rung's check, each with its own points (Gradescope adds them up).
        const nlohmann::json results = tilelab::report::results_json(grade, {});
        CHECK(results["tests"][1]["name"] == "lab09: beats lab 06's model kernel");
        CHECK(results["tests"][1]["score"] == 1);
        CHECK(results["tests"][3]["score"] == 0);
        CHECK(results["tests"][3]["max_score"] == 2);
        // summary.json: each rung's race with its place on the ladder (a class's chart keeps the top rung's).
        const nlohmann::json summary = tilelab::report::summary_json(grade, {});
        REQUIRE(summary["gates"].size() == 3);
        CHECK(summary["gates"][0]["rung"] == 1);
        CHECK(summary["gates"][2]["rungs"] == 3);
        CHECK(summary["gates"][2]["passed"] == false);
    }
}
