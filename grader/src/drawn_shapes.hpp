/// @file drawn_shapes.hpp
/// @brief The shapes each correctness check draws from the grading's seed, beside its fixed ones (shapes.hpp).
///
/// The fixed lists are public: a kernel that computes P only on them (or only on squares) would pass every check.
/// A part of each check's shapes is therefore drawn from the seed (TILELAB_SEED, printed by every checker), by a
/// generator the C++ standard specifies (std::mt19937_64) and a mapping of its own onto each range, so that the
/// same seed gives the same shapes on every machine and standard library. A drawn shape is never square
/// (rows ≠ cols), never one of the fixed lists' shapes, and within a cost bound in multiply-adds, since the CPU
/// backend emulates every one of them.
#pragma once

#include "lab_under_test.hpp"
#include "shapes.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace tilelab::grader {

/// Which check a draw is for: each has its own ranges, bounds and stream of the seed.
enum class ShapeDraw {
    /// Two shapes around the tile edges: rows and cols within 3 of one or two block tiles (every residue mod 4, for
    /// the 16-byte paths), inner within 3 of one to three phase depths (at least 1). For a lab that needs
    /// multiples: each size T to 5T, in steps of T.
    edges,
    /// One shape with a partial block tile of rows and of cols (B+1 to 2B−1, B the block tile) and inner past one
    /// phase, up to two and 3 (D+1 to 2D+3): what compute-sanitizer's runs and the CPU backend's emulator checks
    /// multiply. For a lab that needs multiples: each size T to 4T.
    sanitizer,
    /// One shape of any sizes: rows and cols 2 to 3B, inner 1 to 3D (T to 8T for a lab that needs multiples).
    odd,
    /// One shape whose three sizes differ: rows and cols 2 to 2B+3, inner 2 to 2D+3 (T to 6T for a lab that
    /// needs multiples).
    index_order,
    /// One flat shape beside the fixed cube: rows and cols both 1.5 to 3 times large_side (multiples of T for a lab
    /// that needs them), partial tiles likely, inner 1 to large_side / 16 (T for a lab that needs multiples), at most
    /// about half the cube's cost.
    large,
};

/// The name of a draw ("edges", ...): its stream of the seed and its messages.
const char* draw_name(ShapeDraw draw);

/// The most multiply-adds one shape of @p draw may take for @p lab (a shape past it is drawn again): about what the
/// largest of its fixed cousins costs, so that the draws add a few percent to a grading's time.
std::uint64_t draw_cost_bound(const LabUnderTest& lab, ShapeDraw draw);

/// The shapes @p draw takes for @p lab from @p seed (the grading's base seed): the same for the same arguments on
/// every machine, different between seeds. Each lies within the bounds its ShapeDraw documents and
/// draw_cost_bound(), is not square, and is none of the fixed lists' shapes (listed_shapes()).
std::vector<Shape> drawn_shapes(const LabUnderTest& lab, ShapeDraw draw, std::uint64_t seed);

/// Every shape of the fixed lists of shapes.hpp for @p lab: what a kernel could know in advance.
std::vector<Shape> listed_shapes(const LabUnderTest& lab);

/// An integer uniform in [lo, hi] from @p generator's next outputs, by rejection (no modulo bias) rather than
/// std::uniform_int_distribution, whose mapping differs between standard libraries.
template <class Generator>
int uniform_int(Generator& generator, int lo, int hi) {
    const std::uint64_t range = static_cast<std::uint64_t>(hi - lo) + 1;
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % range;  // a whole number of ranges below it
    std::uint64_t value = generator();
    while (value >= limit) value = generator();
    return lo + static_cast<int>(value % range);
}

}  // namespace tilelab::grader
