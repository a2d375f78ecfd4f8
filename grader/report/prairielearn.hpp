/// @file prairielearn.hpp
/// @brief PrairieLearn's results.json (its externalGrading.md: score in [0, 1], gradable, format_errors, tests[]
/// with name, points, max_points, message, output; at most 1 MB) from a grading's typed summary (summary.json),
/// never from the text the grading printed: that text is only shown, cut to fit.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tilelab::report {

/// PrairieLearn's limit on results.json, in bytes.
constexpr std::size_t prairielearn_limit = 1000000;

/// What the entry point (grader/prairielearn/grade.sh) knows after grade.cmake ran.
struct PrairieLearnRun {
    std::optional<nlohmann::json> summary;  ///< summary.json, where grade.cmake got as far as writing it
    std::string log;                        ///< everything grade.cmake printed (shown to the student, cut to fit)
    int status = 0;                         ///< grade.cmake's exit status: 124 or 137 when the time limit stopped it
    int time_limit = 0;                     ///< the entry point's limit on the grading, in seconds
    std::string labs;                       ///< the question's labs (TILELAB_LABS), "" for all
    /// Where the time limit stopped the grading: the summary of the checks' records written until then (checks
    /// that had not finished say so), shown as tests that earn nothing.
    std::optional<nlohmann::json> partial;
    std::string no_grade;                   ///< why grade.cmake gave no grade (tilelab-grade's no-grade.txt), if it said
};

/// The results.json of @p run: a summary gives a gradable result, its score the points earned over the points
/// possible; the time limit reached gives a gradable 0 with the likely cause (a kernel that never ends) and, where
/// there is a partial summary, each check as far as it got; no summary otherwise is the grader's own failure:
/// gradable false, with the reason (@p run's no_grade) in format_errors (the student keeps the attempt). The grading's log is the "output", its end kept when results.json would exceed @p limit bytes.
nlohmann::json prairielearn_results(const PrairieLearnRun& run, std::size_t limit = prairielearn_limit);

/// What is wrong with @p results as PrairieLearn reads it (@p bytes: its size on disk): the documented fields and
/// their types, score in [0, 1], points within max_points, the size limit. Empty when nothing is.
std::vector<std::string> prairielearn_problems(const nlohmann::json& results, std::size_t bytes);

}  // namespace tilelab::report
