// The runtime's error state and error names: cudaGetLastError, cudaGetErrorName, cudaGetErrorString.
#include "runtime_state.hpp"

#include <map>
#include <mutex>

namespace tilelab::cpu::detail {
namespace {
std::mutex state_mutex;
cudaError_t last_error = cudaSuccess;
cudaError_t pending_kernel_error = cudaSuccess;
cudaError_t sticky = cudaSuccess;  // a fault that ended the emulated context (see sticky_error)
std::map<int, std::string> messages;
}  // namespace

cudaError_t record_error(cudaError_t code) {
    std::lock_guard<std::mutex> lock(state_mutex);
    last_error = code;
    return code;
}

void set_kernel_error(cudaError_t code, const std::string& message) {
    std::lock_guard<std::mutex> lock(state_mutex);
    // A GPU's context does not survive an illegal or misaligned access: nothing runs in it any more.
    if (sticky == cudaSuccess && (code == cudaErrorIllegalAddress || code == cudaErrorMisalignedAddress)) sticky = code;
    if (pending_kernel_error != cudaSuccess) return;
    pending_kernel_error = code;
    messages[code] = message;
}

cudaError_t sticky_error() {
    std::lock_guard<std::mutex> lock(state_mutex);
    return sticky;
}

void clear_sticky_error() {
    std::lock_guard<std::mutex> lock(state_mutex);
    sticky = cudaSuccess;
}

cudaError_t take_kernel_error() {
    std::lock_guard<std::mutex> lock(state_mutex);
    const cudaError_t code = pending_kernel_error != cudaSuccess ? pending_kernel_error : sticky;
    pending_kernel_error = cudaSuccess;
    if (code != cudaSuccess) last_error = code;
    return code;
}

const char* kernel_error_message(cudaError_t code) {
    std::lock_guard<std::mutex> lock(state_mutex);
    const auto found = messages.find(code);
    return found == messages.end() ? nullptr : found->second.c_str();
}

}  // namespace tilelab::cpu::detail

using namespace tilelab::cpu::detail;

cudaError_t cudaGetLastError() {
    std::lock_guard<std::mutex> lock(state_mutex);
    const cudaError_t code = last_error;
    last_error = cudaSuccess;
    return code;
}

cudaError_t cudaPeekAtLastError() {
    std::lock_guard<std::mutex> lock(state_mutex);
    return last_error;
}

const char* cudaGetErrorName(cudaError_t error) {
    switch (error) {
        case cudaSuccess: return "cudaSuccess";
        case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
        case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
        case cudaErrorInitializationError: return "cudaErrorInitializationError";
        case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
        case cudaErrorLaunchTimeout: return "cudaErrorLaunchTimeout";
        case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
        case cudaErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
        case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
        case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
        case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
        case cudaErrorInsufficientDriver: return "cudaErrorInsufficientDriver";
        case cudaErrorNoDevice: return "cudaErrorNoDevice";
        case cudaErrorNoKernelImageForDevice: return "cudaErrorNoKernelImageForDevice";
        case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
        case cudaErrorNotReady: return "cudaErrorNotReady";
        case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
        case cudaErrorMisalignedAddress: return "cudaErrorMisalignedAddress";
        case cudaErrorTileLabBarrierDivergence: return "barrier divergence (TileLab CPU backend)";
        case cudaErrorTileLabSharedMemoryRace: return "shared-memory race (TileLab CPU backend)";
        case cudaErrorTileLabKernelException: return "exception in a kernel (TileLab CPU backend)";
        case cudaErrorTileLabOutputAccess: return "read of P that no matrix multiply makes (TileLab CPU backend)";
    }
    return "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t error) {
    if (const char* message = kernel_error_message(error)) return message;
    switch (error) {
        case cudaSuccess: return "no error";
        case cudaErrorInvalidValue: return "invalid argument";
        case cudaErrorMemoryAllocation: return "out of memory";
        case cudaErrorLaunchFailure: return "unspecified launch failure";
        case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
        case cudaErrorInvalidDeviceFunction: return "invalid device function";
        case cudaErrorInvalidConfiguration: return "invalid configuration argument";
        case cudaErrorInvalidResourceHandle: return "invalid resource handle";
        case cudaErrorNotReady: return "device not ready";
        case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
        default: return cudaGetErrorName(error);
    }
}
