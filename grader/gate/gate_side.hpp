/// @file
/// @brief One side of a performance gate's race (the lab's program, or a gate program of the kit's with a model
/// answer), asked alike, and its timed request: K launches on operands drawn from a seed, timed by the checker's
/// clock, each result sent back as a digest (grader/checks/perf_check.cpp races two sides).
#pragma once

#include "gate_program.hpp"
#include "lab_under_test.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace tilelab::grader {

/// True when @p a and @p b have the same bits (NaNs included, which never compare equal).
bool bits_equal(float a, float b);

/// One side of a race: the lab's program, or a gate program of the kit's (a model answer), asked alike.
struct Side {
    const char* who;
    GateProgram* program;  ///< null: the lab's program (ask_runner)
    std::vector<float> wall_ms, event_ms;  ///< per launch: the checker's clock, and the program's own events

    /// Asks this side's program @p request (what it is @p doing, for messages), on the GPU as @p use says.
    Reply ask(const wire::Writer& request, const std::string& doing, GpuUse use) const;
};

/// The results of one timed request: the digest of each operand set's product.
struct Timed {
    double wall_ms = 0;
    float event_ms = 0;
    std::vector<std::uint64_t> digests;
};

/// Has @p side draw @p sets operand sets from @p seed (untimed), then times its launches on all of them.
Timed timed_request(Side& side, std::uint64_t seed, int sets, GpuUse use);

}  // namespace tilelab::grader
