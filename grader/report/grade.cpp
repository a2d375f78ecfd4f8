#include "grade.hpp"

#include "check_details.hpp"

#include <tilelab/gate_ladder.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <regex>
#include <set>
#include <sstream>

namespace tilelab::report {

Grade score(const Registry& registry, std::vector<TestResult> tests) {
    Grade grade;
    grade.rule = skipped_rule_text(registry);
    for (const auto& check : registry.checks) {
        int matched = 0;
        bool any_passed = false;
        std::string state, reason, skip_reason, details, failed_test;
        for (auto& test : tests) {
            if (test.id.lab != check.lab ||
                std::find(check.suites.begin(), check.suites.end(), test.id.suite) == check.suites.end())
                continue;
            ++matched;
            test.check = check.name;  // a gate's rung is named by its check in the gates' lines
            // A failed (or not run) test fails the check; a GPU test skipped on a machine without one does not
            // hold back the same check passed on the CPU backend.
            if ((test.state == "failed" || test.state == "notrun") && state != "failed") {
                state = "failed";
                reason = test.name + ": " + test.reason;
                details = details_beyond(test.details, reason);
                failed_test = test.name;
            } else if (test.state == "skipped" && skip_reason.empty()) {
                skip_reason = test.reason;
            } else if (test.state == "passed") {
                any_passed = true;
            }
        }
        if (matched == 0) {
            if (check.optional) continue;  // e.g. compute-sanitizer is not installed: the check does not exist here
            state = "failed";
            std::string suites;
            for (const auto& suite : check.suites) suites += (suites.empty() ? "" : ", ") + suite;
            reason = "registry: no test of the suites " + suites + " (graded." + check.lab + ".tw<N>[.cpu].<suite>)";
        } else if (state != "failed") {
            state = any_passed ? "passed" : "skipped";
            if (!any_passed) reason = skip_reason;
        }
        CheckScore row{check.lab, check.name, 0, check.points, state, reason, details, failed_test, check.suites};
        if (state == "passed") {
            row.earned = check.points;
        } else if (state == "skipped" && registry.skipped_checks == "exclude") {
            row.max = 0;
            row.reason += " (excluded from the total)";
        } else if (state == "skipped") {
            row.reason += " (points withheld)";
        } else {
            ++grade.failed;
        }
        grade.earned += row.earned;
        grade.possible += row.max;
        grade.checks.push_back(std::move(row));
    }
    grade.tests = std::move(tests);
    return grade;
}

std::string two_decimals(double number) {
    // From the number's JSON text with 17 digits, as grade.cmake read it: thousandths truncated, then rounded.
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", number);
    std::cmatch match;
    static const std::regex plain(R"(^([0-9]+)\.?([0-9]*)$)");
    if (!std::regex_match(text, match, plain)) return text;
    const long long whole = std::stoll(match[1].str());
    const std::string fraction = (match[2].str() + "000").substr(0, 3);
    const long long hundredths = (whole * 1000 + std::stoll(fraction) + 5) / 10;
    char out[64];
    std::snprintf(out, sizeof out, "%lld.%02lld", hundredths / 100, hundredths % 100);
    return out;
}

namespace {

/// @p text padded with spaces to @p width bytes (never cut).
std::string pad(std::string text, std::size_t width) {
    if (text.size() < width) text.append(width - text.size(), ' ');
    return text;
}

/// Table 1: one row per lab and check (CTest's order), one column per tile width.
void table_of_checks(std::ostream& out, const Grade& grade, const GradeContext& context) {
    std::vector<std::string> rows;
    std::set<int> widths;
    std::map<std::pair<std::string, int>, std::string> cells;
    for (const auto& test : grade.tests) {
        const std::string row = test.id.lab + " " + test.id.row;
        if (std::find(rows.begin(), rows.end(), row) == rows.end()) rows.push_back(row);
        widths.insert(test.id.tile_width);
        const std::string& state = test.state;
        cells[{row, test.id.tile_width}] = state == "failed" ? "FAIL" : state == "notrun" ? "not run" : state;
    }
    out << "\nTileLab results for " << context.submission << "\n" << pad("lab check", 28);
    for (int width : widths) out << pad("TILE_WIDTH " + std::to_string(width), 15);
    out << "\n";
    for (const auto& row : rows) {
        out << pad(row, 28);
        for (int width : widths) {
            const auto cell = cells.find({row, width});
            out << pad(cell == cells.end() ? "-" : cell->second, 15);
        }
        out << "\n";
    }
}

/// How a brief report shows a lab: each check in its row, or the whole lab in one row.
enum class LabRow { each_check, stubs, all_failed };

/// Whether @p check is a lab's build check (its suites have "build"), which passes for the stubs too.
bool is_build_check(const CheckScore& check) {
    return std::find(check.suites.begin(), check.suites.end(), "build") != check.suites.end();
}

/// How @p lab is shown: in a brief report, in one row where its files are the kit's stubs as given, or where every
/// check beyond its build failed (nothing passed that the first failure's fix would not change); else check by check.
LabRow lab_row(const std::string& lab, const Grade& grade, const GradeContext& context) {
    if (!context.brief) return LabRow::each_check;
    if (std::find(context.stubs.begin(), context.stubs.end(), lab) != context.stubs.end()) return LabRow::stubs;
    bool failed = false;
    for (const auto& check : grade.checks) {
        if (check.lab != lab || is_build_check(check)) continue;
        if (check.state == "passed") return LabRow::each_check;
        failed = failed || check.state == "failed";
    }
    return failed ? LabRow::all_failed : LabRow::each_check;
}

/// Table 2: points per rubric check, with the reason of each that did not pass; in a brief report, a lab left as
/// the stubs, or one whose every check beyond the build failed, in one row (with the first failure's reason).
void table_of_points(std::ostream& out, const Grade& grade, const GradeContext& context) {
    std::size_t check_width = 5;
    for (const auto& check : grade.checks) check_width = std::max(check_width, check.name.size());
    check_width += 2;
    out << "\n" << pad("lab", 7) << pad("check", check_width) << "points   result\n";
    std::map<std::string, std::pair<int, int>> lab_points;  // earned, possible of each lab shown in one row
    std::map<std::string, std::string> first_failure;       // its first failed check's reason
    for (const auto& check : grade.checks) {
        if (lab_row(check.lab, grade, context) == LabRow::each_check) continue;
        lab_points[check.lab].first += check.earned;
        lab_points[check.lab].second += check.max;
        if (check.state == "failed" && !first_failure.count(check.lab))
            first_failure[check.lab] = (is_build_check(check) ? "failed, the build first: " : "failed beyond the build; "
                                                                                             "the first: ") + check.reason;
    }
    for (const auto& check : grade.checks) {
        const LabRow row = lab_row(check.lab, grade, context);
        if (row != LabRow::each_check) {
            const auto points = lab_points.find(check.lab);
            if (points == lab_points.end()) continue;  // its one row is written
            out << pad(check.lab, 7) << pad("every check", check_width)
                << pad(std::to_string(points->second.first) + "/" + std::to_string(points->second.second), 9)
                << (row == LabRow::stubs ? "not started: its files are the kit's stubs"
                                         : first_failure[check.lab])
                << "\n";
            lab_points.erase(points);
            continue;
        }
        out << pad(check.lab, 7) << pad(check.name, check_width)
            << pad(std::to_string(check.earned) + "/" + std::to_string(check.max), 9) << check.state;
        if (check.state != "passed") out << ": " << check.reason;
        out << "\n";
    }
}

/// One race of a gate: its speedup, the speedup it required on this GPU, and where that requirement came from.
std::string speed_text(const GateMeasures& gate) {
    if (!gate.results_right) return "not timed: the results are wrong";  // a stub that writes nothing is fast
    std::string text = "speedup " + two_decimals(gate.speedup) + "x, required " + two_decimals(gate.required) + "x";
    if (gate.required_by == "TILELAB_MIN_SPEEDUP")
        text += ", set by TILELAB_MIN_SPEEDUP";
    else if (gate.model_speedup)
        text += ", calibrated on this GPU: the lab's model answer is " + two_decimals(*gate.model_speedup) + "x";
    return text;
}

/// The races of a lab's gate as its ladder's rungs (tilelab/gate_ladder.hpp), each named by its check.
std::vector<ladder::RungRace> rung_races(const std::vector<const TestResult*>& tests) {
    std::vector<ladder::RungRace> races;
    for (const TestResult* test : tests) {
        const GateMeasures& gate = *test->gate;
        ladder::RungRace race;
        race.rung = gate.rung;
        race.measured = gate.results_right && gate.student_ms > 0 && gate.reference_ms > 0;
        race.won = test->state == "passed";
        race.speedup = gate.speedup;
        race.required = gate.required;
        race.lab_ms = gate.student_ms;
        race.reference_ms = gate.reference_ms;
        race.name = test->check;
        races.push_back(race);
    }
    return races;
}

/// Each lab's performance gate: for a ladder of rungs, the rung the kernel reached and the time the next one needs,
/// then each rung's race; for a gate of one race (a record that names no rung), that race.
void gates(std::ostream& out, const Grade& grade) {
    std::vector<std::string> labs;  // in the order of their first gate
    std::map<std::string, std::vector<const TestResult*>> of_lab;
    for (const auto& test : grade.tests) {
        if (!test.gate) continue;
        if (!of_lab.count(test.id.lab)) labs.push_back(test.id.lab);
        of_lab[test.id.lab].push_back(&test);
    }
    std::ostringstream lines;
    for (const auto& lab : labs) {
        const std::vector<const TestResult*>& tests = of_lab[lab];
        int rungs = 0;
        for (const TestResult* test : tests) rungs = std::max(rungs, test->gate->rungs);
        const std::string& gpu = tests.front()->gate->gpu;
        if (rungs < 2) {
            for (const TestResult* test : tests)
                lines << "\n  " << lab << (test->gate->gpu.empty() ? "" : " on " + test->gate->gpu) << ": "
                      << speed_text(*test->gate);
            continue;
        }
        lines << "\n  " << lab << (gpu.empty() ? "" : " on " + gpu) << ": " << ladder::standing_line(rung_races(tests), rungs);
        for (const TestResult* test : tests)
            lines << "\n    rung " << test->gate->rung << (test->check.empty() ? "" : " (" + test->check + ")") << ": "
                  << speed_text(*test->gate);
    }
    if (!lines.str().empty()) out << "\nPerformance gates:" << lines.str() << "\n";
}

/// @p name as a regular expression that matches exactly it: every character that CTest's regex reads specially
/// escaped (a test's name has dots).
std::string literal_regex(const std::string& name) {
    std::string escaped;
    for (const char c : name) {
        if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) escaped += '\\';
        escaped += c;
    }
    return escaped;
}

/// The tests by state, "63 tests: 33 passed, 30 skipped, 0 failed": what the handouts' "what passing looks like"
/// promises (tilelab-handout-facts).
std::string test_counts(const Grade& grade) {
    int passed = 0, skipped = 0, failed = 0, not_run = 0;
    for (const auto& test : grade.tests)
        (test.state == "passed" ? passed : test.state == "skipped" ? skipped : test.state == "notrun" ? not_run : failed) += 1;
    return std::to_string(grade.tests.size()) + " tests: " + std::to_string(passed) + " passed, " +
           std::to_string(skipped) + " skipped, " + std::to_string(failed) + " failed" +
           (not_run > 0 ? ", " + std::to_string(not_run) + " not run (their lab did not build)" : "");
}

}  // namespace

std::string rerun_command(const Grade& grade, const GradeContext& context) {
    std::vector<std::string> names;
    std::set<std::string> shown_once;  // the labs in one row: only their first failure is named
    for (const auto& check : grade.checks) {
        if (check.state != "failed" || check.test.empty()) continue;
        const LabRow row = lab_row(check.lab, grade, context);
        if (row == LabRow::stubs || (row == LabRow::all_failed && !shown_once.insert(check.lab).second)) continue;
        if (std::find(names.begin(), names.end(), check.test) == names.end()) names.push_back(check.test);
    }
    if (names.empty()) return "";
    std::string regex;
    for (const auto& name : names) regex += (regex.empty() ? "" : "|") + literal_regex(name);
    return "ctest --test-dir " + context.build + " -R '^(" + regex + ")$' --output-on-failure";
}

std::string render_report(const Grade& grade, const GradeContext& context) {
    std::ostringstream out;
    if (!context.brief) table_of_checks(out, grade, context);
    table_of_points(out, grade, context);
    gates(out, grade);
    out << "\nTotal: " << grade.earned << " of " << grade.possible << " points (" << grade.rule
        << "). Report: " << context.results << "\n";
    for (const auto& note : context.notes) out << "Note: " << note << "\n";
    out << "Ran " << test_counts(grade) << ".\n";
    const std::string rerun = rerun_command(grade, context);
    if (!rerun.empty()) out << "Run the failed checks' tests again, with their messages: " << rerun << "\n";
    return out.str();
}

namespace {

/// A timing the caller passed, 0 where it passed none.
double timing(const GradeContext& context, const std::string& name) {
    const auto found = context.timings.find(name);
    return found == context.timings.end() ? 0 : found->second;
}

/// The notes as one line, "; " between them ("" for none): summary.json's "note", which a class's table shows.
std::string joined_notes(const GradeContext& context) {
    std::string joined;
    for (const auto& note : context.notes) joined += (joined.empty() ? "" : "; ") + note;
    return joined;
}

}  // namespace

nlohmann::json results_json(const Grade& grade, const GradeContext& context) {
    nlohmann::json tests = nlohmann::json::array();
    for (const auto& check : grade.checks) {
        // The checker's details first, then the reason, as the terminal shows them (a hint's "above" holds).
        const std::string output = check.details.empty() ? check.reason : check.details + "\n\n" + check.reason;
        nlohmann::json test = {{"name", check.lab + ": " + check.name}, {"score", check.earned},
                               {"max_score", check.max}, {"output", output}, {"visibility", "visible"}};
        if (check.state != "skipped") test["status"] = check.state;  // Gradescope knows passed and failed only
        tests.push_back(std::move(test));
    }
    std::string summary =
        "TileLab: " + std::to_string(grade.earned) + " of " + std::to_string(grade.possible) + " points; " + grade.rule + ".";
    for (const auto& note : context.notes) summary += " Note: " + note + ".";
    nlohmann::json results = {{"score", grade.earned},
                              {"execution_time", static_cast<long long>(std::llround(timing(context, "wall")))},
                              {"output", summary},
                              {"tests", tests}};
    std::optional<double> fastest;
    for (const auto& test : grade.tests)
        if (test.gate && test.gate->gflops && (!fastest || *test.gate->gflops > *fastest)) fastest = test.gate->gflops;
    if (fastest)
        results["leaderboard"] = {{{"name", "GFLOP/s (fastest lab)"},
                                   {"value", static_cast<long long>(std::floor(*fastest))}}};
    return results;
}

nlohmann::json summary_json(const Grade& grade, const GradeContext& context) {
    nlohmann::json labs = nlohmann::json::array(), checks = nlohmann::json::array(), gates = nlohmann::json::array();
    std::vector<std::string> order;
    std::map<std::string, std::pair<int, int>> per_lab;
    for (const auto& check : grade.checks) {
        if (!per_lab.count(check.lab)) order.push_back(check.lab);
        per_lab[check.lab].first += check.earned;
        per_lab[check.lab].second += check.max;
        checks.push_back({{"lab", check.lab}, {"name", check.name}, {"earned", check.earned}, {"max", check.max},
                          {"state", check.state}, {"reason", check.reason}, {"details", check.details}});
    }
    for (const auto& lab : order) {
        labs.push_back({{"id", lab}, {"earned", per_lab[lab].first}, {"possible", per_lab[lab].second}});
        if (std::find(context.stubs.begin(), context.stubs.end(), lab) != context.stubs.end())
            labs.back()["stub"] = true;  // a class's page counts it apart from a wrong answer
    }
    double build = 0, cpu = 0, gpu = 0;
    for (const auto& test : grade.tests) {
        (test.id.suite == "build" ? build : test.id.cpu ? cpu : gpu) += test.seconds;
        if (!test.gate) continue;
        const GateMeasures& gate = *test.gate;
        nlohmann::json entry = {{"lab", test.id.lab}, {"test", test.name}, {"speedup", gate.speedup},
                                {"required", gate.required}, {"required_by", gate.required_by}, {"gpu", gate.gpu}};
        if (gate.rung > 0) {  // a rung of the lab's ladder (a class's chart shows the top rung's race)
            entry["rung"] = gate.rung;
            entry["rungs"] = gate.rungs;
            entry["passed"] = test.state == "passed";
        }
        if (gate.model_speedup) entry["model_speedup"] = *gate.model_speedup;
        if (gate.gflops) entry["gflops"] = *gate.gflops;
        gates.push_back(std::move(entry));
    }
    return {{"summary", 1},
            {"submission", context.submission},
            {"rule", grade.rule},
            {"note", joined_notes(context)},
            {"labs", labs},
            {"earned", grade.earned},
            {"possible", grade.possible},
            {"checks", checks},
            {"gates", gates},
            {"timings",
             {{"wall_seconds", std::llround(timing(context, "wall"))},
              {"configure_seconds", std::llround(timing(context, "configure"))},
              {"prebuild_seconds", std::llround(timing(context, "prebuild"))}, {"test_seconds_build", build},
              {"test_seconds_cpu", cpu}, {"test_seconds_gpu", gpu}}}};
}

}  // namespace tilelab::report
