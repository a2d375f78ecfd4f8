/// @file grading_page.hpp
/// @brief Points a failure at its section of the students' page "How your kernel is graded" (docs/grading.md).
#pragma once

#include <string>

namespace tilelab::grader {

/// Where @p check (a test suite such as "odd-shapes", or a compute-sanitizer tool) is explained:
/// "docs/grading.md#check_odd_shapes (grading.html#check_odd_shapes on the docs site)".
std::string grading_page_section(const std::string& check);

/// The anchor of @p check's section in docs/grading.md, for its record: "check_odd_shapes".
std::string grading_page_anchor(const std::string& check);

/// The text of the first failure doctest reported since the last call (a failed CHECK's message, FAIL_CHECK's
/// text, an exception that ended a test case), empty when none; forgets it, so the next check starts afresh.
/// The checker's own words: doctest reports only what the checks themselves say.
std::string take_first_failure();

/// After a failed run, prints one "see ..." line for each check that failed in it (the suites, or
/// @p sanitizer_tool when the run was under compute-sanitizer), so that every failure ends with the page that
/// explains the check. The failures printed are then forgotten (the next suite of a series starts afresh).
void print_grading_page_links(const std::string& sanitizer_tool);

}  // namespace tilelab::grader
