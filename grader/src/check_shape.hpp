/// @file check_shape.hpp
/// @brief Runs the lab under test on one shape and judges the result.
#pragma once

#include "lab_under_test.hpp"
#include "shapes.hpp"

#include <cstdint>
#include <string>

namespace tilelab::grader {

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
ShapeVerdict check_shape(const LabUnderTest& lab, const Shape& shape, std::uint64_t seed);

}  // namespace tilelab::grader
