/// @file grader/selftest/accept-styles/check-cuda-errors/04_timing/timing.cu
/// @brief Lab 04 in the CUDA Samples' host style (style: helper_cuda.h's checkCudaErrors(val) macro, which
/// stringises the call and hands it with __FILE__ and __LINE__ to a check() template; d_A/d_B/d_C; events created
/// and recorded on stream NULL; matrixMul's timing). The samples' check() prints and exits; the lab's contract
/// asks for a tilelab::CudaError, so this one throws it, and a catch frees what was allocated and rethrows.
#include <tilelab/cuda_check.hpp>
#include <tilelab/labs.hpp>

#include <cstddef>

template <typename T>
void check(T result, char const* const func, const char* const file, int const line) {
    if (result) throw tilelab::CudaError(static_cast<cudaError_t>(result), func, file, line);
}

// This will output the proper CUDA error strings in the event that a CUDA host call returns an error
#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)

// This will output the proper error string when calling cudaGetLastError
#define getLastCudaError(msg) check(cudaGetLastError(), msg, __FILE__, __LINE__)

float matmul_timed(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // Allocate device memory
    float *d_A = nullptr, *d_B = nullptr, *d_C = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
    const std::size_t mem_size_A = sizeof(float) * static_cast<std::size_t>(rows) * inner;
    const std::size_t mem_size_B = sizeof(float) * static_cast<std::size_t>(inner) * cols;
    const std::size_t mem_size_C = sizeof(float) * static_cast<std::size_t>(rows) * cols;
    float msecTotal = 0.0f;
    try {
        checkCudaErrors(cudaMalloc(reinterpret_cast<void**>(&d_A), mem_size_A));
        checkCudaErrors(cudaMalloc(reinterpret_cast<void**>(&d_B), mem_size_B));
        checkCudaErrors(cudaMalloc(reinterpret_cast<void**>(&d_C), mem_size_C));

        // Allocate CUDA events that we'll use for timing
        checkCudaErrors(cudaEventCreate(&start));
        checkCudaErrors(cudaEventCreate(&stop));

        // copy host memory to device
        checkCudaErrors(cudaMemcpy(d_A, M, mem_size_A, cudaMemcpyHostToDevice));
        checkCudaErrors(cudaMemcpy(d_B, N, mem_size_B, cudaMemcpyHostToDevice));

        // Setup execution parameters
        dim3 threads(TILE_WIDTH, TILE_WIDTH);
        dim3 grid((cols + threads.x - 1) / threads.x, (rows + threads.y - 1) / threads.y);

        // Record the start event
        checkCudaErrors(cudaEventRecord(start, NULL));
        matmul_tiled_boundary_kernel<<<grid, threads>>>(d_A, d_B, d_C, rows, inner, cols);
        getLastCudaError("matmul_tiled_boundary_kernel launch failed");
        // Record the stop event
        checkCudaErrors(cudaEventRecord(stop, NULL));
        // Wait for the stop event to complete
        checkCudaErrors(cudaEventSynchronize(stop));
        checkCudaErrors(cudaEventElapsedTime(&msecTotal, start, stop));

        // Copy result from device to host
        checkCudaErrors(cudaMemcpy(P, d_C, mem_size_C, cudaMemcpyDeviceToHost));
    } catch (...) {
        // Clean up memory on the error path; errors here are ignored, the first one is what is reported
        cudaFree(d_A);
        cudaFree(d_B);
        cudaFree(d_C);
        if (start != nullptr) cudaEventDestroy(start);
        if (stop != nullptr) cudaEventDestroy(stop);
        throw;
    }
    // Clean up memory
    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
    checkCudaErrors(cudaFree(d_A));
    checkCudaErrors(cudaFree(d_B));
    checkCudaErrors(cudaFree(d_C));
    return msecTotal;
}
