// The performance gate's audit of the lab's timed results (gate_audit.hpp).
#include "gate_audit.hpp"

#include <tilelab/compare.hpp>
#include <tilelab/gate_data.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace tilelab::grader {

// The bound, from error analysis (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., §3.1), for an
// element s = Σ_k m_k·n_k of K = inner terms, with u = 2^-24 (float32's unit roundoff), γ_K = K·u / (1 - K·u), and
// the gate's operands (tilelab/gate_data.hpp): every m, n > 0, so Σ|m·n| = s, and every rounding of an input below
// the lab's precision errs downwards by a known share of it.
//
// FP32 labs (05-08): the kernel multiplies and adds float32 values on the CUDA cores, each operation rounded to
// nearest (FFMA, FMUL, FADD, atomicAdd): whatever the order of the sums, fused or not, split over threads or phases,
// each term passes through at most K roundings, so |ŝ - s| <= γ_K·Σ|m·n| (Higham's (3.5)). No honest kernel exceeds
// it. A kernel whose inputs were rounded to TF32 (10 fraction bits) or FP16 (10 bits, and a range of 2^-24 .. 65504)
// multiplies m̃ = m(1 - δ) and ñ = n(1 - δ'), where the gate's operands make 0.7·2^-11 < δ, δ' < 2^-11 for every
// element (what TF32 drops lies in [0.875, 1) of its half-step, over a significand below 1.25; rounding to nearest
// and truncation alike round down), so every product is low by more than 1.39·2^-11 of itself. Summing can raise the
// sum back by at most γ_K·s (rounded to nearest; tensor cores' truncation only lowers it), so
//     s - ŝ >= (1.39·2^-11 - γ_K)·s,
// which at the gate's K = 2048 is more than 2.2·2^-12·s, over 4.5 times the bound γ_K·s ≈ 2^-13·s, on every element
// sampled, and 1.7 times the bound at K = 4096. (FP16 inputs also overflow to infinity or flush to zero: the gate's
// operands span 49 binades, FP16 40, so whatever one scale each operand is given, 9 of the 49 exponents or more fall
// outside.)
//
// TF32 labs (09, 10): the kit's tolerance for a lab that rounds its inputs to TF32 (tilelab/compare.hpp's tolerance:
// (2u_t + u_t²)·Σ|m·n| for the inputs, u_t = 2^-11, and 2K·u·(1 + u_t)²·Σ|m·n| for float32 sums truncated or rounded
// to nearest), which the gate's operands meet with room: each input errs by less than u_t, rounded or truncated (what
// TF32 drops is below its half-step). A kernel whose inputs were rounded to BF16 (7 fraction bits) multiplies values
// low by more than 0.68·2^-8 each (what BF16 drops lies in [0.859, 0.875) of its half-step, over a significand below
// 1.25), so every product is low by more than 1.37·2^-8 = 5.4·2^-10 of itself, and
//     s - ŝ >= (5.4·2^-10 - γ_K)·s,
// over 4.2 times the TF32 bound ≈ 1.25·2^-10·s at K = 2048 (3.4 times at K = 4096). FP16 inputs overflow (M and N
// reach 2^24) or flush to zero, as above.
//
// Both bounds add the float64 reference's own error, γ_K in float64's unit roundoff 2^-53 (negligible), and float32's
// smallest normal, as the kit's tolerance does.
namespace {
constexpr double unit_roundoff = 1.0 / 16777216.0;  // 2^-24, float32's
}  // namespace

double gate_tolerance(int inner, double magnitude, InputPrecision precision) {
    const double k = static_cast<double>(inner);
    constexpr double reference_roundoff = 1.0 / 9007199254740992.0;       // 2^-53
    const double reference_error = k * reference_roundoff / (1.0 - k * reference_roundoff) * magnitude;
    if (precision == InputPrecision::fp32) {
        const double gamma = k * unit_roundoff / (1.0 - k * unit_roundoff);
        return gamma * magnitude + reference_error + std::numeric_limits<float>::min();
    }
    return tolerance(inner, magnitude, precision) + reference_error;
}

SampleGrid draw_sample_grid(int n, int side_samples, std::mt19937_64& pick) {
    if (n <= 0 || side_samples <= 0) throw std::invalid_argument("a sample grid needs a side and samples");
    const int count = std::min(n, side_samples);
    auto distinct = [&] {
        std::vector<int> chosen;
        std::uniform_int_distribution<int> index(0, n - 1);
        while (static_cast<int>(chosen.size()) < count) {
            const int candidate = index(pick);
            if (std::find(chosen.begin(), chosen.end(), candidate) == chosen.end()) chosen.push_back(candidate);
        }
        return chosen;
    };
    SampleGrid grid;
    grid.rows = distinct();
    grid.cols = distinct();
    return grid;
}

std::vector<std::uint64_t> grid_places(const SampleGrid& grid, int n, int set) {
    const auto side = static_cast<std::uint64_t>(n);
    std::vector<std::uint64_t> places;
    places.reserve(grid.size());
    for (const int r : grid.rows)
        for (const int c : grid.cols)
            places.push_back(static_cast<std::uint64_t>(set) * side * side + static_cast<std::uint64_t>(r) * side +
                             static_cast<std::uint64_t>(c));
    return places;
}

SampledReference sampled_reference(std::uint64_t seed, int set, int n, const SampleGrid& grid) {
    const auto side = static_cast<std::uint64_t>(n);
    const auto s = static_cast<std::uint32_t>(set);
    // The rows of M and the columns of N the grid needs, once each.
    std::vector<std::vector<double>> m_rows, n_cols;
    for (const int r : grid.rows) {
        std::vector<double> row(side);
        for (std::uint64_t k = 0; k < side; ++k)
            row[k] = gate::operand_value(seed, s, gate::Operand::M, static_cast<std::uint64_t>(r) * side + k, side);
        m_rows.push_back(std::move(row));
    }
    for (const int c : grid.cols) {
        std::vector<double> col(side);
        for (std::uint64_t k = 0; k < side; ++k)
            col[k] = gate::operand_value(seed, s, gate::Operand::N, k * side + static_cast<std::uint64_t>(c), side);
        n_cols.push_back(std::move(col));
    }
    // The same rows and columns rounded to TF32 and to BF16, for what a narrower path would compute.
    auto rounded = [](const std::vector<std::vector<double>>& vectors, int kept) {
        std::vector<std::vector<double>> out = vectors;
        for (std::vector<double>& v : out)
            for (double& x : v) x = round_fraction(static_cast<float>(x), kept);
        return out;
    };
    const auto m_tf32 = rounded(m_rows, 10), n_tf32 = rounded(n_cols, 10);
    const auto m_bf16 = rounded(m_rows, 7), n_bf16 = rounded(n_cols, 7);
    SampledReference reference;
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        for (std::size_t j = 0; j < n_cols.size(); ++j) {
            double sum = 0, magnitude = 0, tf32 = 0, bf16 = 0;
            for (std::uint64_t k = 0; k < side; ++k) {
                const double term = m_rows[i][k] * n_cols[j][k];  // exact: two 24-bit significands
                sum += term;
                magnitude += std::fabs(term);
                tf32 += m_tf32[i][k] * n_tf32[j][k];
                bf16 += m_bf16[i][k] * n_bf16[j][k];
            }
            reference.value.push_back(sum);
            reference.magnitude.push_back(magnitude);
            reference.tf32_value.push_back(tf32);
            reference.bf16_value.push_back(bf16);
        }
    return reference;
}

void judge_samples(const std::vector<float>& got, const SampledReference& reference, int inner,
                   InputPrecision precision, SampleFindings& found) {
    if (got.size() != reference.value.size()) throw std::invalid_argument("samples and reference differ in size");
    bool any_wrong = false;
    for (std::size_t i = 0; i < got.size(); ++i) {
        ++found.sampled;
        const double bound = gate_tolerance(inner, reference.magnitude[i], precision);
        const double error = std::fabs(static_cast<double>(got[i]) - reference.value[i]);
        if (has_bits(got[i], gate_poison_bits)) {
            ++found.unwritten;
        } else if (!std::isfinite(got[i])) {
            ++found.not_finite;
        } else {
            found.worst_ratio = std::max(found.worst_ratio, error / bound);
            if (error <= bound) continue;
            // What a narrower path would give, give or take float32 sums' error (2K·u, truncated or rounded).
            const double sums_error = 2.0 * inner * unit_roundoff * reference.magnitude[i] * 1.01;
            if (std::fabs(static_cast<double>(got[i]) - reference.tf32_value[i]) <= sums_error)
                ++found.like_tf32;
            else if (std::fabs(static_cast<double>(got[i]) - reference.bf16_value[i]) <= sums_error)
                ++found.like_bf16;
        }
        ++found.wrong;
        any_wrong = true;
    }
    if (any_wrong) ++found.results_wrong;
}

float round_fraction(float x, int kept) {
    if (kept <= 0 || kept >= 23 || !std::isfinite(x)) return x;
    const int dropped = 23 - kept;
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    bits += 1u << (dropped - 1);  // half the last kept bit: to nearest, ties away (on the magnitude's bits)
    bits &= ~((1u << dropped) - 1u);
    return gate::float_from_bits(bits);
}

std::uint64_t poisoned_digest(int n) {
    const std::vector<float> poisoned(static_cast<std::size_t>(n) * static_cast<std::size_t>(n),
                                      float_with_bits(gate_poison_bits));
    return gate::result_digest(poisoned.data(), poisoned.size());
}

}  // namespace tilelab::grader
