/// @file cuda_check.hpp
/// @brief One way to check a CUDA runtime call: TILELAB_CUDA_CHECK throws tilelab::CudaError.
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace tilelab {

/// A failed CUDA runtime call: what was called, where, and the error the runtime gave.
class CudaError : public std::runtime_error {
public:
    /// Builds the message "`expression` failed at file:line: cudaErrorName (description)".
    CudaError(cudaError_t code, const char* expression, const char* file, int line);
    /// The runtime's error code, e.g. cudaErrorIllegalAddress.
    cudaError_t code() const noexcept { return code_; }

private:
    cudaError_t code_;
};

/// Throws CudaError when @p code is not cudaSuccess. Prefer the TILELAB_CUDA_CHECK macro, which fills in the rest.
void check_cuda(cudaError_t code, const char* expression, const char* file, int line);

/// A plain-language hint for a CUDA error a student's kernel can cause; empty when there is none to give.
std::string hint_for(cudaError_t code);

}  // namespace tilelab

/// Evaluates a CUDA runtime call once and throws tilelab::CudaError, naming the call, file and line, if it failed.
#define TILELAB_CUDA_CHECK(expr) ::tilelab::check_cuda((expr), #expr, __FILE__, __LINE__)
