// PrairieLearn's results.json (grader/report/prairielearn.hpp) from fixture summaries (fixtures/summaries), a
// grading stopped by the time limit, one that failed before its summary, and a log far over the 1 MB limit; and
// the checker of the documented fields (prairielearn_problems) shown to catch each kind of malformed result.
#include "prairielearn.hpp"
#include "registry.hpp"

#include <doctest/doctest.h>

#include <string>

namespace {

using namespace tilelab::report;

const std::string summaries = std::string(TILELAB_UNIT_FIXTURES) + "/summaries/reports";

/// The problems of @p results at its own size, as the entry point writes it.
std::vector<std::string> problems_of(const nlohmann::json& results) {
    return prairielearn_problems(results, results.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).size());
}

}  // namespace

TEST_SUITE("prairielearn") {
    TEST_CASE("a graded summary: score = points earned / points possible, one test per rubric check") {
        PrairieLearnRun run;
        run.summary = load_json(summaries + "/ben/summary.json");
        run.log = "the grading's log";
        run.labs = "02";
        const nlohmann::json results = prairielearn_results(run);
        const nlohmann::json& summary = *run.summary;
        CHECK(results["gradable"] == true);
        CHECK(results["score"].get<double>() ==
              doctest::Approx(summary["earned"].get<double>() / summary["possible"].get<double>()));
        REQUIRE(results["tests"].size() == summary["checks"].size());
        for (std::size_t i = 0; i < summary["checks"].size(); ++i) {
            const auto& check = summary["checks"][i];
            const auto& test = results["tests"][i];
            CHECK(test["name"] == check["lab"].get<std::string>() + ": " + check["name"].get<std::string>());
            CHECK(test["points"] == check["earned"]);
            CHECK(test["max_points"] == check["max"]);
            CHECK(test["output"] == check["reason"]);  // what failed, in the checks' words
        }
        CHECK(results["output"] == "the grading's log");
        CHECK(results["message"].get<std::string>().find("labs 02: 32 of 49 points") != std::string::npos);
        CHECK(problems_of(results).empty());
    }

    TEST_CASE("full marks score 1") {
        PrairieLearnRun run;
        run.summary = load_json(summaries + "/ana/summary.json");
        CHECK(prairielearn_results(run)["score"] == 1.0);
    }

    TEST_CASE("stopped by the time limit: gradable, no points, the likely cause named") {
        PrairieLearnRun run;
        run.status = 124;
        run.time_limit = 540;
        const nlohmann::json results = prairielearn_results(run);
        CHECK(results["gradable"] == true);
        CHECK(results["score"] == 0.0);
        CHECK(results["message"].get<std::string>().find("stopped after 540 s") != std::string::npos);
        CHECK(results["message"].get<std::string>().find("never ends") != std::string::npos);
        CHECK(results["tests"].empty());  // no records were written (grade.sh found none to list)
        CHECK(problems_of(results).empty());
    }

    TEST_CASE("stopped by the time limit after some checks: each check as far as it got, earning nothing") {
        PrairieLearnRun run;
        run.status = 137;
        run.time_limit = 570;
        run.partial = load_json(summaries + "/ben/summary.json");
        (*run.partial)["checks"][1]["details"] = "  | error: illegal memory access in the kernel";
        const nlohmann::json results = prairielearn_results(run);
        CHECK(results["score"] == 0.0);
        REQUIRE(results["tests"].size() == run.partial->at("checks").size());
        for (const auto& test : results["tests"]) CHECK(test["points"] == 0);
        CHECK(results["tests"][0]["message"].get<std::string>().find("passed, not counted") == 0);
        CHECK(results["tests"][1]["message"] == "failed");
        // The checker's details above the reason.
        CHECK(results["tests"][1]["output"].get<std::string>().find("  | error: illegal memory access in the kernel\n\n"
                                                                    "graded.lab02.tw16.shared-memory: ") == 0);
        CHECK(problems_of(results).empty());
    }

    TEST_CASE("the grader failed before its summary: not gradable, the reason in format_errors") {
        PrairieLearnRun run;
        run.status = 1;
        run.log = "CMake Error: configuring or building the kit failed";
        const nlohmann::json results = prairielearn_results(run);
        CHECK(results["gradable"] == false);
        CHECK_FALSE(results.contains("score"));
        CHECK(results["format_errors"][0].get<std::string>().find("not your code") != std::string::npos);
        CHECK(results["output"] == run.log);
        CHECK(problems_of(results).empty());
    }

    TEST_CASE("an instructor's bad setting (TILELAB_LABS=99): not gradable, with tilelab-grade's own reason") {
        PrairieLearnRun run;
        run.status = 1;
        run.no_grade = "the assignment (LABS, TILELAB_LABS or --labs) names '99', which is no lab";
        const nlohmann::json results = prairielearn_results(run);
        CHECK(results["gradable"] == false);
        CHECK(results["format_errors"][0].get<std::string>().find("names '99', which is no lab") != std::string::npos);
        CHECK(problems_of(results).empty());
    }

    TEST_CASE("a summary with no points possible (the question names no lab of the kit): not gradable") {
        PrairieLearnRun run;
        run.summary = nlohmann::json{{"earned", 0}, {"possible", 0}, {"checks", nlohmann::json::array()}};
        run.labs = "09";
        const nlohmann::json results = prairielearn_results(run);
        CHECK(results["gradable"] == false);
        CHECK(results["format_errors"][0].get<std::string>().find("labs 09") != std::string::npos);
    }

    TEST_CASE("a log over 1 MB (control characters, UTF-8) is cut from the front, with a note, to fit") {
        PrairieLearnRun run;
        run.summary = load_json(summaries + "/ben/summary.json");
        std::string log;
        while (log.size() < 3000000) log += "\x01\x02 bytes \xE2\x9C\x93 of a kernel's printf\n";  // \u0001: 6 bytes each
        log += "THE END";
        run.log = log;
        const nlohmann::json results = prairielearn_results(run);
        const std::string text = results.dump();  // strict: throws on a UTF-8 character cut in two
        CHECK(text.size() <= prairielearn_limit);
        CHECK(text.size() > prairielearn_limit / 2);  // cut to fit, not emptied
        const std::string output = results["output"];
        CHECK(output.rfind("[the start of the grading's output", 0) == 0);
        CHECK(output.substr(output.size() - 7) == "THE END");
        CHECK(results["tests"].size() == run.summary->at("checks").size());
        CHECK(problems_of(results).empty());
    }

    TEST_CASE("the checker of the documented fields finds each malformed result") {
        const nlohmann::json good = {{"gradable", true}, {"score", 0.5},
                                     {"tests", {{{"name", "t"}, {"points", 1}, {"max_points", 2}, {"output", ""}}}}};
        CHECK(problems_of(good).empty());
        nlohmann::json bad = good;
        bad["score"] = 1.5;
        CHECK(problems_of(bad).size() == 1);
        bad = good;
        bad.erase("score");
        CHECK(problems_of(bad).size() == 1);
        bad = good;
        bad["tests"][0]["points"] = 3;
        CHECK(problems_of(bad).size() == 1);
        bad = good;
        bad["tests"][0].erase("max_points");
        CHECK(problems_of(bad).size() == 1);
        bad = good;
        bad["gradable"] = false;  // and no format_errors
        CHECK(problems_of(bad).size() == 1);
        bad = good;
        bad["output"] = 7;
        CHECK(problems_of(bad).size() == 1);
        CHECK(prairielearn_problems(good, prairielearn_limit + 1).size() == 1);
    }
}
