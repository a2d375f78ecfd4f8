/// @file work_spread.hpp
/// @brief The work-spread check: the lab's kernel spreads P over its threads as the lab's contract says.
///
/// On the CPU backend the emulator watches P during the kit's launch of the kernel and says which CUDA thread
/// changed each element (wire::Op::watched_multiply). In labs 01 to 03 each element must be written by exactly
/// the thread the contract maps to it (row = blockIdx.y * TILE_WIDTH + threadIdx.y, col = blockIdx.x * TILE_WIDTH +
/// threadIdx.x); in labs 05 and up no thread may write more elements than its share of the block tile, and each
/// block only inside its own tile. A kernel in which one thread (or a few) computes all of P is correct under any
/// launch, but it is not the lab's work: it fails here, and so the shape's correctness check.
#pragma once

#include "check_shape.hpp"

#include <tilelab/host_matrix.hpp>
#include <tilelab/wire.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace tilelab::grader {

/// True when the correctness checks also watch the work spread on @p shape: on the CPU backend, for products
/// whose P is small enough (at most watched_elements) to compare after every run segment of every thread.
bool watches_work_spread(const Shape& shape);

/// P elements up to which a shape is watched: every segment of every thread compares all of P, so the cost grows as
/// P's size times the threads; 8192 (the edge shapes, 64 x 64 x 64, 97 x 131 x 61 ...) cost 1.7 s of CPU time over all eight
/// labs' checks on 2 cores (13.4 s without the watch, 2026-11-24), under 1% of the CPU backend's grading time.
inline constexpr long long watched_elements = 8192;

/// A small product the work spread is watched on, for a suite whose own shapes are all too large to watch (large):
/// two block tiles or more along rows and columns, a partial one where the lab allows it.
Shape work_spread_shape(const LabUnderTest& lab);

/// A grid or block as the runner reports it.
struct Extent {
    std::uint32_t x = 0, y = 0, z = 0;
    bool operator!=(const Extent& other) const { return x != other.x || y != other.y || z != other.z; }
};

/// What a watched multiply saw (wire::Op::watched_multiply): the launches, and which thread changed which element.
struct Watched {
    Extent grid, block;   ///< The last launch's.
    std::uint32_t launches = 0;
    bool overflow = false;  ///< More changes than the watch keeps.
    std::vector<wire::OutputWrite> writes;
};

/// Reads what a watched multiply's reply adds after multiply's fields, for a P of @p elements; @p doing names the
/// request in messages. Throws RunnerGone for a write reported outside P.
Watched read_watched(wire::Reader& in, std::size_t elements, const std::string& doing);

/// Judges who wrote what in the kit's launch of the kernel on @p shape, which the emulator watched (@p seen: the
/// contract run of check_shape, asked for as a watched multiply where watches_work_spread holds); @p heading starts
/// the report.
ShapeVerdict check_work_spread(const LabUnderTest& lab, const Shape& shape, const Watched& seen,
                               const std::string& heading);

}  // namespace tilelab::grader
