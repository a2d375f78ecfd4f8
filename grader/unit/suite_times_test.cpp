// Test-seconds per kind of check over a class (grader/report/suite_times.hpp), from the checks' records.
#include "suite_times.hpp"

#include <doctest/doctest.h>

TEST_SUITE("suite_times") {
    TEST_CASE("records summed per backend and check, most test-seconds first; non-records left out") {
        std::vector<tilelab::report::SuiteTime> times;
        for (const char* record : {R"({"record": 1, "check": "edges", "backend": "cpu", "seconds": 1.5})",
                                   R"({"record": 1, "check": "edges", "backend": "cpu", "seconds": 2.5})",
                                   R"({"record": 1, "check": "perf", "backend": "gpu", "seconds": 9})",
                                   R"({"record": 1, "check": "edges", "backend": "gpu", "seconds": 0.5})",
                                   R"({"check": "edges", "backend": "cpu"})", R"([1, 2])"}) {
            tilelab::report::add_record(nlohmann::json::parse(record), times);
        }
        CHECK(tilelab::report::suite_times_table(times) ==
              "gpu perf                          9.0 test-s in     1 tests (9.00 s each)\n"
              "cpu edges                         4.0 test-s in     2 tests (2.00 s each)\n"
              "gpu edges                         0.5 test-s in     1 tests (0.50 s each)\n");
    }
}
