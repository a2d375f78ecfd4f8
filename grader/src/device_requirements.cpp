#include "device_requirements.hpp"

#include "lab_registry.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

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

ComputeCapability minimum_compute_capability(const std::string& lab_id) {
    const LabEntry* lab = find_lab(lab_id);
    if (lab == nullptr) return {0, 0};
    return {lab->minimum.major, lab->minimum.minor};
}

int oldest_architecture(const std::string& architectures) {
    int oldest = 0;
    std::string separated = architectures;
    std::replace(separated.begin(), separated.end(), ';', ',');
    std::istringstream list(separated);
    for (std::string entry; std::getline(list, entry, ',');) {
        if (entry.empty() || !std::isdigit(static_cast<unsigned char>(entry[0]))) return 0;
        const int number = std::stoi(entry);
        if (oldest == 0 || number < oldest) oldest = number;
    }
    return oldest;
}

std::string device_skip_reason(const std::string& lab_id, ComputeCapability device, int oldest_built) {
    // The same start as every GPU skip ("SKIPPED: no usable CUDA GPU (<reason>); ..."), which CTest, the self-test
    // and the report read; the reason itself has no ';', where the report's reason ends.
    const std::string capability = std::to_string(device.major) + "." + std::to_string(device.minor);
    if (oldest_built > 0 && device.number() < oldest_built)
        return "SKIPPED: no usable CUDA GPU (this GPU, of compute capability " + capability + ", is older than the oldest architecture the kit was built for, sm_" + std::to_string(oldest_built) +
               ", so none of its kernels can run on it); the GPU checks did not run: the CPU backend grades the lab, "
               "and a CUDA Toolkit that supports this GPU, with CMAKE_CUDA_ARCHITECTURES set to it, grades it here";
    // A lab's own minimum (its registry entry's min_compute_capability), e.g. hardware that an older GPU
    // emulates with plain instructions, so that its gate would measure nothing of the lab's idea.
    const LabEntry* lab = find_lab(lab_id);
    const ComputeCapability minimum = minimum_compute_capability(lab_id);
    if (lab != nullptr && device.number() < minimum.number())
        return "SKIPPED: no usable CUDA GPU (" + lab_id + " needs compute capability " +
               std::to_string(minimum.major) + "." + std::to_string(minimum.minor) + " or higher, and this GPU's is " +
               capability + ": " + lab->minimum.why + "); the GPU checks did not run: the CPU backend grades the lab";
    return "";
}

}  // namespace tilelab::grader
