/// @file check_shape.hpp
/// @brief Runs the lab under test on one shape and judges the result.
#pragma once

#include "lab_under_test.hpp"
#include "shapes.hpp"

#include <cstdint>
#include <string>

namespace tilelab::grader {

/// How check_shape() draws the operands.
enum class Operands {
    /// Every element uniform in [-1, 1) (sums that mostly cancel, as most products' do), each row of M and each
    /// column of N then scaled by its own power of two from 2⁻¹⁶ to 2⁵⁶: exact, so float32 loses nothing to it,
    /// while a kernel that computes with less than float32's relative precision somewhere (fixed point, an
    /// absolute grid, a narrower type) is wrong on the small rows, and one whose sums overflow before float32's
    /// would (kept scaled up, or in a narrower range) on the large ones.
    uniform,
    /// M's elements uniform in [0, 2⁻²⁴), N's in [0, 2²⁴): products in [0, 1) whose sums never cancel, so that
    /// precision lost anywhere shows; exact powers of two apart from uniform ones, so float32 (and TF32, with its
    /// range) lose nothing to the scaling, while half precision flushes M to zero and takes N to infinity.
    wide_one_signed,
    /// For TF32 labs: every element one float32 step below a TF32 value (its 13 low mantissa bits all ones), of
    /// either sign, a value in [1, 2) times a power of two from 2⁻¹¹² to 2¹¹² (M's column k and N's row k scaled
    /// inversely, so that products keep to 2⁻²⁴ to 2²⁴ and a conversion skipped for large or small elements shows),
    /// and M banded (M(r, k) = 0 unless k and r agree modulo tf32_step_band),
    /// so that each element of P sums a few products (one k in tf32_step_band) and every k is one of them for some
    /// rows. Rounded to
    /// TF32 (to nearest, as wmma::__float_to_tf32 and tilelab::to_tf32 do) an element moves by one float32 step;
    /// left unconverted, the tensor cores truncate it by a whole TF32 step, at least 2⁻¹¹ of it. The reference is
    /// taken from the operands rounded to nearest, with float32's tolerance counted over those few products (the
    /// zeros add no rounding): one element left unconverted, at any k, puts its elements of P outside it.
    tf32_steps,
};


/// The verdict on one shape.
struct ShapeVerdict {
    bool passed = false;  ///< Every element correct and nothing written outside P.
    std::string report;   ///< What went wrong, with hints; empty when passed.
};

/// Draws fresh inputs for @p shape from @p seed and has the lab's program multiply them with P poisoned and
/// guard zones around every buffer, twice: through the student's launcher, then with the kit's own launch of
/// the student's kernel (contract grid and block), so that only work done by the kernel counts. Checks the
/// guards and every element against the float64 reference, computed here after the lab's program answered.
/// Throws LabError when the lab's program reports a CUDA error or an exception, RunnerGone when it ends,
/// hangs or sends garbage.
/// @p operands says how M and N are drawn. The tolerance allows the lab's input precision (its registry entry).
ShapeVerdict check_shape(const LabUnderTest& lab, const Shape& shape, std::uint64_t seed,
                         Operands operands = Operands::uniform);

}  // namespace tilelab::grader
