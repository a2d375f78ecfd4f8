// tilelab-report timings: test-seconds per kind of check and backend over a class (scripts/class-benchmark.sh),
// from the checks' records (<build>/verdicts/*.json: "check", "backend", "seconds").
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace tilelab::report {

/// Test-seconds of one kind of check on one backend, summed over records.
struct SuiteTime {
    std::string backend;  ///< "cpu" or "gpu"
    std::string check;    ///< the suite ("edges", "perf", "build")
    double seconds = 0;   ///< test-seconds in all
    int tests = 0;        ///< records counted
};

/// Adds one record to the sums; anything that is not a record (no check, backend or seconds) is left out.
void add_record(const nlohmann::json& record, std::vector<SuiteTime>& times);

/// The table, most test-seconds first: "cpu edges   123.4 test-s in    40 tests (3.09 s each)".
std::string suite_times_table(std::vector<SuiteTime> times);

/// `tilelab-report timings <verdicts folder>...`: prints the table over every record in the folders.
int timings_main(int argc, char** argv);

}  // namespace tilelab::report
