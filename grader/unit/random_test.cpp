#include <tilelab/random.hpp>

#include <doctest/doctest.h>

#include <cstdlib>
#include <set>
#include <stdexcept>

using tilelab::HostMatrix;

TEST_SUITE("random") {
    TEST_CASE("the same seed gives the same matrix") {
        HostMatrix a(17, 23), b(17, 23);
        tilelab::fill_uniform(a, 42);
        tilelab::fill_uniform(b, 42);
        for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(a.data()[i] == b.data()[i]);
    }

    TEST_CASE("values lie in [-1, 1), vary, and take both signs") {
        HostMatrix a(64, 64);
        tilelab::fill_uniform(a, 7);
        std::set<float> distinct;
        int negative = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            const float x = a.data()[i];
            REQUIRE(x >= -1.0f);
            REQUIRE(x < 1.0f);
            distinct.insert(x);
            negative += x < 0.0f;
        }
        CHECK(distinct.size() > a.size() * 9 / 10);  // not constant-filled: constants hide transposed indices
        CHECK(negative > static_cast<int>(a.size()) / 3);
        CHECK(negative < static_cast<int>(a.size()) * 2 / 3);
    }

    TEST_CASE("derived seeds differ by label and by base") {
        const auto base = tilelab::derive_seed(1, "M 4x4x4");
        CHECK(base != tilelab::derive_seed(1, "N 4x4x4"));
        CHECK(base != tilelab::derive_seed(2, "M 4x4x4"));
        CHECK(base == tilelab::derive_seed(1, "M 4x4x4"));
    }

    TEST_CASE("TILELAB_SEED sets the base seed and a bad value is refused") {
        ::setenv("TILELAB_SEED", "12345", 1);
        CHECK(tilelab::base_seed() == 12345u);
        ::setenv("TILELAB_SEED", "12abc", 1);
        CHECK_THROWS_AS(tilelab::base_seed(), std::invalid_argument);
        ::unsetenv("TILELAB_SEED");
        CHECK(tilelab::base_seed() == tilelab::default_seed);
    }
}
