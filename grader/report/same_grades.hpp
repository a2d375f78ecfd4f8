// tilelab-report same: two Gradescope results.json compared check by check, the grades-equal check of a batch
// against the same submission graded on its own (grader/selftest/batch_test.sh, scripts/class-benchmark.sh).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace tilelab::report {

/// Each check of a results.json as "name: score/max", in order; throws where the file is not a results.json.
std::vector<std::string> result_checks(const nlohmann::json& results);

/// A line per difference, "only in <a_name>: lab02: tiles in shared memory: 0/2"; none when the grades agree.
std::vector<std::string> grade_differences(const std::vector<std::string>& a, const std::vector<std::string>& b,
                                           const std::string& a_name, const std::string& b_name);

/// `tilelab-report same <a/results.json> <b/results.json>`: prints "same grades: N checks" and exits 0, or
/// prints each difference and exits 1 (2 when a file cannot be read).
int same_main(int argc, char** argv);

}  // namespace tilelab::report
