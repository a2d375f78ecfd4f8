/// @file compare.hpp
/// @brief Checks a float32 result against the float64 reference, element by element.
#pragma once

#include "tilelab/reference.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tilelab {

/// The bit pattern (a quiet NaN with a recognisable payload) written over an output before a kernel runs.
/// An element that still holds it afterwards was never written.
inline constexpr std::uint32_t unwritten_bits = 0x7FC0DEADu;

/// The float whose bit pattern is @p bits (for NaN patterns that mark memory).
float float_with_bits(std::uint32_t bits);

/// True when @p x has exactly the bit pattern @p bits (a NaN never compares equal, so compare bits).
bool has_bits(float x, std::uint32_t bits);

/// The float whose bits are unwritten_bits.
inline float unwritten_value() { return float_with_bits(unwritten_bits); }

/// True when @p x has exactly the bits of unwritten_value().
inline bool is_unwritten(float x) { return has_bits(x, unwritten_bits); }

/// Largest error allowed for an element whose terms have total size @p magnitude (Σ|m·n|) over
/// @p inner terms, for a kernel that may round its inputs to @p precision:
/// - fp32: 2 · inner · u · magnitude, u = 2⁻²⁴. A float32 sum of inner products, in any order, with or without
///   fused multiply-add, rounding each addition to nearest or truncating it (as tensor cores do), stays within
///   that (to first order), so a correct kernel always passes and the bound grows with the inner dimension.
/// - tf32: (2 u_t + u_t²) · magnitude + 2 · inner · u · (1 + u_t)² · magnitude, u_t = 2⁻¹¹. Each input rounded to
///   TF32 errs by at most u_t relatively, so each product m̃·ñ of rounded inputs by at most (2 u_t + u_t²)|m·n|
///   (m̃·ñ itself is exact in float32: 11 × 11 significant bits); the float32 sum of those products adds the fp32
///   bound taken on Σ|m̃·ñ| ≤ (1 + u_t)² · magnitude (docs/grading.md, "The tolerance").
double tolerance(int inner, double magnitude, InputPrecision precision = InputPrecision::fp32);

/// What happened to one element of the result.
enum class ElementStatus : std::uint8_t {
    correct,    ///< Within tolerance of the reference.
    wrong,      ///< Written, but outside tolerance (NaN and infinity included).
    unwritten,  ///< Still holds unwritten_value().
};

/// One element outside tolerance.
struct Mismatch {
    int row;          ///< Row of P.
    int col;          ///< Column of P.
    float got;        ///< What the kernel wrote.
    double expected;  ///< The float64 reference.
};

/// The outcome of comparing a whole result with its reference.
struct Comparison {
    std::size_t wrong = 0;      ///< Elements written with a wrong value.
    std::size_t unwritten = 0;  ///< Elements never written.
    /// The first few bad elements in row-major order (at most the number asked for).
    std::vector<Mismatch> first_bad;
    /// The status of every element, row-major (for diagnosing the pattern of errors).
    std::vector<ElementStatus> status;

    /// True when every element is correct.
    bool passed() const { return wrong == 0 && unwritten == 0; }
};

/// Compares @p got (rows × cols, row-major) with @p reference, keeping up to @p keep bad elements.
Comparison compare(const float* got, const ReferenceProduct& reference, std::size_t keep = 5);

}  // namespace tilelab
