// The grade of one submission from its tests' results and the rubric: points per check, the tables a student
// reads, Gradescope's results.json and the summary a batch reads (summary.json).
#pragma once

#include "records.hpp"
#include "registry.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace tilelab::report {

/// One rubric check's points.
struct CheckScore {
    std::string lab;     ///< the lab's id
    std::string name;    ///< the check's name in the registry
    int earned = 0;      ///< points earned
    int max = 0;         ///< points it counts for (0 when skipped and the rule excludes it)
    std::string state;   ///< "passed", "failed" or "skipped"
    std::string reason;  ///< why it did not pass, "<test>: <reason>" for a failure; "" when it passed
    std::string details; ///< a failure's details beyond the reason (the compiler's errors, the wrong elements)
    std::string test;    ///< the CTest test its reason comes from (a failure's), "" otherwise: the one to run again
    std::vector<std::string> suites;  ///< the registry's suites that make it
};

/// A submission's grade.
struct Grade {
    std::vector<TestResult> tests;   ///< the graded tests, in CTest's order
    std::vector<CheckScore> checks;  ///< the rubric's checks that exist here, in the registry's order
    int earned = 0;                  ///< the total earned
    int possible = 0;                ///< the total possible
    int failed = 0;                  ///< how many checks failed
    std::string rule;                ///< the rule for skipped checks, in words
};

/// What the caller knows of the grading beyond the records.
struct GradeContext {
    std::string submission;                 ///< what was graded, as the command line named it
    std::string build;                      ///< the build folder (the "run one check again" line)
    std::string results;                    ///< where results.json goes (the total's line)
    std::vector<std::string> notes;         ///< warnings for the report: not graded as root, a file no lab takes
    std::map<std::string, double> timings;  ///< "configure", "prebuild", "wall": seconds of grade.cmake's steps
    std::vector<std::string> stubs;         ///< the labs whose files are the kit's stubs as given (stub_files.hpp)
    bool brief = false;                     ///< the points alone (a student's grade): no table of checks, a lab
                                            ///< left as the stubs, or failing every check beyond its build, in
                                            ///< one line; the full log is in the build
};

/// The points of each rubric check: it earns them when none of its tests failed (or did not run) and at least
/// one passed; it is skipped when all of its tests were skipped (for want of a GPU), and the registry's
/// skipped_checks rule says what that counts; an optional check with no test is left out, another one fails.
Grade score(const Registry& registry, std::vector<TestResult> tests);

/// @p number with two decimals, as the checker prints a speedup (the thousandths rounded half up).
std::string two_decimals(double number);

/// Everything the terminal shows: table 1 (checks by tile width, left out when brief), table 2 (points, with
/// reasons; when brief, a lab left as the stubs or failing every check beyond its build in one row), the performance gates, the total, the notes, the count
/// of tests by state, and the exact command that runs the failed checks' tests again (rerun_command()).
std::string render_report(const Grade& grade, const GradeContext& context);

/// The CTest command that runs again, with their output, the tests named by the failed checks of @p grade (a lab
/// left as the stubs left out when @p context is brief): an anchored regex of their exact names, so that it matches
/// nothing else (a GPU test of the same check, skipped without a GPU, would report "100% tests passed"); "" when no
/// check failed. A lab shown in one row of a brief report is run again by its first failed check's test alone.
std::string rerun_command(const Grade& grade, const GradeContext& context);

/// Gradescope's results.json: one test per rubric check, the score, the summary line and the leaderboard (the
/// fastest right result of any gate, whole GFLOP/s).
nlohmann::json results_json(const Grade& grade, const GradeContext& context);

/// summary.json (schema "summary": 1), read by `tilelab-report class`: points per lab and check, the gates'
/// measures, and where the time went.
nlohmann::json summary_json(const Grade& grade, const GradeContext& context);

}  // namespace tilelab::report
