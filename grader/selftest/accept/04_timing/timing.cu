/// @file grader/selftest/accept/04_timing/timing.cu
/// @brief Lab 04 as students often write it: raw cudaMalloc and cudaFree, every call checked, one cleanup path
/// that frees whatever was allocated before an error. The grader must accept it (and the self-test's lab 04
/// mutants break it in the ways students do).
#include <tilelab/cuda_check.hpp>
#include <tilelab/labs.hpp>

#include <cstddef>

/// Allocates, copies in, launches and times matmul_tiled_boundary_kernel, copies P back and frees, with raw
/// CUDA calls; on any error it frees what it had and throws tilelab::CudaError.
float matmul_timed(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const std::size_t m_bytes = static_cast<std::size_t>(rows) * inner * sizeof(float);
    const std::size_t n_bytes = static_cast<std::size_t>(inner) * cols * sizeof(float);
    const std::size_t p_bytes = static_cast<std::size_t>(rows) * cols * sizeof(float);
    float* device_M = nullptr;
    float* device_N = nullptr;
    float* device_P = nullptr;
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    // Every error goes through here, so nothing allocated before it stays allocated.
    auto release = [&] {
        cudaFree(device_M);
        cudaFree(device_N);
        cudaFree(device_P);
        if (start != nullptr) cudaEventDestroy(start);
        if (stop != nullptr) cudaEventDestroy(stop);
    };
    auto check = [&](cudaError_t code, const char* what) {
        if (code == cudaSuccess) return;
        release();
        throw tilelab::CudaError(code, what, __FILE__, __LINE__);
    };

    check(cudaMalloc(&device_M, m_bytes), "cudaMalloc(M)");
    check(cudaMalloc(&device_N, n_bytes), "cudaMalloc(N)");
    check(cudaMalloc(&device_P, p_bytes), "cudaMalloc(P)");
    check(cudaMemcpy(device_M, M, m_bytes, cudaMemcpyHostToDevice), "cudaMemcpy(M)");
    check(cudaMemcpy(device_N, N, n_bytes, cudaMemcpyHostToDevice), "cudaMemcpy(N)");
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");

    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    check(cudaEventRecord(start), "cudaEventRecord(start)");
    matmul_tiled_boundary_kernel<<<grid, block>>>(device_M, device_N, device_P, rows, inner, cols);
    check(cudaEventRecord(stop), "cudaEventRecord(stop)");
    check(cudaGetLastError(), "launch");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");  // the kernel has finished: its time is known
    float ms = 0.0f;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");

    check(cudaMemcpy(P, device_P, p_bytes, cudaMemcpyDeviceToHost), "cudaMemcpy(P)");
    release();
    return ms;
}
