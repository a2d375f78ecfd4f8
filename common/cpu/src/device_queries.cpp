// The device the CPU backend emulates, CUDA events on the host clock, and synchronisation (kernels run to the
// end inside their launch, so waiting only means collecting what went wrong in them).
#include <tilelab/cpu/emulator.hpp>

#include "runtime_state.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>


namespace tilelab::cpu::detail {
namespace {
std::mutex kernels_mutex;
std::map<const void*, std::size_t> shared_bytes_by_kernel;
std::map<const void*, std::size_t> max_dynamic_shared_by_kernel;  // set by cudaFuncSetAttribute
}  // namespace

void record_shared_bytes(const void* kernel, std::size_t bytes) {
    std::lock_guard<std::mutex> lock(kernels_mutex);
    std::size_t& recorded = shared_bytes_by_kernel[kernel];
    recorded = std::max(recorded, bytes);
}

bool shared_bytes_of(const void* kernel, std::size_t* bytes) {
    std::lock_guard<std::mutex> lock(kernels_mutex);
    const auto found = shared_bytes_by_kernel.find(kernel);
    if (found == shared_bytes_by_kernel.end()) return false;
    *bytes = found->second;
    return true;
}

std::size_t max_dynamic_shared_bytes_of(const void* kernel) {
    std::lock_guard<std::mutex> lock(kernels_mutex);
    const auto found = max_dynamic_shared_by_kernel.find(kernel);
    return found == max_dynamic_shared_by_kernel.end() ? default_dynamic_shared_bytes : found->second;
}

void reset_kernel_attributes() {
    std::lock_guard<std::mutex> lock(kernels_mutex);
    max_dynamic_shared_by_kernel.clear();
}

namespace {
// cudaFuncSetAttribute's cudaFuncAttributeMaxDynamicSharedMemorySize: at most what the opt-in limit leaves beside
// the kernel's static shared memory (known once it has run; taken as none before), as CUDA checks it.
cudaError_t set_max_dynamic_shared_bytes(const void* kernel, int value) {
    std::lock_guard<std::mutex> lock(kernels_mutex);
    const auto found = shared_bytes_by_kernel.find(kernel);
    const std::size_t static_bytes = found == shared_bytes_by_kernel.end() ? 0 : found->second;
    if (value < 0 || static_cast<std::size_t>(value) + static_bytes > optin_shared_bytes) return cudaErrorInvalidValue;
    max_dynamic_shared_by_kernel[kernel] = static_cast<std::size_t>(value);
    return cudaSuccess;
}
}  // namespace

}  // namespace tilelab::cpu::detail

using namespace tilelab::cpu::detail;

namespace {
constexpr std::size_t max_block_shared_bytes = 48 * 1024;
constexpr int max_threads_per_sm = 2048;
constexpr std::size_t shared_bytes_per_sm = 228 * 1024;
}  // namespace

cudaError_t cudaGetDeviceCount(int* count) {
    if (count == nullptr) return cudaErrorInvalidValue;
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : cudaErrorInvalidDevice; }

cudaError_t cudaGetDevice(int* device) {
    if (device == nullptr) return cudaErrorInvalidValue;
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* properties, int device) {
    if (properties == nullptr || device != 0) return cudaErrorInvalidValue;
    *properties = cudaDeviceProp{};
    std::snprintf(properties->name, sizeof properties->name, "TileLab CPU emulator (%u worker threads)",
                  tilelab::cpu::worker_count());
    std::size_t free = 0;
    cudaMemGetInfo(&free, &properties->totalGlobalMem);
    properties->sharedMemPerBlock = max_block_shared_bytes;
    properties->sharedMemPerBlockOptin = optin_shared_bytes;
    properties->warpSize = 32;
    properties->maxThreadsPerBlock = 1024;
    properties->maxThreadsDim[0] = properties->maxThreadsDim[1] = 1024;
    properties->maxThreadsDim[2] = 64;
    properties->maxGridSize[0] = 2147483647;
    properties->maxGridSize[1] = properties->maxGridSize[2] = 65535;
    properties->major = 0;  // no compute capability: this is not a GPU
    properties->minor = 0;
    properties->multiProcessorCount = static_cast<int>(tilelab::cpu::worker_count());
    properties->maxThreadsPerMultiProcessor = max_threads_per_sm;
    properties->sharedMemPerMultiprocessor = shared_bytes_per_sm;
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() {
    drain_queue();
    return take_kernel_error();
}
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaDeviceSynchronize(); }
cudaError_t cudaDeviceReset() {
    discard_queue();
    take_kernel_error();
    clear_sticky_error();
    cudaGetLastError();
    reset_kernel_attributes();
    return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, const void* kernel) {
    if (attributes == nullptr || kernel == nullptr) return cudaErrorInvalidValue;
    drain_queue();  // the emulator learns a kernel's shared memory by running it
    *attributes = cudaFuncAttributes{};
    // Known once the kernel has run: the emulator counts the bytes of its __shared__ declarations as they run.
    if (!shared_bytes_of(kernel, &attributes->sharedSizeBytes)) return cudaErrorInvalidDeviceFunction;
    attributes->maxThreadsPerBlock = 1024;
    attributes->maxDynamicSharedSizeBytes = static_cast<int>(max_dynamic_shared_bytes_of(kernel));
    return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void* kernel, cudaFuncAttribute attribute, int value) {
    cudaError_t result = cudaSuccess;
    if (kernel == nullptr)
        result = cudaErrorInvalidDeviceFunction;
    else if (attribute == cudaFuncAttributeMaxDynamicSharedMemorySize)
        result = set_max_dynamic_shared_bytes(kernel, value);
    else if (attribute == cudaFuncAttributePreferredSharedMemoryCarveout)
        result = value >= -1 && value <= 100 ? cudaSuccess : cudaErrorInvalidValue;  // a hint: nothing to emulate
    else
        result = cudaErrorInvalidValue;  // an attribute the CPU backend does not know
    // As CUDA's runtime does, a failed call's error is also the one cudaGetLastError returns next.
    return result == cudaSuccess ? result : record_error(result);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* kernel, int block_threads,
                                                          std::size_t dynamic_shared_bytes) {
    if (blocks == nullptr || block_threads <= 0) return cudaErrorInvalidValue;
    std::size_t shared = 0;
    if (!shared_bytes_of(kernel, &shared)) return cudaErrorInvalidDeviceFunction;
    shared += dynamic_shared_bytes;
    // The limits of a Hopper multiprocessor, so that the numbers read like the GPU's.
    int fit = std::min(32, max_threads_per_sm / block_threads);
    if (shared > 0) fit = std::min<int>(fit, static_cast<int>(shared_bytes_per_sm / (shared + 1024)));
    *blocks = fit;
    return cudaSuccess;
}
