// The performance gate's audit at the lab's precision (grader/gate/gate_audit.hpp): on the gate's own operands and
// shape, the FP32 bound passes float32 arithmetic in any order and rejects TF32, FP16 and BF16 inputs on every
// element sampled; the TF32 bound passes TF32 inputs (rounded or truncated, sums rounded or truncated) and rejects
// FP16 and BF16 inputs. The reduced-precision paths are simulated here bit by bit, as the hardware rounds.
#include "gate_audit.hpp"

#include <tilelab/compare.hpp>
#include <tilelab/gate_data.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <vector>

using tilelab::InputPrecision;
using namespace tilelab::grader;
namespace gate = tilelab::gate;

namespace {

// The gate's side (perf_check.cpp's gate_setting, TILELAB_PERF_SIZE left unset), and the largest one tried.
constexpr int gate_side = 2048;

std::uint32_t bits_of(float x) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    return bits;
}

// @p x with its fraction cut to @p kept bits: rounded to nearest, ties away (cvt.rna.tf32.f32), or truncated (what a
// tensor core reads of an unconverted float).
float keep_fraction_bits(float x, int kept, bool nearest) {
    const int dropped = 23 - kept;
    std::uint32_t bits = bits_of(x);
    if (nearest) bits += 1u << (dropped - 1);
    bits &= ~((1u << dropped) - 1u);
    return gate::float_from_bits(bits);
}

float to_tf32(float x) { return keep_fraction_bits(x, 10, true); }
float to_tf32_truncated(float x) { return keep_fraction_bits(x, 10, false); }
float to_bf16(float x) { return keep_fraction_bits(x, 7, true); }

// IEEE half precision, rounded to nearest: 10 fraction bits, infinity from 65520 up, subnormals (multiples of
// 2^-24) below 2^-14, zero below 2^-25.
float to_fp16(float x) {
    const double a = std::fabs(static_cast<double>(x));
    if (a >= 65520.0) return std::copysign(std::numeric_limits<float>::infinity(), x);
    if (a < std::ldexp(1.0, -14)) {
        const double step = std::ldexp(1.0, -24);
        return static_cast<float>(std::copysign(std::nearbyint(a / step) * step, static_cast<double>(x)));
    }
    return keep_fraction_bits(x, 10, true);
}

// One element of P: row r of M and column c of N of the gate's operand set 0 drawn from @p seed.
struct Element {
    std::vector<float> m, n;
    SampledReference reference;
};

Element element(std::uint64_t seed, int side, int r, int c) {
    Element e;
    const auto s = static_cast<std::uint64_t>(side);
    for (std::uint64_t k = 0; k < s; ++k) {
        e.m.push_back(gate::operand_value(seed, 0, gate::Operand::M, static_cast<std::uint64_t>(r) * s + k, s));
        e.n.push_back(gate::operand_value(seed, 0, gate::Operand::N, k * s + static_cast<std::uint64_t>(c), s));
    }
    SampleGrid grid;
    grid.rows = {r};
    grid.cols = {c};
    e.reference = sampled_reference(seed, 0, side, grid);
    return e;
}

using Rounding = std::function<float(float)>;
const Rounding exact = [](float x) { return x; };

// Σ rounded(m)·rounded(n) in float32, in order, each step one fused multiply-add (the CUDA cores' FFMA).
float fused_sum(const Element& e, const Rounding& round) {
    float sum = 0.0f;
    for (std::size_t k = 0; k < e.m.size(); ++k) sum = std::fma(round(e.m[k]), round(e.n[k]), sum);
    return sum;
}

// The same, backwards, each product rounded to float32 before it is added (no fusing).
float unfused_reversed_sum(const Element& e) {
    float sum = 0.0f;
    for (std::size_t k = e.m.size(); k-- > 0;) {
        const float product = e.m[k] * e.n[k];
        sum += product;
    }
    return sum;
}

// Pairwise: a tree of float32 sums (a split over threads, then a reduction).
float pairwise_sum(const std::vector<float>& terms, std::size_t first, std::size_t count) {
    if (count == 1) return terms[first];
    const std::size_t half = count / 2;
    return pairwise_sum(terms, first, half) + pairwise_sum(terms, first + half, count - half);
}

// Tensor-core style: rounded inputs' products (exact in float32 for TF32) added in blocks of 8 to the sum, each
// block's sum truncated towards zero (the accumulator's alignment drops bits).
float truncated_block_sum(const Element& e, const Rounding& round) {
    float sum = 0.0f;
    for (std::size_t k = 0; k < e.m.size(); k += 8) {
        double block = sum;
        for (std::size_t j = k; j < k + 8 && j < e.m.size(); ++j)
            block += static_cast<double>(round(e.m[j])) * static_cast<double>(round(e.n[j]));
        float truncated = static_cast<float>(block);
        if (std::fabs(static_cast<double>(truncated)) > std::fabs(block)) truncated = std::nextafter(truncated, 0.0f);
        sum = truncated;
    }
    return sum;
}

// True when @p got passes the gate's bound at @p precision for @p e.
bool passes(const Element& e, float got, InputPrecision precision) {
    SampleFindings found;
    judge_samples({got}, e.reference, static_cast<int>(e.m.size()), precision, found);
    return found.wrong == 0;
}

// The elements the tests sample: 12 of the gate's side, from two seeds.
std::vector<Element> sampled_elements(int side) {
    std::vector<Element> elements;
    std::mt19937_64 pick(20260101);
    for (const std::uint64_t seed : {0x5eedull, 0xfeedfaceull}) {
        std::uniform_int_distribution<int> index(0, side - 1);
        for (int i = 0; i < 6; ++i) elements.push_back(element(seed, side, index(pick), index(pick)));
    }
    return elements;
}

}  // namespace

TEST_SUITE("gate_audit") {
    TEST_CASE("the FP32 bound passes float32 sums in any order and rejects TF32, FP16 and BF16 inputs everywhere") {
        for (const int side : {gate_side, 2 * gate_side}) {
            CAPTURE(side);
            for (const Element& e : sampled_elements(side)) {
                CHECK(passes(e, fused_sum(e, exact), InputPrecision::fp32));
                CHECK(passes(e, unfused_reversed_sum(e), InputPrecision::fp32));
                std::vector<float> products;
                for (std::size_t k = 0; k < e.m.size(); ++k) products.push_back(e.m[k] * e.n[k]);
                CHECK(passes(e, pairwise_sum(products, 0, products.size()), InputPrecision::fp32));
                // TF32 inputs, rounded (cvt.rna) or truncated, summed by FFMA or by truncating tensor-core blocks.
                CHECK_FALSE(passes(e, fused_sum(e, to_tf32), InputPrecision::fp32));
                CHECK_FALSE(passes(e, truncated_block_sum(e, to_tf32), InputPrecision::fp32));
                CHECK_FALSE(passes(e, truncated_block_sum(e, to_tf32_truncated), InputPrecision::fp32));
                CHECK_FALSE(passes(e, fused_sum(e, to_fp16), InputPrecision::fp32));
                CHECK_FALSE(passes(e, fused_sum(e, to_bf16), InputPrecision::fp32));
            }
        }
    }

    TEST_CASE("a wrong sample is told for what a TF32 or a BF16 path gives, and a wrong sum for neither") {
        SampleFindings tf32, bf16, dropped_phase;
        for (const Element& e : sampled_elements(gate_side)) {
            judge_samples({truncated_block_sum(e, to_tf32)}, e.reference, gate_side, InputPrecision::fp32, tf32);
            judge_samples({fused_sum(e, to_bf16)}, e.reference, gate_side, InputPrecision::tf32, bf16);
            float sum = 0.0f;  // the last 16 terms left out (a phase dropped): low, as narrower inputs are
            for (std::size_t k = 0; k + 16 < e.m.size(); ++k) sum = std::fma(e.m[k], e.n[k], sum);
            judge_samples({sum}, e.reference, gate_side, InputPrecision::fp32, dropped_phase);
        }
        CHECK(tf32.wrong == tf32.sampled);
        CHECK(tf32.like_tf32 == tf32.wrong);
        CHECK(bf16.wrong == bf16.sampled);
        CHECK(bf16.like_bf16 == bf16.wrong);
        CHECK(dropped_phase.wrong == dropped_phase.sampled);
        CHECK(dropped_phase.like_tf32 + dropped_phase.like_bf16 == 0);
        CHECK(round_fraction(1.0f + 0x1.8p-12f, 10) == to_tf32(1.0f + 0x1.8p-12f));
        CHECK(round_fraction(1.0f + 0x1.8p-9f, 7) == to_bf16(1.0f + 0x1.8p-9f));
    }

    TEST_CASE("the TF32 bound passes TF32 inputs, rounded or truncated, and rejects FP16 and BF16 inputs everywhere") {
        for (const int side : {gate_side, 2 * gate_side}) {
            CAPTURE(side);
            for (const Element& e : sampled_elements(side)) {
                CHECK(passes(e, fused_sum(e, exact), InputPrecision::tf32));
                CHECK(passes(e, fused_sum(e, to_tf32), InputPrecision::tf32));
                CHECK(passes(e, truncated_block_sum(e, to_tf32), InputPrecision::tf32));
                CHECK(passes(e, truncated_block_sum(e, to_tf32_truncated), InputPrecision::tf32));
                CHECK_FALSE(passes(e, fused_sum(e, to_bf16), InputPrecision::tf32));
                CHECK_FALSE(passes(e, truncated_block_sum(e, to_bf16), InputPrecision::tf32));
                CHECK_FALSE(passes(e, truncated_block_sum(e, to_fp16), InputPrecision::tf32));
            }
        }
    }

    TEST_CASE("FP16 inputs fail the TF32 bound whatever one power-of-two scale each operand is given") {
        std::vector<Element> elements = sampled_elements(gate_side);
        elements.resize(3);
        for (int scale_m = -40; scale_m <= 40; ++scale_m)
            for (int scale_n = -40; scale_n <= 40; ++scale_n) {
                int passed = 0;
                for (const Element& e : elements) {
                    float sum = 0.0f;
                    for (std::size_t k = 0; k < e.m.size(); ++k)
                        sum = std::fma(to_fp16(std::ldexp(e.m[k], scale_m)), to_fp16(std::ldexp(e.n[k], scale_n)), sum);
                    passed += passes(e, std::ldexp(sum, -scale_m - scale_n), InputPrecision::tf32);
                }
                if (passed != 0) {
                    CAPTURE(scale_m);
                    CAPTURE(scale_n);
                    CHECK(passed == 0);
                }
            }
    }

    TEST_CASE("TF32 inputs miss the FP32 bound by a wide margin, BF16 inputs the TF32 bound") {
        // The margins gate_audit.cpp derives (over 4.5 and 4.2 times the bound at the gate's side): the smallest
        // ratio of error to bound over the elements sampled.
        double tf32_over_fp32 = 1e300, bf16_over_tf32 = 1e300;
        for (const Element& e : sampled_elements(gate_side)) {
            const double magnitude = e.reference.magnitude[0], value = e.reference.value[0];
            tf32_over_fp32 = std::min(tf32_over_fp32, std::fabs(fused_sum(e, to_tf32) - value) /
                                                          gate_tolerance(gate_side, magnitude, InputPrecision::fp32));
            bf16_over_tf32 = std::min(bf16_over_tf32, std::fabs(fused_sum(e, to_bf16) - value) /
                                                          gate_tolerance(gate_side, magnitude, InputPrecision::tf32));
        }
        CHECK(tf32_over_fp32 > 4.5);
        CHECK(bf16_over_tf32 > 4.2);
    }

    TEST_CASE("samples count the poison, non-finite values and wrong values, once per result") {
        const Element e = element(7, 64, 3, 5);
        SampleFindings found;
        judge_samples({fused_sum(e, exact)}, e.reference, 64, InputPrecision::fp32, found);
        CHECK(found.wrong == 0);
        CHECK(found.results_wrong == 0);
        judge_samples({tilelab::float_with_bits(gate_poison_bits)}, e.reference, 64, InputPrecision::fp32, found);
        judge_samples({std::numeric_limits<float>::infinity()}, e.reference, 64, InputPrecision::fp32, found);
        judge_samples({fused_sum(e, exact) * 1.001f}, e.reference, 64, InputPrecision::fp32, found);
        CHECK(found.sampled == 4);
        CHECK(found.wrong == 3);
        CHECK(found.unwritten == 1);
        CHECK(found.not_finite == 1);
        CHECK(found.results_wrong == 3);
        CHECK(found.worst_ratio > 1.0);
    }

    TEST_CASE("a result no launch wrote has the poisoned digest; any written element changes it") {
        const int n = 40;
        std::vector<float> P(static_cast<std::size_t>(n) * n);
        std::memset(P.data(), 0xff, P.size() * sizeof(float));  // perf_fill's cudaMemset
        CHECK(poisoned_digest(n) == gate::result_digest(P.data(), P.size()));
        P[777] = 1.0f;
        CHECK(poisoned_digest(n) != gate::result_digest(P.data(), P.size()));
    }

    TEST_CASE("a sample grid has distinct rows and columns, and its places name each set's elements") {
        std::mt19937_64 pick(3);
        const SampleGrid grid = draw_sample_grid(10, 8, pick);
        REQUIRE(grid.size() == 64);
        for (std::size_t i = 0; i < grid.rows.size(); ++i)
            for (std::size_t j = 0; j < i; ++j) {
                CHECK(grid.rows[i] != grid.rows[j]);
                CHECK(grid.cols[i] != grid.cols[j]);
            }
        const std::vector<std::uint64_t> places = grid_places(grid, 10, 2);
        REQUIRE(places.size() == 64);
        CHECK(places[9] == 200u + static_cast<std::uint64_t>(grid.rows[1]) * 10 + grid.cols[1]);
        CHECK(draw_sample_grid(3, 8, pick).size() == 9);  // no more than the side
    }
}
