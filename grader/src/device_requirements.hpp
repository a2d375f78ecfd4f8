/// @file device_requirements.hpp
/// @brief The oldest GPU each lab can be graded on, and what the checker says on an older one: the lab's GPU
/// checks are skipped with the reason (the CPU backend still grades it), never run to a crash or a false failure.
#pragma once

#include <string>

namespace tilelab::grader {

/// A GPU's compute capability, major.minor (9.0 for an H100), as one number: major * 10 + minor.
struct ComputeCapability {
    int major = 0;  ///< 9 for 9.0.
    int minor = 0;  ///< 0 for 9.0.
    /// 90 for 9.0: the number CUDA's architecture names use (sm_90), and the order of capabilities.
    int number() const noexcept { return major * 10 + minor; }
};

/// The GPU as a checker found it, or as grade.cmake found it once for a whole grading (TILELAB_GPU_FOUND).
struct FoundGpu {
    bool usable = false;           ///< A CUDA GPU can be used.
    ComputeCapability capability;  ///< Its compute capability; 0.0 when not known.
    std::string said;              ///< One line: which GPU, or why there is none.
};

/// TILELAB_GPU_FOUND's value for @p gpu: "+<major>.<minor>|<line>" for a usable GPU, "-<line>" otherwise.
/// `--device-query` prints it without the sign, which its exit status gives (grade.cmake adds it back).
std::string found_gpu_record(const FoundGpu& gpu);

/// Reads a TILELAB_GPU_FOUND value written by found_gpu_record() into @p gpu; false (and @p gpu unchanged) when
/// @p record is not one.
bool read_found_gpu(const std::string& record, FoundGpu& gpu);

/// The lowest compute capability on which @p lab_id ("lab01", ...) can be graded: its registry entry's
/// min_compute_capability (grader/labs.json; e.g. 8.0 for a lab whose asynchronous copies are hardware from
/// Ampere on, which an older GPU runs as plain loads and stores, so its gate would measure nothing of the lab);
/// 0.0 for a lab without one, or not in the registry (any GPU the build has code for).
ComputeCapability minimum_compute_capability(const std::string& lab_id);

/// Empty when @p device can grade @p lab_id; otherwise the line that says why not,
/// starting "SKIPPED: no usable CUDA GPU (", as every skip for want of a GPU does (CTest, the self-test and the
/// report read it). @p oldest_built is the oldest architecture the kit's build has machine code
/// for (oldest_architecture, 0 when unknown): a GPU older than it cannot run any of the kit's kernels.
std::string device_skip_reason(const std::string& lab_id, ComputeCapability device, int oldest_built);

/// The oldest architecture in a build's CMAKE_CUDA_ARCHITECTURES, @p architectures ("75-real,90" -> 75; "," or ";"
/// between them); 0 (not known) when the list is empty or has a name ("native", "all") rather than numbers.
int oldest_architecture(const std::string& architectures);

}  // namespace tilelab::grader
