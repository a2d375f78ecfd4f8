// A grading's tests and what their records say: CTest's list of tests (ctest --show-only=json-v1) names every
// graded test, so that one that never wrote its record (<build>/verdicts/<test>.json) is still seen, and failed.
#pragma once

#include "registry.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace tilelab::report {

/// What a graded test is: its lab, tile width, backend and suite, as the test's CTest labels say (cmake/TileLab.cmake
/// gives every graded test the labels "graded", its lab, "tw<N>", its backend and its suite).
struct TestName {
    std::string lab;     ///< "lab02"
    int tile_width = 0;  ///< N
    bool cpu = false;    ///< the CPU backend's test (label "cpu"; "gpu" otherwise)
    std::string suite;   ///< a suite of the registry, "edges"
    std::string row;     ///< table 1's row within the lab: the suite, "cpu.edges" on the CPU backend
};

/// One test of CTest's list (ctest --show-only=json-v1): its name and its labels.
struct ListedTest {
    std::string name;                 ///< the CTest test
    std::vector<std::string> labels;  ///< its LABELS property
};

/// What a performance gate's record measured (its "measures").
struct GateMeasures {
    double speedup = 0;                  ///< the student's kernel over the reference
    double required = 0;                 ///< the speedup the gate asked for on this GPU
    std::optional<double> model_speedup; ///< the lab's model answer's speedup there, where measured
    std::string required_by;             ///< "calibration" or "TILELAB_MIN_SPEEDUP"
    std::string gpu;                     ///< the GPU's name
    std::optional<double> gflops;        ///< the student's rate, where its result was right (the leaderboard)
    int rung = 0;                        ///< the rung of the lab's gate it raced, 1 for the lowest (0: not said)
    int rungs = 0;                       ///< the rungs of the lab's gate (0: not said, a gate of one rung)
    double student_ms = 0;               ///< the student's kernel's median time per launch (0: not said)
    double reference_ms = 0;             ///< the reference's (0: not said)
    bool results_right = true;           ///< every audited result was the lab's own and right (else no measure)
};

/// One graded test, as the report counts it.
struct TestResult {
    std::string name;                   ///< the CTest test
    TestName id;                        ///< its name's parts
    std::string state;                  ///< "passed", "failed", "skipped" or "notrun" (its lab did not build)
    std::string reason;                 ///< one line: the hint ("hint: ..."), else the message, else the state
    double seconds = 0;                 ///< how long the check took, from its record
    std::optional<GateMeasures> gate;   ///< a performance gate's measures
    std::string check;                  ///< the name of the rubric check it counts for (score() says; "" for none)
    std::string details;                ///< a failed check's log beyond the reason (check_details.hpp), "" if none
};

/// What @p test is when its labels make it a graded test of a lab and a suite the registry knows (one of each, one
/// tile width and one backend), else nothing (a test of a lab left out of the assignment is not graded).
std::optional<TestName> graded_identity(const ListedTest& test, const Registry& registry);

/// The tests of CTest's list (ctest --show-only=json-v1), in registration order, with their labels; throws
/// std::runtime_error when it is not that list.
std::vector<ListedTest> read_test_list(const nlohmann::json& ctest);

/// @p text cut to 240 bytes ("..." at the end), at a UTF-8 character's start: one line of a table.
std::string shorten(const std::string& text);

/// The graded tests of @p tests with what their records in @p verdicts (a build's verdicts/) say. A test with no
/// record failed (it did not finish), unless its lab's build check failed, which kept it from running.
std::vector<TestResult> read_results(const std::string& verdicts, const std::vector<ListedTest>& tests,
                                     const Registry& registry);

}  // namespace tilelab::report
