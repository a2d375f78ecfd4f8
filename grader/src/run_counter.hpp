/// @file run_counter.hpp
/// @brief Makes a test program fail when its filters selected no test case, so a misspelt suite in the
/// CMake registration can never pass silently.
#pragma once

namespace tilelab::grader {

/// @p doctest_result, or 1 with a message when no test case passed the command line's filters.
int fail_if_nothing_ran(int doctest_result);

/// How many test cases passed the filters in the last doctest run (0: the filters selected none).
unsigned test_cases_selected();

}  // namespace tilelab::grader
