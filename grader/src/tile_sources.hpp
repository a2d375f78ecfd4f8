/// @file tile_sources.hpp
/// @brief The CPU backend's evidence that a tiled kernel computes P from its tiles: the same graded multiply run
/// twice, the second time with every float the kernel stores into shared memory scaled by s.
///
/// If both operands of every multiply-add come from the tiles, P comes back scaled by s² (within rounding); if only
/// one does, by s; if P is computed from global memory, unchanged. Tiles that are filled and read but feed nothing,
/// `tile - tile` or `0 * tile` added to a naive sum, and tiles used only on a run the kernel recognises all leave P
/// unscaled. The multiply is one of the shapes the lab's correctness checks draw from the checker's seed (none a
/// kernel could list), with operands drawn from the seed as the performance gate draws its own (so a kernel that
/// computes from its tiles only on other operands fails), and the unscaled run's P must be right.
#pragma once

#include "lab_under_test.hpp"

#include <cstdint>
#include <string>

namespace tilelab::grader {

/// What check_tile_sources found.
struct TileSources {
    bool passed = false;   ///< P right, and scaled by s² in the scaled run.
    std::string report;    ///< What was run and seen: a MESSAGE when passed, the failure (with its cause) otherwise.
    std::string counts;    ///< The unscaled run's tile writes and reads, for the log (empty when not counted).
};

/// Runs the kit's launch of @p lab's kernel on a graded shape (rows and cols of at least one block tile, inner of
/// two phases or more) with operands from @p seed, checks P against the float64 reference, then runs it again with
/// shared stores scaled (wire::Op::scaled_multiply) and classifies P' element by element as s²·P, s·P or P.
/// Throws LabError or RunnerGone as ask_runner does.
TileSources check_tile_sources(const LabUnderTest& lab, std::uint64_t seed);

/// The hypotheses an element of the scaled run fits: bit k set when |got − s^k·expected| ≤ bound (k = 0, 1, 2),
/// where bound = s²·(tolerance(inner, magnitude) + 2⁻²²·magnitude) covers the product's float32 rounding plus
/// the two roundings of the scaled operands. Exposed for the unit test.
unsigned scaled_fits(float got, double expected, double magnitude, int inner, double s);

}  // namespace tilelab::grader
