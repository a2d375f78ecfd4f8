#include "device_requirements.hpp"

#include <cstdio>

namespace tilelab::grader {

std::string found_gpu_record(const FoundGpu& gpu) {
    if (!gpu.usable) return "-" + gpu.said;
    return "+" + std::to_string(gpu.capability.major) + "." + std::to_string(gpu.capability.minor) + "|" + gpu.said;
}

bool read_found_gpu(const std::string& record, FoundGpu& gpu) {
    if (record.empty()) return false;
    if (record[0] == '-') {
        gpu = FoundGpu{false, {}, record.substr(1)};
        return true;
    }
    const std::size_t bar = record.find('|');
    int major = 0, minor = 0, used = 0;
    if (record[0] != '+' || bar == std::string::npos ||
        std::sscanf(record.c_str() + 1, "%d.%d%n", &major, &minor, &used) != 2 || 1 + static_cast<std::size_t>(used) != bar)
        return false;
    gpu = FoundGpu{true, {major, minor}, record.substr(bar + 1)};
    return true;
}

namespace {

/// What a lab needs of the GPU beyond what every lab needs, and why, for the skip message.
struct LabNeed {
    const char* lab;                ///< "lab08".
    ComputeCapability minimum;      ///< The oldest GPU it can be graded on.
    const char* why;                ///< Why, in the student's terms.
};

// Only lab 08 needs more than the build's oldest architecture: __pipeline_memcpy_async compiles to cp.async
// (LDGSTS) from sm_80 on, and to a plain load and store (LDG, STS) for sm_75, which its gate cannot tell from lab 07.
constexpr LabNeed lab_needs[] = {
    {"lab08", {8, 0},
     "its asynchronous copies (cp.async) are hardware from Ampere on, and an older GPU runs them as plain loads "
     "and stores, so the lab's idea cannot be measured there"},
};

}  // namespace

ComputeCapability minimum_compute_capability(const std::string& lab_id) {
    for (const LabNeed& need : lab_needs)
        if (lab_id == need.lab) return need.minimum;
    return {0, 0};
}

std::string device_skip_reason(const std::string& lab_id, ComputeCapability device, int oldest_built) {
    // The same start as every GPU skip ("SKIPPED: no usable CUDA GPU (<reason>); ..."), which CTest, the self-test
    // and the report read; the reason itself has no ';', where the report's reason ends.
    const std::string capability = std::to_string(device.major) + "." + std::to_string(device.minor);
    if (oldest_built > 0 && device.number() < oldest_built)
        return "SKIPPED: no usable CUDA GPU (this GPU, of compute capability " + capability + ", is older than the oldest architecture the kit was built for, sm_" + std::to_string(oldest_built) +
               ", so none of its kernels can run on it); the GPU checks did not run: the CPU backend grades the lab, "
               "and a CUDA Toolkit that supports this GPU, with CMAKE_CUDA_ARCHITECTURES set to it, grades it here";
    for (const LabNeed& need : lab_needs)
        if (lab_id == need.lab && device.number() < need.minimum.number())
            return "SKIPPED: no usable CUDA GPU (" + lab_id + " needs compute capability " +
                   std::to_string(need.minimum.major) + "." + std::to_string(need.minimum.minor) +
                   " or higher, and this GPU's is " + capability + ": " + need.why +
                   "); the GPU checks did not run: the CPU backend grades the lab";
    return "";
}

}  // namespace tilelab::grader
