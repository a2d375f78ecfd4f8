/// @file gate_program.hpp
/// @brief The performance gate's kit programs as the checker sees them: a model answer from solutions/ in a
/// program of the kit's own (grader/runner/adapters/gate_model.cu), started by the checker next to the lab's
/// program and asked the same requests, so that no student code runs where a model is measured. Each rung of the
/// gate races the lab against an earlier stage's model (its reference), and calibrates its requirement by racing the
/// lab's own model against the same reference (gate_calibration.hpp).
#pragma once

#include "lab_registry.hpp"
#include "lab_runner.hpp"
#include "lab_under_test.hpp"
#include "runner_process.hpp"

#include <filesystem>
#include <memory>
#include <string>

namespace tilelab::grader {

/// The model answers of one rung of a lab's gate, by their folder in solutions/.
struct GateModels {
    const char* reference;  ///< What the lab races against: the rung's reference's folder.
    const char* own;        ///< The lab's own model answer (its own folder), whose speedup calibrates the rung.
};

/// The models of @p rung of @p lab's gate, from its registry entry; throws std::invalid_argument for a lab without
/// a gate.
GateModels gate_models(const LabUnderTest& lab, const GateRung& rung);

/// Where the kit's own programs of model answers are (the gate's, the technique check's): this checker's own folder,
/// or TILELAB_GATE_REFERENCE_DIR's when set.
std::filesystem::path kit_program_folder();

/// The name of the gate program of the model in solutions/@p model_folder: "tilelab-gate-model-<folder>".
std::string gate_program_name(const std::string& model_folder);

/// The gate program's module of @p model_folder (<name>.so, which the runner host loads): in this checker's own
/// folder (the kit builds both there), or TILELAB_GATE_REFERENCE_DIR's when set. Throws std::runtime_error when it is
/// not there.
std::string gate_program_path(const std::string& model_folder);

/// The GPU as a kit program saw it (its reply to hello).
struct GpuIdentity {
    std::string name;  ///< cudaDeviceProp::name.
    int major = 0;     ///< Compute capability, major.
    int minor = 0;     ///< Compute capability, minor.

    /// "9.0".
    std::string compute_capability() const { return std::to_string(major) + "." + std::to_string(minor); }
};

/// A running gate program, out of the lab's program's reach (unconfined, as the checker's user).
class GateProgram {
public:
    /// The gate program of @p model_folder at @p tile_width, with the check's deadline: a program an earlier gate of
    /// this checker left, which loads the model's module, or else the runner host started with it, which creates its
    /// CUDA context (holding the GPU as starting a context needs). Throws RunnerGone or std::runtime_error.
    GateProgram(const std::string& model_folder, int tile_width);
    /// Keeps the program for the next gate of this checker while it is usable (it then loads that gate's model).
    ~GateProgram();
    GateProgram(const GateProgram&) = delete;
    GateProgram& operator=(const GateProgram&) = delete;

    /// Sends @p request with the GPU held for @p use (as ask_runner does for the lab's program) and returns the
    /// reply; throws RunnerGone, and LabError when the reply is not ok.
    Reply ask(const wire::Writer& request, const std::string& doing, GpuUse use);

    /// The GPU this program runs on.
    const GpuIdentity& gpu() const noexcept { return gpu_; }
    /// The program's file.
    const std::string& path() const noexcept { return path_; }

private:
    std::string path_;                        // the model's module
    std::unique_ptr<RunnerProcess> process_;  // the runner host that loaded it
    bool reusable_ = true;                    // no request failed to come back, no context was lost
    GpuIdentity gpu_;
};

}  // namespace tilelab::grader
