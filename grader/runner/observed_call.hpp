/// @file observed_call.hpp
/// @brief Lab 04's runner watching one call of matmul_timed: the kit kernel's record zeroed before it and read
/// after it, and on the CPU backend the emulator's runtime trace around it (tilelab/timed_observation.hpp says
/// what travels to the checker, which judges).
#pragma once

#include "runner_lab.hpp"

#include <tilelab/timed_observation.hpp>

namespace tilelab::runner {

/// Watches the runtime from its construction to finish() (or its destruction, when the call threw).
class ObservedCall {
public:
    /// Zeroes the kernel's record and, on the CPU backend, starts the trace. Throws tilelab::CudaError.
    explicit ObservedCall(const RunnerLab& lab);
    ObservedCall(const ObservedCall&) = delete;
    ObservedCall& operator=(const ObservedCall&) = delete;
    /// Stops the trace if finish() was not reached.
    ~ObservedCall();
    /// What was observed of the call that was given the host arrays @p M, @p N and @p P.
    wire::TimedObservation finish(const float* M, const float* N, const float* P);

private:
    const RunnerLab& lab_;
    bool finished_ = false;
};

}  // namespace tilelab::runner
