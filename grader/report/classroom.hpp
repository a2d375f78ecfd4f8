/// @file classroom.hpp
/// @brief GitHub Classroom's autograding workflow, written from the registry so that its points never drift from
/// grader/labs.json, and the command each of its tests runs: one rubric check of a graded summary.
#pragma once

#include "registry.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace tilelab::report {

/// The workflow (.github/workflows/classroom.yml) grading @p labs (ids, in the registry's order) on the CPU backend:
/// one step builds the kit (build/kit), one grades them all against it (grade.cmake, its summary in
/// build/classroom), then one
/// classroom-resources/autograding-command-grader step per rubric check that the CPU backend grades, worth that
/// check's points, whose command (`tilelab-report check`) passes when the summary says the check passed; then the
/// grading reporter.
std::string classroom_workflow(const Registry& registry, const std::vector<std::string>& labs);

/// What one test of the workflow found: whether it passed, and the line the student reads in its log.
struct CheckOutcome {
    bool passed = false;  ///< the check earned all of its points
    std::string line;     ///< "<lab>: <check>: <earned>/<max> <state>[: <reason>]", or why there is no such check
};

/// The check of @p lab named @p name in @p summary (summary.json), or every check of the lab when @p name is empty
/// (passed: full marks for the lab). A check the summary does not hold fails, saying so.
CheckOutcome classroom_check(const nlohmann::json& summary, const std::string& lab, const std::string& name);

/// The name of check number @p index (from 1, in the registry's order, as the workflow numbers them) of @p lab;
/// throws std::runtime_error when there is none.
std::string check_name(const Registry& registry, const std::string& lab, int index);

}  // namespace tilelab::report
