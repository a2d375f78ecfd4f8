/// @file diagnose.hpp
/// @brief Turns the pattern of wrong elements into a plain-language hint.
#pragma once

#include "shapes.hpp"

#include <tilelab/compare.hpp>
#include <tilelab/host_matrix.hpp>

#include <string>
#include <vector>

namespace tilelab::grader {

/// The inputs and output of one failed run, as diagnose() needs them.
struct FailedRun {
    const Shape& shape;                ///< The product's sizes.
    int tile_width;                    ///< TILE_WIDTH of the lab.
    const HostMatrix& M;               ///< Left input.
    const HostMatrix& N;               ///< Right input.
    const ReferenceProduct& reference; ///< M · N in float64.
    const std::vector<float>& got;     ///< What the kernel wrote, rows × cols.
    const Comparison& comparison;      ///< compare(got, reference).
};

/// Hints, most specific first, for a result that failed its comparison; empty when no pattern is recognised.
/// Recognised: nothing written; the last partial tile left unwritten (grid too small); NaN from reads past
/// an input; only the last partial tile wrong (boundary checks); a partial tile along the inner dimension;
/// and, for square shapes, a transposed result, a transposed input or swapped operands.
std::vector<std::string> diagnose(const FailedRun& run);

}  // namespace tilelab::grader
