// The checks of a series (grader/src/suite_series.hpp): the --suite value, and the request limits of the checks
// after one whose request ran out of its own limit.
#include "suite_series.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using tilelab::grader::limits_after_time_out;
using tilelab::grader::parse_series_suite;
using tilelab::grader::SeriesSuite;

TEST_SUITE("suite_series") {
    TEST_CASE("a --suite value: name, limit, request limit, GPU use and the optional CPU-time limit") {
        const SeriesSuite suite = parse_series_suite("large:108:20:shared:10");
        CHECK(suite.name == "large");
        CHECK(suite.seconds == 108);
        CHECK(suite.request_limit_seconds == 20);
        CHECK(suite.request_cpu_limit_seconds == 10);
        CHECK_FALSE(suite.exclusive_gpu);
        CHECK(parse_series_suite("perf:60:5:exclusive").request_cpu_limit_seconds == 0);
        CHECK(parse_series_suite("perf:60:5:exclusive").exclusive_gpu);
        CHECK_THROWS_AS(parse_series_suite("tiny:54:20:both"), std::invalid_argument);
        CHECK_THROWS_AS(parse_series_suite("tiny:0:20:shared"), std::invalid_argument);
    }

    TEST_CASE("after a request ran out of its limit, the later checks' requests get a quarter of theirs") {
        const SeriesSuite suite = parse_series_suite("edges:54:5:shared:10");
        const SeriesSuite first = limits_after_time_out(suite, false);
        CHECK(first.request_limit_seconds == 5);
        CHECK(first.request_cpu_limit_seconds == 10);
        const SeriesSuite later = limits_after_time_out(suite, true);
        CHECK(later.request_limit_seconds == doctest::Approx(1.25));
        CHECK(later.request_cpu_limit_seconds == doctest::Approx(2.5));
        CHECK(later.seconds == 54);  // the check's own limit is not the request's
        CHECK(limits_after_time_out(parse_series_suite("tiny:54:0:shared"), true).request_limit_seconds == 0);
    }
}
