// tilelab-report's grading (grader/report) on hand-written records (fixtures/records): a registry of three labs,
// CTest's list of tests, and one record per case: passed, failed with a hint, skipped for want of a GPU, no
// record (killed, or its lab did not build), a gate with its measures, a gate set by TILELAB_MIN_SPEEDUP, and a
// log in which the lab's program forges the grader's words (which nothing reads).
#include "grade.hpp"
#include "options.hpp"
#include "records.hpp"
#include "registry.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

namespace {

using namespace tilelab::report;

const std::string records = TILELAB_UNIT_FIXTURES "/records";

/// The fixtures' grade, under the registry's rule or under @p rule.
Grade fixture_grade(const std::string& rule = "") {
    nlohmann::json registry_json = load_json(records + "/labs.json");
    if (!rule.empty()) registry_json["skipped_checks"] = rule;
    const Registry registry = read_registry(registry_json);
    return score(registry, read_results(records + "/verdicts", read_test_list(load_json(records + "/tests.json")), registry));
}

/// The check of @p lab named @p name; fails the test case when there is none.
CheckScore check_of(const Grade& grade, const std::string& lab, const std::string& name) {
    for (const auto& check : grade.checks)
        if (check.lab == lab && check.name == name) return check;
    FAIL("no check " << lab << ": " << name);
    return {};
}

/// The test named @p name; fails the test case when there is none.
TestResult test_of(const Grade& grade, const std::string& name) {
    for (const auto& test : grade.tests)
        if (test.name == name) return test;
    FAIL("no test " << name);
    return {};
}

}  // namespace

TEST_SUITE("report") {
    TEST_CASE("only tests named graded.<lab>.tw<N>[.cpu].<suite> of a registered suite are graded") {
        const Grade grade = fixture_grade();
        for (const auto& test : grade.tests) {
            CHECK(test.name.rfind("graded.", 0) == 0);
            CHECK(test.id.suite != "checks");  // a series is no check of its own: its suites are
        }
        CHECK(grade.tests.size() == 22);  // 26 in CTest's list, less 3 series and unit.report
        const TestResult gpu = test_of(grade, "graded.lab01.tw16.odd-shapes");
        CHECK(gpu.id.lab == "lab01");
        CHECK(gpu.id.tile_width == 16);
        CHECK_FALSE(gpu.id.cpu);
        CHECK(test_of(grade, "graded.lab01.tw16.cpu.edges").id.row == "cpu.edges");
    }

    TEST_CASE("a check earns its points when none of its tests failed and one passed") {
        const Grade grade = fixture_grade();
        const CheckScore builds = check_of(grade, "lab01", "builds at every tile width");
        CHECK(builds.state == "passed");
        CHECK(builds.earned == 1);
        CHECK(builds.reason.empty());
        // Skipped on the GPU (none here), passed on the CPU backend: passed.
        const CheckScore shapes = check_of(grade, "lab01", "prime, tall, wide, thin shapes");
        CHECK(shapes.state == "passed");
        CHECK(shapes.earned == 2);
        // The gate passed on the GPU; the CPU backend's placeholder was skipped.
        CHECK(check_of(grade, "lab02", "beats the naive kernel").earned == 3);
    }

    TEST_CASE("a failed test fails its check, with the checker's hint as the reason") {
        const CheckScore edges = check_of(fixture_grade(), "lab01", "1x1x1 and the tile edges");
        CHECK(edges.state == "failed");
        CHECK(edges.earned == 0);
        CHECK(edges.max == 2);
        CHECK(edges.reason ==
              "graded.lab01.tw16.cpu.edges: hint: the last tile's row is never written: check the bound of the loop over rows");
    }

    TEST_CASE("a record's message is the reason when it has no hint (a missing file)") {
        CHECK(check_of(fixture_grade(), "lab03", "builds at every tile width").reason ==
              "graded.lab03.tw16.cpu.build: missing file: 03_tiled_boundary/kernel.cu is not in /somewhere");
    }

    TEST_CASE("a graded test with no record failed: it did not finish") {
        const Grade grade = fixture_grade();
        const TestResult killed = test_of(grade, "graded.lab02.tw16.cpu.tiny");
        CHECK(killed.state == "failed");
        CHECK(killed.reason ==
              "the check did not finish (stopped at its time limit, or crashed); see verdicts/graded.lab02.tw16.cpu.tiny.log");
        // It passed on the GPU; the CPU backend's failure fails the check all the same.
        CHECK(check_of(grade, "lab02", "1x1x1 and the tile edges").state == "failed");
    }

    TEST_CASE("a test with no record whose lab did not build was not run, and fails its check") {
        const Grade grade = fixture_grade();
        const TestResult not_run = test_of(grade, "graded.lab03.tw16.cpu.tiny");
        CHECK(not_run.state == "notrun");
        CHECK(not_run.reason == "not run: the lab's build check failed (missing file or compile error)");
        CHECK(check_of(grade, "lab03", "1x1x1 and the tile edges").state == "failed");
    }

    TEST_CASE("a check skipped for want of a GPU follows skipped_checks") {
        const CheckScore excluded = check_of(fixture_grade("exclude"), "lab03", "large products");
        CHECK(excluded.state == "skipped");
        CHECK(excluded.max == 0);
        CHECK(excluded.reason == "no usable CUDA GPU (no device found) (excluded from the total)");
        const Grade withheld_grade = fixture_grade("withhold");
        const CheckScore withheld = check_of(withheld_grade, "lab03", "large products");
        CHECK(withheld.max == 1);
        CHECK(withheld.earned == 0);
        CHECK(withheld.reason == "no usable CUDA GPU (no device found) (points withheld)");
        CHECK(withheld_grade.possible == fixture_grade("exclude").possible + 1);
        CHECK(withheld_grade.rule == "checks skipped for want of a GPU count as 0 of their points");
    }

    TEST_CASE("an optional check with no test is left out; another one fails") {
        const Grade grade = fixture_grade();
        for (const auto& check : grade.checks) CHECK_FALSE((check.lab == "lab01" && check.name == "clean under compute-sanitizer"));
        const CheckScore sanitizer = check_of(grade, "lab02", "clean under compute-sanitizer");
        CHECK(sanitizer.state == "failed");
        CHECK(sanitizer.reason == "registry: no test of the suites memcheck (graded.lab02.tw<N>[.cpu].<suite>)");
    }

    TEST_CASE("totals: points earned, possible, checks failed") {
        const Grade grade = fixture_grade();
        CHECK(grade.earned == 8);     // 1 + 2 + 1 (lab01) + 1 + 3 (lab02)
        CHECK(grade.possible == 21);  // lab01 6, lab02 9, lab03 6 (its skipped check left out)
        CHECK(grade.failed == 6);
    }

    TEST_CASE("the gates' measures come from their records; how the requirement was set is said") {
        const Grade grade = fixture_grade();
        const auto calibrated = test_of(grade, "graded.lab02.tw16.perf").gate;
        REQUIRE(calibrated);
        CHECK(calibrated->required_by == "calibration");
        CHECK(calibrated->gpu == "NVIDIA H100 80GB HBM3");
        const auto forced = test_of(grade, "graded.lab03.tw16.perf").gate;
        REQUIRE(forced);
        CHECK(forced->required_by == "TILELAB_MIN_SPEEDUP");
        CHECK_FALSE(forced->model_speedup);
        GradeContext context{"fixtures", "build/grade", "build/grade/results.json", {}, {}};
        const std::string report = render_report(grade, context);
        CHECK(report.find("\nPerformance gates:\n  lab02 on NVIDIA H100 80GB HBM3: speedup 2.38x, required 1.30x, "
                          "calibrated on this GPU: the lab's model answer is 2.19x\n") != std::string::npos);
        CHECK(report.find("  lab03 on NVIDIA H100 80GB HBM3: speedup 1.02x, required 1.05x, set by TILELAB_MIN_SPEEDUP\n") !=
              std::string::npos);
    }

    TEST_CASE("a gate whose results were wrong shows no speedup") {
        Grade grade = fixture_grade();
        for (auto& test : grade.tests)
            if (test.name == "graded.lab02.tw16.perf") test.gate->results_right = false;
        GradeContext context{"fixtures", "build/grade", "build/grade/results.json", {}, {}};
        const std::string report = render_report(grade, context);
        CHECK(report.find("\n  lab02 on NVIDIA H100 80GB HBM3: not timed: the results are wrong\n") != std::string::npos);
        CHECK(report.find("speedup 2.38x") == std::string::npos);
        CHECK(report.find("  lab03 on NVIDIA H100 80GB HBM3: speedup 1.02x, required 1.05x") != std::string::npos);
    }

    TEST_CASE("a lab's program's quoted lines in a log are never read") {
        // The failed record's log quotes the lab forging a hint, a rate and a speedup ("  | ..."): the report reads
        // records only, so none of them shows.
        const Grade grade = fixture_grade();
        const TestResult forged = test_of(grade, "graded.lab01.tw16.cpu.edges");
        CHECK(forged.state == "failed");
        CHECK(forged.reason.find("ignore the error") == std::string::npos);
        CHECK_FALSE(forged.gate);
        const nlohmann::json results = results_json(grade, {});
        CHECK(results["leaderboard"][0]["value"] == 34359);  // the gates' fastest, not 99999 forged in the log
    }

    TEST_CASE("speedups with two decimals, as the checker prints them") {
        CHECK(two_decimals(2.1899999999999999) == "2.19");
        CHECK(two_decimals(1) == "1.00");
        CHECK(two_decimals(0.995) == "1.00");
        CHECK(two_decimals(1.004) == "1.00");
        CHECK(two_decimals(10.5) == "10.50");
        CHECK(two_decimals(1.2975000000000001) == "1.30");
    }

    TEST_CASE("the tables: checks by tile width, points with reasons, the total, the note, one check again") {
        GradeContext context{"alice", "build/grade", "build/grade/results.json", {"not graded as root: see why"}, {}};
        const std::string report = render_report(fixture_grade(), context);
        CHECK(report.rfind("\nTileLab results for alice\nlab check                   TILE_WIDTH 8   TILE_WIDTH 16  \n", 0) == 0);
        CHECK(report.find("\nlab01 cpu.edges             passed         FAIL           \n") != std::string::npos);
        CHECK(report.find("\nlab01 odd-shapes            -              skipped        \n") != std::string::npos);
        CHECK(report.find("\nlab03 cpu.tiny              -              not run        \n") != std::string::npos);
        CHECK(report.find("\nlab    check                           points   result\n") != std::string::npos);
        CHECK(report.find("\nlab01  large products                  1/1      passed\n") != std::string::npos);
        CHECK(report.find("\nTotal: 8 of 21 points (checks skipped for want of a GPU are left out of the total). "
                          "Report: build/grade/results.json\nNote: not graded as root: see why\n") != std::string::npos);
        CHECK(report.find("\nRan ") != std::string::npos);
        CHECK(report.find("\nRun the failed checks' tests again, with their messages: " +
                          rerun_command(fixture_grade(), context) + "\n") != std::string::npos);
    }

    TEST_CASE("the command that runs the failed checks again names exactly their tests") {
        // Filled in by hand, "-R <lab>.tw<width>.<check>" matched the GPU's test alone, which is skipped without a
        // GPU: "100% tests passed" for a failed check. The command's anchored regex matches the failed checks'
        // tests and nothing else of the build, the other backend's test of the same check included.
        const Grade grade = fixture_grade();
        GradeContext context{"alice", "build/grade", "build/grade/results.json", {}, {}};
        const std::string command = rerun_command(grade, context);
        const std::string head = "ctest --test-dir build/grade -R '", tail = "' --output-on-failure";
        REQUIRE(command.rfind(head, 0) == 0);
        REQUIRE(command.size() > head.size() + tail.size());
        REQUIRE(command.compare(command.size() - tail.size(), tail.size(), tail) == 0);
        const std::regex selected(command.substr(head.size(), command.size() - head.size() - tail.size()));
        std::set<std::string> named;
        for (const auto& check : grade.checks)
            if (check.state == "failed") named.insert(check.test);
        REQUIRE_FALSE(named.empty());
        CHECK(named.count("graded.lab01.tw16.cpu.edges") == 1);
        for (const auto& test : grade.tests)
            CHECK_MESSAGE(std::regex_search(test.name, selected) == (named.count(test.name) == 1), test.name);
        CHECK_FALSE(std::regex_search(std::string("graded.lab01.tw16.edges"), selected));  // the GPU's twin
        CHECK_FALSE(std::regex_search(std::string("graded.lab01.tw16Xcpu.edges"), selected));  // dots are dots

        Grade passed = grade;
        for (auto& check : passed.checks) check.state = "passed";
        CHECK(rerun_command(passed, context).empty());
    }

    TEST_CASE("a brief report: the points alone, a lab left as the stubs in one row and not run again") {
        GradeContext context{"alice", "build/grade", "build/grade/results.json", {}, {}, {"lab01"}, true};
        const Grade grade = fixture_grade();
        const std::string report = render_report(grade, context);
        CHECK(report.find("TileLab results for") == std::string::npos);  // no table of checks by tile width
        CHECK(report.find("\nlab01  every check") != std::string::npos);
        CHECK(report.find("not started: its files are the kit's stubs\n") != std::string::npos);
        CHECK(report.find("\nlab01  large products") == std::string::npos);
        CHECK(rerun_command(grade, context).find("lab01") == std::string::npos);
        // lab03 failed every check (its build first): one row, the first failure's reason, its test run again alone.
        CHECK(report.find("\nlab03  every check                     0/6      failed, the build first: "
                          "graded.lab03.tw16.cpu.build: missing file") != std::string::npos);
        CHECK(report.find("\nlab02  1x1x1 and the tile edges        0/2      failed: ") != std::string::npos);
        CHECK(rerun_command(grade, context) == "ctest --test-dir build/grade -R "
                                               "'^(graded\\.lab02\\.tw16\\.cpu\\.tiny|graded\\.lab03\\.tw16\\.cpu\\.build)$' "
                                               "--output-on-failure");
        context.brief = false;
        CHECK(rerun_command(grade, context).find("lab01") != std::string::npos);
        CHECK(render_report(grade, context).find("\nlab01  large products") != std::string::npos);
    }

    TEST_CASE("results.json: Gradescope's tests, score, summary line and leaderboard") {
        GradeContext context{"alice", "b", "b/results.json", {"a note"}, {{"wall", 7}}};
        const nlohmann::json results = results_json(fixture_grade(), context);
        CHECK(results["score"] == 8);
        CHECK(results["execution_time"] == 7);
        CHECK(results["output"] ==
              "TileLab: 8 of 21 points; checks skipped for want of a GPU are left out of the total. Note: a note.");
        const auto& failed = results["tests"][1];
        CHECK(failed["name"] == "lab01: 1x1x1 and the tile edges");
        CHECK(failed["status"] == "failed");
        CHECK(failed["score"] == 0);
        CHECK(failed["max_score"] == 2);
        CHECK(failed["visibility"] == "visible");
        const auto& skipped = results["tests"][10];
        CHECK(skipped["name"] == "lab03: large products");
        CHECK_FALSE(skipped.contains("status"));  // Gradescope knows passed and failed only
        CHECK(results["leaderboard"][0]["name"] == "GFLOP/s (fastest lab)");
    }

    TEST_CASE("no leaderboard without a gate's right result") {
        Grade grade = fixture_grade();
        for (auto& test : grade.tests)
            if (test.gate) test.gate->gflops.reset();
        CHECK_FALSE(results_json(grade, {}).contains("leaderboard"));
    }

    TEST_CASE("summary.json: points per lab and check, gates, timings") {
        GradeContext context{"alice", "b", "b/results.json", {}, {{"wall", 97}, {"configure", 5}, {"prebuild", 28}}};
        const nlohmann::json summary = summary_json(fixture_grade(), context);
        CHECK(summary["summary"] == 1);
        CHECK(summary["submission"] == "alice");
        CHECK(summary["earned"] == 8);
        CHECK(summary["possible"] == 21);
        CHECK(summary["labs"][0] == nlohmann::json({{"id", "lab01"}, {"earned", 4}, {"possible", 6}}));
        CHECK(summary["labs"][2] == nlohmann::json({{"id", "lab03"}, {"earned", 0}, {"possible", 6}}));
        CHECK(summary["checks"].size() == 12);
        CHECK(summary["gates"].size() == 2);
        CHECK(summary["gates"][0]["test"] == "graded.lab02.tw16.perf");
        CHECK(summary["gates"][0]["required_by"] == "calibration");
        CHECK(summary["timings"]["wall_seconds"] == 97);
        CHECK(summary["timings"]["test_seconds_build"] == doctest::Approx(1.25 * 2 + 3 + 4 + 0.5 + 4));
        CHECK(summary["timings"]["test_seconds_gpu"] == doctest::Approx(0.5 + 0.5 + 6 + 0.01 + 5));
    }

    TEST_CASE("an assignment of some labs: only their tests, checks and points, the others not even failed") {
        const Registry all = read_registry(load_json(records + "/labs.json"));
        const Registry registry = only_labs(all, {"lab02"});
        const Grade grade =
            score(registry, read_results(records + "/verdicts", read_test_list(load_json(records + "/tests.json")), registry));
        CHECK(registry.lab_ids == std::vector<std::string>{"lab02"});
        REQUIRE_FALSE(grade.checks.empty());
        for (const auto& check : grade.checks) CHECK(check.lab == "lab02");
        for (const auto& test : grade.tests) CHECK(test.id.lab == "lab02");
        CHECK(grade.possible == 9);  // lab02's alone (fixture_grade: lab01 6, lab02 9, lab03 6)
        CHECK(grade.earned == 4);
        const nlohmann::json summary = summary_json(grade, {});
        REQUIRE(summary["labs"].size() == 1);
        CHECK(summary["labs"][0]["id"] == "lab02");
        CHECK(results_json(grade, {})["tests"].size() == grade.checks.size());
        CHECK_THROWS_WITH(only_labs(all, {"lab09"}),
                          doctest::Contains("names 'lab09', which is no lab. Name each lab by its number (02), id (lab02) "
                                            "or folder (02_tiled); the labs are lab01, lab02, lab03."));
    }

    TEST_CASE("a test's lab, tile width, backend and check come from its labels, not its name") {
        const Registry registry = read_registry(load_json(records + "/labs.json"));
        const auto id = graded_identity({"any name", {"graded", "lab01", "tw8", "cpu", "edges"}}, registry);
        REQUIRE(id);
        CHECK(id->lab == "lab01");
        CHECK(id->tile_width == 8);
        CHECK(id->cpu);
        CHECK(id->suite == "edges");
        CHECK(id->row == "cpu.edges");
        CHECK(graded_identity({"graded.lab01.tw8.gpu.edges", {"graded", "lab01", "tw8", "gpu", "edges"}}, registry)->row ==
              "edges");
        // Not graded: no labels, no "graded", both backends, two suites, a lab or a suite the registry lacks.
        CHECK_FALSE(graded_identity({"graded.lab01.tw8.cpu.edges", {}}, registry));
        CHECK_FALSE(graded_identity({"x", {"lab01", "tw8", "cpu", "edges"}}, registry));
        CHECK_FALSE(graded_identity({"x", {"graded", "lab01", "tw8", "cpu", "gpu", "edges"}}, registry));
        CHECK_FALSE(graded_identity({"x", {"graded", "lab01", "tw8", "cpu", "edges", "tiny"}}, registry));
        CHECK_FALSE(graded_identity({"x", {"graded", "lab77", "tw8", "cpu", "edges"}}, registry));
        CHECK_FALSE(graded_identity({"x", {"graded", "lab01", "tw8", "cpu", "nothing"}}, registry));
    }

    TEST_CASE("a record that says it checked another lab, width, backend or check fails its test") {
        const Registry registry = read_registry(load_json(records + "/labs.json"));
        const auto folder = std::filesystem::temp_directory_path() / "tilelab_report_identity_test";
        std::filesystem::create_directories(folder);
        auto record = load_json(records + "/verdicts/graded.lab01.tw8.cpu.tiny.json");
        const ListedTest test{"graded.lab01.tw8.cpu.tiny", {"cpu", "graded", "lab01", "tw8", "tiny"}};
        for (const auto& [key, value] : std::vector<std::pair<std::string, nlohmann::json>>{
                 {"lab", "lab02"}, {"tile_width", 16}, {"backend", "gpu"}, {"check", "edges"}, {"verdict", "passed"}}) {
            auto changed = record;
            changed[key] = value;
            write_json((folder / "graded.lab01.tw8.cpu.tiny.json").string(), changed);
            const auto results = read_results(folder.string(), {test}, registry);
            REQUIRE(results.size() == 1);
            CAPTURE(key);
            if (key == "verdict")
                CHECK(results[0].state == "passed");  // the unchanged identity: the record is this test's
            else
                CHECK(results[0].reason.find("is not one of this test") != std::string::npos);
        }
        std::filesystem::remove_all(folder);
    }

    TEST_CASE("a record of another test, or not JSON, fails its test; a name of no suite is not graded") {
        const Registry registry = read_registry(load_json(records + "/labs.json"));
        const auto folder = std::filesystem::temp_directory_path() / "tilelab_report_test";
        std::filesystem::create_directories(folder);
        std::filesystem::copy_file(records + "/verdicts/graded.lab01.tw8.cpu.tiny.json", folder / "graded.lab01.tw8.cpu.edges.json",
                                   std::filesystem::copy_options::overwrite_existing);
        std::ofstream(folder / "graded.lab01.tw8.cpu.large.json") << "{\"record\": 1, \"test\": \"graded.lab01.tw8";
        const auto listed = [](const std::string& suite) {
            return ListedTest{"graded.lab01.tw8.cpu." + suite, {"cpu", "graded", "lab01", "tw8", suite}};
        };
        const auto results =
            read_results(folder.string(), {listed("edges"), listed("large"), listed("nothing")}, registry);
        std::filesystem::remove_all(folder);
        REQUIRE(results.size() == 2);
        CHECK(results[0].state == "failed");
        CHECK(results[0].reason.find("is not one of this test") != std::string::npos);
        CHECK(results[1].state == "failed");
        CHECK(results[1].reason.find("is not JSON") != std::string::npos);
        CHECK_THROWS(read_test_list(nlohmann::json::object()));
        CHECK_THROWS(read_registry(nlohmann::json{{"skipped_checks", "maybe"}, {"suites", nlohmann::json::object()},
                                                  {"labs", nlohmann::json::array()}}));
    }
}
