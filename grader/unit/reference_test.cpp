#include <tilelab/random.hpp>
#include <tilelab/reference.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

using tilelab::HostMatrix;

namespace {
// The textbook triple loop: slow, obviously right, and independent of the blocked, threaded reference.
double triple_loop(const HostMatrix& M, const HostMatrix& N, int r, int c) {
    double sum = 0.0;
    for (int k = 0; k < M.cols(); ++k) sum += static_cast<double>(M.at(r, k)) * N.at(k, c);
    return sum;
}

void check_against_triple_loop(int rows, int inner, int cols) {
    HostMatrix M(rows, inner), N(inner, cols);
    tilelab::fill_uniform(M, 1);
    tilelab::fill_uniform(N, 2);
    const auto ref = tilelab::reference_matmul(M, N);
    REQUIRE(ref.rows == rows);
    REQUIRE(ref.cols == cols);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const double expected = triple_loop(M, N, r, c);
            REQUIRE(std::fabs(ref.at(r, c) - expected) <= 1e-12 * (1.0 + std::fabs(expected)));
            double magnitude = 0.0;
            for (int k = 0; k < inner; ++k) magnitude += std::fabs(static_cast<double>(M.at(r, k)) * N.at(k, c));
            REQUIRE(std::fabs(ref.magnitude[static_cast<std::size_t>(r) * cols + c] - magnitude) <= 1e-12 * magnitude);
        }
}
}  // namespace

TEST_SUITE("reference") {
    TEST_CASE("matches the triple loop on small shapes") {
        check_against_triple_loop(1, 1, 1);
        check_against_triple_loop(3, 5, 2);
        check_against_triple_loop(17, 1, 9);
    }

    TEST_CASE("matches the triple loop across block edges and threads") {
        // Large enough to be split over threads and to cross the k and column blocks.
        check_against_triple_loop(131, 70, 300);
    }

    TEST_CASE("multiplying by the identity gives the matrix back") {
        HostMatrix M(13, 29), identity(29, 29);
        tilelab::fill_uniform(M, 3);
        for (int i = 0; i < 29; ++i) identity.at(i, i) = 1.0f;
        const auto ref = tilelab::reference_matmul(M, identity);
        for (int r = 0; r < 13; ++r)
            for (int c = 0; c < 29; ++c) REQUIRE(ref.at(r, c) == M.at(r, c));
    }

    TEST_CASE("refuses inputs whose inner sizes differ") {
        CHECK_THROWS_AS(tilelab::reference_matmul(HostMatrix(2, 3), HostMatrix(4, 2)), std::invalid_argument);
    }
}
