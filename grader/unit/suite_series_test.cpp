// The checks of a series (grader/src/suite_series.hpp): a check's policy from the registry and the --suite value,
// and the request limits of the checks after one whose request ran out of its own limit.
#include "suite_series.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using tilelab::grader::limits_after_time_out;
using tilelab::grader::parse_series_suite;
using tilelab::grader::RequestLimits;
using tilelab::grader::series_suite;
using tilelab::grader::SeriesSuite;

TEST_SUITE("suite_series") {
    TEST_CASE("a check's request limits and GPU use come from its suite in the registry and the backend's limits") {
        const RequestLimits cpu{20, 10, false}, gpu{5, 0, true};
        const SeriesSuite large = series_suite("large", 108, cpu);
        CHECK(large.name == "large");
        CHECK(large.seconds == 108);
        CHECK(large.request_limit_seconds == 20);  // a correctness check: the backend's limits as they are
        CHECK(large.request_cpu_limit_seconds == 10);
        CHECK_FALSE(large.exclusive_gpu);
        const SeriesSuite clock = series_suite("timing-clock", 108, gpu);  // timing: times its time factor
        CHECK(clock.request_limit_seconds == 10);
        CHECK(clock.request_cpu_limit_seconds == 0);
        CHECK(clock.exclusive_gpu);
        CHECK_FALSE(series_suite("timing-memory", 108, cpu).exclusive_gpu);  // only the GPU is held alone
        CHECK(series_suite("timing-memory", 108, cpu).request_cpu_limit_seconds == 20);
        const SeriesSuite perf = series_suite("perf", 108, gpu);  // a gate's rung times its own runs
        CHECK(perf.request_limit_seconds == 0);
        CHECK_FALSE(perf.exclusive_gpu);
        CHECK(series_suite("shared-memory", 54, gpu).request_limit_seconds == 5);
        CHECK_THROWS_AS(series_suite("no-such-suite", 54, cpu), std::invalid_argument);
        CHECK(parse_series_suite("tiny:54").seconds == 54);
        CHECK_THROWS_AS(parse_series_suite("tiny"), std::invalid_argument);
        CHECK_THROWS_AS(parse_series_suite("tiny:0"), std::invalid_argument);
    }

    TEST_CASE("after a request ran out of its limit, the later checks' requests get a quarter of theirs") {
        const SeriesSuite suite = series_suite("edges", 54, {5, 10, false});
        const SeriesSuite first = limits_after_time_out(suite, false);
        CHECK(first.request_limit_seconds == 5);
        CHECK(first.request_cpu_limit_seconds == 10);
        const SeriesSuite later = limits_after_time_out(suite, true);
        CHECK(later.request_limit_seconds == doctest::Approx(1.25));
        CHECK(later.request_cpu_limit_seconds == doctest::Approx(2.5));
        CHECK(later.seconds == 54);  // the check's own limit is not the request's
        CHECK(limits_after_time_out(series_suite("perf", 54, {5, 0, true}), true).request_limit_seconds == 0);
    }
}
