/// @file launch_result.hpp
/// @brief What the CPU backend's test kernels' launchers return: the launch's error, else the kernel's.
#pragma once

#include <cuda_runtime_api.h>

namespace tilelab::unit {

/// The launch's error, else the kernel's (after waiting for it), with the last error cleared as on a GPU. A fault
/// loses the context (every later call would return it), so the next test starts in a fresh one.
inline cudaError_t launch_result() {
    const cudaError_t launch = cudaGetLastError();
    const cudaError_t kernel = launch != cudaSuccess ? launch : cudaDeviceSynchronize();
    static_cast<void>(cudaGetLastError());  // as on a GPU, the kernel's error is also the last error: clear it
    if (kernel == cudaErrorIllegalAddress || kernel == cudaErrorMisalignedAddress) cudaDeviceReset();
    return kernel;
}

}  // namespace tilelab::unit
