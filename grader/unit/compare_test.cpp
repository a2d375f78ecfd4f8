#include <tilelab/compare.hpp>
#include <tilelab/random.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

using tilelab::HostMatrix;

namespace {
struct Case {
    HostMatrix M, N;
    tilelab::ReferenceProduct ref;
    std::vector<float> got;  // the reference rounded to float: what a perfect kernel writes
};

Case make_case(int rows, int inner, int cols) {
    Case c{HostMatrix(rows, inner), HostMatrix(inner, cols), {}, {}};
    tilelab::fill_uniform(c.M, 11);
    tilelab::fill_uniform(c.N, 12);
    c.ref = tilelab::reference_matmul(c.M, c.N);
    for (double v : c.ref.value) c.got.push_back(static_cast<float>(v));
    return c;
}

// A float32 sum in the order a naive kernel uses: the error a correct kernel really makes.
std::vector<float> float32_product(const HostMatrix& M, const HostMatrix& N) {
    std::vector<float> out;
    for (int r = 0; r < M.rows(); ++r)
        for (int c = 0; c < N.cols(); ++c) {
            float sum = 0.0f;
            for (int k = 0; k < M.cols(); ++k) sum += M.at(r, k) * N.at(k, c);
            out.push_back(sum);
        }
    return out;
}
}  // namespace

TEST_SUITE("compare") {
    TEST_CASE("a float32 product passes at every inner size") {
        for (int inner : {1, 7, 100, 2000}) {
            Case c = make_case(9, inner, 11);
            CAPTURE(inner);
            CHECK(tilelab::compare(float32_product(c.M, c.N).data(), c.ref).passed());
        }
    }

    TEST_CASE("the tolerance grows with the inner dimension") {
        CHECK(tilelab::tolerance(1000, 1.0) > tilelab::tolerance(10, 1.0));
        CHECK(tilelab::tolerance(10, 2.0) > tilelab::tolerance(10, 1.0));
    }

    TEST_CASE("an error just beyond the tolerance is caught and reported") {
        Case c = make_case(5, 64, 6);
        const std::size_t i = 2 * 6 + 3;
        c.got[i] = static_cast<float>(c.ref.value[i] + 4 * tilelab::tolerance(64, c.ref.magnitude[i]));
        const auto result = tilelab::compare(c.got.data(), c.ref);
        CHECK_FALSE(result.passed());
        CHECK(result.wrong == 1);
        REQUIRE(result.first_bad.size() == 1);
        CHECK(result.first_bad[0].row == 2);
        CHECK(result.first_bad[0].col == 3);
        CHECK(result.status[i] == tilelab::ElementStatus::wrong);
    }

    TEST_CASE("NaN and infinity count as wrong, the poison as unwritten") {
        Case c = make_case(3, 4, 3);
        c.got[0] = std::numeric_limits<float>::quiet_NaN();
        c.got[1] = std::numeric_limits<float>::infinity();
        c.got[2] = tilelab::unwritten_value();
        const auto result = tilelab::compare(c.got.data(), c.ref);
        CHECK(result.wrong == 2);
        CHECK(result.unwritten == 1);
        CHECK(tilelab::is_unwritten(tilelab::unwritten_value()));
        CHECK_FALSE(tilelab::is_unwritten(std::numeric_limits<float>::quiet_NaN()));
    }

    TEST_CASE("keeps only as many bad elements as asked") {
        Case c = make_case(4, 4, 4);
        for (float& x : c.got) x = tilelab::unwritten_value();
        const auto result = tilelab::compare(c.got.data(), c.ref, 3);
        CHECK(result.unwritten == 16);
        CHECK(result.first_bad.size() == 3);
    }
}
