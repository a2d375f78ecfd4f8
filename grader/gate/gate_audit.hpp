/// @file gate_audit.hpp
/// @brief The performance gate's audit of the lab's timed results (grader/checks/perf_check.cpp): sampled
/// elements of every result against float64, at the lab's precision, and the digest of a result no launch wrote.
///
/// The gate's operands (tilelab/gate_data.hpp) make every rounding of an input below the lab's precision err in one
/// direction by a known share of each term, and gate_tolerance() is a bound from error analysis that an honest
/// kernel of the lab's precision never exceeds and that such a rounding always does at the gate's sizes: TF32 or
/// FP16 inputs in an FP32 lab, FP16 or BF16 inputs in a TF32 lab (its comment derives it).
#pragma once

#include <tilelab/reference.hpp>

#include <cstdint>
#include <random>
#include <vector>

namespace tilelab::grader {

/// Largest error the gate allows on an element of its timed results whose terms have total size @p magnitude
/// (Σ|m·n|) over @p inner terms, for a lab whose kernels may round their inputs to @p precision. See the
/// derivation in gate_audit.cpp.
double gate_tolerance(int inner, double magnitude, InputPrecision precision);

/// Where the gate samples one result: every element of P where one of @p rows meets one of @p cols (a grid, so that
/// the float64 reference needs only those rows of M and columns of N).
struct SampleGrid {
    std::vector<int> rows;  ///< Rows of P, distinct.
    std::vector<int> cols;  ///< Columns of P, distinct.
    /// The elements sampled: rows.size() × cols.size().
    std::size_t size() const { return rows.size() * cols.size(); }
};

/// A grid of @p side_samples distinct rows and as many distinct columns of an @p n × @p n result, drawn with
/// @p pick (at most n of each).
SampleGrid draw_sample_grid(int n, int side_samples, std::mt19937_64& pick);

/// The places of @p grid's elements in result @p set of the gate's loaded sets (set × n² + row × n + col), in the
/// grid's order (row-major over the grid): what a perf_samples request asks for.
std::vector<std::uint64_t> grid_places(const SampleGrid& grid, int n, int set);

/// The float64 product of the gate's operand set @p set drawn from @p seed (n × n × n) at @p grid's elements, and
/// each element's Σ|m·n|, in the grid's order.
struct SampledReference {
    std::vector<double> value;      ///< Σ m·n, exact but for float64's rounding.
    std::vector<double> magnitude;  ///< Σ |m·n|.
    std::vector<double> tf32_value;  ///< Σ m̃·ñ with every input rounded to TF32: what a TF32 path would compute.
    std::vector<double> bf16_value;  ///< The same with every input rounded to BF16.
};

/// The float64 reference of @p grid's elements of set @p set of the gate's operands drawn from @p seed (side @p n),
/// and what inputs rounded to TF32 and to BF16 would give there.
SampledReference sampled_reference(std::uint64_t seed, int set, int n, const SampleGrid& grid);

/// What the samples of the lab's timed results showed, over all the results audited.
struct SampleFindings {
    int sampled = 0;       ///< Elements compared.
    int wrong = 0;         ///< Outside gate_tolerance() (unwritten, NaN and infinity included).
    int unwritten = 0;     ///< Of wrong: still the poison perf_fill wrote (every bit set).
    int not_finite = 0;    ///< Of wrong: written, but infinity or NaN.
    int results_wrong = 0; ///< Results with at least one wrong sample.
    int like_tf32 = 0;     ///< Of wrong: within float32 sums' error of the product of inputs rounded to TF32.
    int like_bf16 = 0;     ///< Of wrong, not like_tf32: within float32 sums' error of the product of BF16 inputs.
    double worst_ratio = 0;  ///< The largest |error| / gate_tolerance() of a finite written sample.
};

/// Compares @p got (the lab's values at the grid's elements, in the grid's order) with @p reference at the lab's
/// @p precision (inner dimension @p inner), adding to @p found; counts the result in results_wrong when a sample
/// is wrong, and a wrong sample that is what inputs rounded to TF32 or to BF16 give in like_tf32 or like_bf16.
void judge_samples(const std::vector<float>& got, const SampledReference& reference, int inner,
                   InputPrecision precision, SampleFindings& found);

/// @p x rounded to a float of @p kept fraction bits (to nearest, ties away from zero, as cvt.rna.tf32.f32 does;
/// for the gate's operands truncation gives the same): 10 for TF32, 7 for BF16.
float round_fraction(float x, int kept);

/// The bits of every element of the gate's P after perf_fill and before any launch (cudaMemset 0xff).
inline constexpr std::uint32_t gate_poison_bits = 0xFFFFFFFFu;

/// The gate's digest (tilelab::gate::result_digest) of an n × n result no launch wrote: every element still
/// gate_poison_bits. A timed result with this digest was left unwritten by its launch.
std::uint64_t poisoned_digest(int n);

}  // namespace tilelab::grader
