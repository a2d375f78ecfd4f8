#include <tilelab/compare.hpp>
#include <tilelab/random.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
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
// TF32 as __float_to_tf32 rounds (cvt.rna.tf32.f32): to 10 explicit mantissa bits, to nearest, ties away from 0.
float to_tf32(float x) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    bits = (bits + 0x1000u) & ~0x1FFFu;
    std::memcpy(&x, &bits, sizeof x);
    return x;
}

// FP16 (what a kernel that rounds its inputs or sums to half keeps): 11 significant bits, to nearest; normal
// from 2^-14, subnormal in steps of 2^-24 below, infinite from 65520.
float to_half(float x) {
    const float a = std::fabs(x);
    if (a >= 65520.0f) return std::copysign(std::numeric_limits<float>::infinity(), x);
    const float quantum = a < 0x1p-14f ? 0x1p-24f : std::ldexp(1.0f, std::ilogb(a) - 10);
    return std::nearbyint(x / quantum) * quantum;
}

// A float32 sum whose every addition is truncated towards zero (tensor cores' accumulation, by the measurements
// the grading page cites), not rounded to nearest: the fp32 bound's factor 2 is for it.
float add_truncated(float sum, float term) {
    const double exact = static_cast<double>(sum) + term;  // exact: two floats' sum fits a double here
    float nearest = static_cast<float>(exact);
    if (std::fabs(static_cast<double>(nearest)) > std::fabs(exact)) nearest = std::nextafter(nearest, 0.0f);
    return nearest;
}

// P = M N with each input passed through @p input, the products added one k at a time by @p add.
std::vector<float> product_with(const HostMatrix& M, const HostMatrix& N, const std::function<float(float)>& input,
                                const std::function<float(float, float)>& add) {
    std::vector<float> out;
    for (int r = 0; r < M.rows(); ++r)
        for (int c = 0; c < N.cols(); ++c) {
            float sum = 0.0f;
            for (int k = 0; k < M.cols(); ++k) sum = add(sum, input(M.at(r, k)) * input(N.at(k, c)));
            out.push_back(sum);
        }
    return out;
}

float as_given(float x) { return x; }
float add_nearest(float sum, float term) { return sum + term; }

// Operands of one sign over float32's range and beyond half's: M's elements in [0, 2^-24), N's in [0, 2^24), so
// that the products lie in [0, 1), no sum cancels, and FP16 flushes M to zero and takes N to infinity.
Case wide_one_signed_case(int rows, int inner, int cols) {
    Case c{HostMatrix(rows, inner), HostMatrix(inner, cols), {}, {}};
    tilelab::fill_uniform(c.M, 21);
    tilelab::fill_uniform(c.N, 22);
    for (std::size_t i = 0; i < c.M.size(); ++i) c.M.data()[i] = std::ldexp(std::fabs(c.M.data()[i]), -24);
    for (std::size_t i = 0; i < c.N.size(); ++i) c.N.data()[i] = std::ldexp(std::fabs(c.N.data()[i]), 24);
    c.ref = tilelab::reference_matmul(c.M, c.N);
    return c;
}
}  // namespace

TEST_SUITE("compare") {
    TEST_CASE("a TF32 product passes the TF32 bound, and fails the fp32 one on short sums") {
        for (int inner : {1, 7, 100, 2000}) {
            CAPTURE(inner);
            for (Case c : {make_case(9, inner, 11), wide_one_signed_case(9, inner, 11)}) {
                c.ref.input_precision = tilelab::InputPrecision::tf32;
                CHECK(tilelab::compare(product_with(c.M, c.N, to_tf32, add_nearest).data(), c.ref).passed());
                CHECK(tilelab::compare(product_with(c.M, c.N, to_tf32, add_truncated).data(), c.ref).passed());
                CHECK(tilelab::compare(product_with(c.M, c.N, as_given, add_truncated).data(), c.ref).passed());
                CHECK(tilelab::compare(float32_product(c.M, c.N).data(), c.ref).passed());  // FP32-exact kernels too
            }
            if (inner < 100) {  // fp32's bound, 2 inner 2^-24, is far below TF32's rounding (2^-11) for short sums
                Case c = wide_one_signed_case(9, inner, 11);
                CHECK_FALSE(tilelab::compare(product_with(c.M, c.N, to_tf32, add_nearest).data(), c.ref).passed());
            }
        }
    }

    TEST_CASE("inputs rounded to FP16, or sums kept in FP16, fail the TF32 bound on operands of one sign and range") {
        for (int inner : {1, 7, 100, 2000}) {
            CAPTURE(inner);
            Case c = wide_one_signed_case(9, inner, 11);
            c.ref.input_precision = tilelab::InputPrecision::tf32;
            CHECK_FALSE(tilelab::compare(product_with(c.M, c.N, to_half, add_nearest).data(), c.ref).passed());
        }
        // A half sum's error grows with its size: by a few hundred terms of one sign it is past the bound.
        for (int inner : {500, 2000}) {
            CAPTURE(inner);
            Case c = wide_one_signed_case(9, inner, 11);
            c.ref.input_precision = tilelab::InputPrecision::tf32;
            const auto add_in_half = [](float sum, float term) { return to_half(sum + term); };
            const auto result = tilelab::compare(product_with(c.M, c.N, to_tf32, add_in_half).data(), c.ref);
            CHECK(result.wrong > c.ref.value.size() / 2);  // not a stray element: most of them
        }
    }

    TEST_CASE("the TF32 bound is float32's plus the inputs' rounding, (2 u_t + u_t^2) of the magnitude") {
        const double u_t = std::ldexp(1.0, -11);
        const double extra = tilelab::tolerance(100, 1.0, tilelab::InputPrecision::tf32) - tilelab::tolerance(100, 1.0);
        CHECK(extra >= 2 * u_t + u_t * u_t);
        CHECK(extra < 2 * u_t + u_t * u_t + 1e-6);
    }

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
