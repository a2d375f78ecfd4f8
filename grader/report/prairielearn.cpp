#include "prairielearn.hpp"

#include <algorithm>

namespace tilelab::report {

namespace {

/// One rubric check of the summary as one of PrairieLearn's tests.
nlohmann::json test_of(const nlohmann::json& check) {
    const std::string state = check.at("state").get<std::string>();
    const std::string reason = check.at("reason").get<std::string>();
    // The checker's details of a failure (the compiler's errors, the wrong elements, the fault) above the reason.
    const std::string details = check.value("details", std::string());
    std::string message = state;
    if (state == "skipped") message = "not graded here (no GPU)";
    return {{"name", check.at("lab").get<std::string>() + ": " + check.at("name").get<std::string>()},
            {"points", check.at("earned").get<int>()},
            {"max_points", check.at("max").get<int>()},
            {"message", message},
            {"output", details.empty() ? reason : details + "\n\n" + reason}};
}

/// A check of a grading stopped at its time limit, as a test that earns nothing: what its record said by then.
nlohmann::json stopped_test_of(const nlohmann::json& check) {
    nlohmann::json test = test_of(check);
    test["points"] = 0;
    const std::string state = check.at("state").get<std::string>();
    if (state == "passed") test["message"] = "passed, not counted: the grading was stopped before it finished";
    return test;
}

/// @p json's size as results.json holds it (a program's invalid UTF-8 replaced).
std::size_t dumped_size(const nlohmann::json& json) {
    return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).size();
}

/// @p results with its "output" cut from the front until the whole fits in @p limit bytes, a note saying so: the
/// end of the grading's log is its report (the points, the failed checks' messages).
void fit(nlohmann::json& results, std::size_t limit) {
    const std::string log = results.value("output", std::string());
    std::size_t size = dumped_size(results);
    if (size <= limit) return;
    const std::size_t escaped = dumped_size(nlohmann::json(log)), others = size - escaped;
    // Escaping makes a byte up to six ("\u0001"): keep the share of the log that its escaped size allows, less 10%
    // each time it still does not fit.
    double share = others + 400 < limit ? static_cast<double>(limit - others - 400) / escaped : 0;
    for (int attempt = 0; attempt < 32 && size > limit; ++attempt, share *= 0.9) {
        std::size_t from = log.size() - static_cast<std::size_t>(share * log.size());
        while (from < log.size() && (static_cast<unsigned char>(log[from]) & 0xC0) == 0x80) ++from;  // a character's start
        results["output"] = "[the start of the grading's output, " + std::to_string(from) +
                            " bytes, is left out: PrairieLearn takes at most 1 MB of results]\n" + log.substr(from);
        size = dumped_size(results);
    }
    if (size > limit) {  // the tests alone are too long: no output, and each test's cut short
        results["output"] = "[the grading's output is left out: PrairieLearn takes at most 1 MB of results]";
        for (auto& test : results["tests"]) test["output"] = test["output"].get<std::string>().substr(0, 200);
    }
}

}  // namespace

nlohmann::json prairielearn_results(const PrairieLearnRun& run, std::size_t limit) {
    nlohmann::json results = {{"output", run.log}, {"tests", nlohmann::json::array()}};
    const std::string labs = run.labs.empty() ? "every lab" : "labs " + run.labs;
    if (run.summary) {
        const nlohmann::json& summary = *run.summary;
        const int earned = summary.at("earned").get<int>(), possible = summary.at("possible").get<int>();
        for (const auto& check : summary.at("checks")) results["tests"].push_back(test_of(check));
        if (possible <= 0) {  // nothing this question asks for was graded: the question's set-up, not the student
            results["gradable"] = false;
            results["format_errors"] = {"The autograder graded no check of " + labs +
                                        ": the question's TILELAB_LABS names no lab of this kit (ask your instructor)."};
            results["message"] = results["format_errors"][0];
        } else {
            results["gradable"] = true;
            results["score"] = static_cast<double>(earned) / possible;
            std::string message = "TileLab, " + labs + ": " + std::to_string(earned) + " of " +
                                  std::to_string(possible) + " points (" + summary.value("rule", std::string()) + ").";
            if (earned < possible)
                message += " Each test below says what failed; the output shows the checks' own messages.";
            results["message"] = message;
        }
    } else if (run.status == 124 || run.status == 137) {
        results["gradable"] = true;
        results["score"] = 0.0;
        results["message"] = "The grading was stopped after " + std::to_string(run.time_limit) +
                             " s, the time this question allows, before it finished: a kernel that never ends (a "
                             "loop whose condition never changes, a __syncthreads() that some threads never reach) "
                             "is the likely cause. No points for this attempt; the tests show each check as far "
                             "as it got, and the output below is the grading up to then.";
        if (run.partial && run.partial->contains("checks"))
            for (const auto& check : run.partial->at("checks")) results["tests"].push_back(stopped_test_of(check));
    } else {
        results["gradable"] = false;
        const std::string why = run.no_grade.empty() ? "" : ": " + run.no_grade;
        results["format_errors"] = {"The autograder failed before it could grade (tilelab-grade exited with status " +
                                    std::to_string(run.status) + " and wrote no summary" + why +
                                    "). This is the grader's or the question's set-up, not your code: the attempt "
                                    "is not counted. Tell your instructor; the output shows the rest."};
        results["message"] = results["format_errors"][0];
    }
    fit(results, limit);
    return results;
}

std::vector<std::string> prairielearn_problems(const nlohmann::json& results, std::size_t bytes) {
    std::vector<std::string> problems;
    const auto expect = [&](bool holds, const std::string& problem) {
        if (!holds) problems.push_back(problem);
    };
    if (!results.is_object()) return {"results.json is not a JSON object"};
    expect(bytes <= prairielearn_limit, "results.json is " + std::to_string(bytes) + " bytes, over PrairieLearn's 1 MB");
    expect(results.contains("gradable") && results["gradable"].is_boolean(), "gradable is missing or not a boolean");
    const bool gradable = results.value("gradable", true);
    if (gradable) {
        expect(results.contains("score") && results["score"].is_number(), "a gradable result has no numeric score");
        if (results.contains("score") && results["score"].is_number()) {
            const double score = results["score"].get<double>();
            expect(score >= 0 && score <= 1, "score " + std::to_string(score) + " is outside [0, 1]");
        }
    } else {
        const auto& errors = results.value("format_errors", nlohmann::json());
        expect(errors.is_string() || (errors.is_array() && !errors.empty()),
               "a result that is not gradable gives no format_errors (the student would not know why)");
    }
    for (const char* text : {"message", "output"})
        expect(!results.contains(text) || results[text].is_string(), std::string(text) + " is not a string");
    if (!results.contains("tests")) return problems;
    expect(results["tests"].is_array(), "tests is not an array");
    for (const auto& test : results["tests"]) {
        const std::string name = test.value("name", std::string("(a test with no name)"));
        expect(test.contains("name") && test["name"].is_string(), name + ": name is missing or not a string");
        for (const char* text : {"message", "output"})
            expect(!test.contains(text) || test[text].is_string(), name + ": " + text + " is not a string");
        const bool numbers = test.contains("points") && test["points"].is_number() && test.contains("max_points") &&
                             test["max_points"].is_number();
        expect(numbers, name + ": points or max_points is missing or not a number");
        if (numbers)
            expect(test["points"].get<double>() >= 0 && test["points"].get<double>() <= test["max_points"].get<double>(),
                   name + ": points outside [0, max_points]");
    }
    return problems;
}

}  // namespace tilelab::report
