/// @file gate_reference.hpp
/// @brief The performance gate's reference program as the checker sees it: the previous stage's model kernel in a
/// program of the kit's own (grader/runner/adapters/gate_reference.cu), started by the checker next to the lab's
/// program and asked the same requests, so that no student code runs where the reference is measured.
#pragma once

#include "lab_runner.hpp"
#include "lab_under_test.hpp"
#include "runner_process.hpp"

#include <string>

namespace tilelab::grader {

/// The reference program's file name for @p lab ("tilelab-gate-reference-naive" for labs 02 and 03, the previous
/// stage's model for labs 05 to 08); throws std::invalid_argument for a lab without a gate.
std::string gate_reference_name(const LabUnderTest& lab);

/// The reference program for @p lab: the file gate_reference_name() in this checker's own folder (the kit builds
/// both there), or TILELAB_GATE_REFERENCE_DIR's when set. Throws std::runtime_error when it is not there.
std::string gate_reference_path(const LabUnderTest& lab);

/// A running reference program, out of the lab's program's reach (unconfined, as the checker's user).
class GateReference {
public:
    /// Starts @p lab's reference program, with the check's deadline, and creates its CUDA context (holding the GPU
    /// as starting a context needs). Throws RunnerGone or std::runtime_error.
    explicit GateReference(const LabUnderTest& lab);

    /// Sends @p request with the GPU held for @p use (as ask_runner does for the lab's program) and returns the
    /// reply; throws RunnerGone, and LabError when the reply is not ok.
    Reply ask(const wire::Writer& request, const std::string& doing, GpuUse use);

private:
    RunnerProcess process_;
};

}  // namespace tilelab::grader
