/// @file timed_evidence.hpp
/// @brief Lab 04: whether one call of matmul_timed had the device do the work, judged from what the runner
/// observed (tilelab/timed_observation.hpp): the kit kernel's record of its launches on both backends, and on
/// the CPU backend the emulator's trace of every runtime call and the time its events measured.
#pragma once

#include "shapes.hpp"

#include <tilelab/timed_observation.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace tilelab::grader {

/// The checker's digests (tilelab::gate::digest) of the M and N it gave matmul_timed: on the CPU backend, what the
/// kernel must have read where it read them from managed or pinned memory.
struct OperandDigests {
    std::uint64_t M = 0;  ///< Of the rows * inner floats of M.
    std::uint64_t N = 0;  ///< Of the inner * cols floats of N.
};

/// Empty when @p seen shows that the call of matmul_timed on @p shape launched the lab 03 kernel over a grid that
/// covers P (TILE_WIDTH @p tile_width) on device memory, not on the host arrays, and that the host P holds what the
/// kernel wrote; with a trace (CPU backend), also that it allocated M, N and P, copied M and N in before the
/// launch and P back after it, recorded one event right before the launch and one right after, and returned
/// (@p ms) the time between them. An operand in managed or pinned memory needs no copy: the kernel must have read
/// there exactly the M or N whose digests are @p inputs, and P must be, element for element, what it wrote there.
/// Otherwise the first thing missing, as a message with its likely cause.
std::string judge_timed_call(const Shape& shape, int tile_width, float ms, const std::vector<float>& P,
                             const OperandDigests& inputs, const wire::TimedObservation& seen);

}  // namespace tilelab::grader
