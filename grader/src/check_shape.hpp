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

/// Draws fresh inputs for @p shape from @p seed, runs the lab's launcher on them with P poisoned and
/// guard zones around every buffer, then checks the guards and every element against the float64
/// reference (computed after the kernel has finished). Throws tilelab::CudaError when the launch or
/// the kernel fails; the CUDA context is then unusable for the rest of the process.
ShapeVerdict check_shape(const LabUnderTest& lab, const Shape& shape, std::uint64_t seed);

}  // namespace tilelab::grader
