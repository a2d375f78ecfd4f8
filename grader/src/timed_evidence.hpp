/// @file timed_evidence.hpp
/// @brief Lab 04: whether one call of matmul_timed had the device do the work, judged from what the runner
/// observed (tilelab/timed_observation.hpp): the kit kernel's record of its launches on both backends, and on
/// the CPU backend the emulator's trace of every runtime call and the time its events measured.
#pragma once

#include "shapes.hpp"

#include <tilelab/timed_observation.hpp>

#include <string>
#include <vector>

namespace tilelab::grader {

/// Empty when @p seen shows that the call of matmul_timed on @p shape launched the lab 03 kernel over a grid that
/// covers P (TILE_WIDTH @p tile_width) on device memory, not on the host arrays, and that the host P holds what the
/// kernel wrote; with a trace (CPU backend), also that it allocated M, N and P, copied M and N in before the
/// launch and P back after it, recorded one event right before the launch and one right after, and returned
/// (@p ms) the time between them. Otherwise the first thing missing, as a message with its likely cause.
std::string judge_timed_call(const Shape& shape, int tile_width, float ms, const std::vector<float>& P,
                             const wire::TimedObservation& seen);

}  // namespace tilelab::grader
