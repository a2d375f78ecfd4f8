/// @file gate_suites.hpp
/// @brief The suites the checker has for the performance gate's rungs (grader/checks/perf_check.cpp has a doctest suite
/// of each name): a registry's gate rung must be raced by one of them (lab_table_writer.hpp refuses another when the
/// kit builds), so that a rung of grader/labs.json never names a check the checker cannot run.
#pragma once

namespace tilelab::grader {

/// The gate's rung suites: the lower rungs' (perf-rung1, perf-rung2) and the top rung's (perf, the previous stage's
/// model by the lab's calibrated margin, the gate's suite before it had rungs). A ladder of more rungs needs one more
/// here and its test case in checks/perf_check.cpp.
inline constexpr const char* gate_rung_suites[] = {"perf-rung1", "perf-rung2", "perf"};

}  // namespace tilelab::grader
