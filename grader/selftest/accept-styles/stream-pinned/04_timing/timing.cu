/// @file grader/selftest/accept-styles/stream-pinned/04_timing/timing.cu
/// @brief Lab 04 with a stream of its own, pinned staging buffers, asynchronous copies and events recorded on
/// the stream, every call checked and everything freed (style: NVIDIA's "How to Overlap Data Transfers in
/// CUDA C/C++" and the CUDA samples' asyncAPI).
#include <tilelab/cuda_check.hpp>
#include <tilelab/labs.hpp>

#include <cstddef>
#include <cstring>

float matmul_timed(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const std::size_t m_bytes = static_cast<std::size_t>(rows) * inner * sizeof(float);
    const std::size_t n_bytes = static_cast<std::size_t>(inner) * cols * sizeof(float);
    const std::size_t p_bytes = static_cast<std::size_t>(rows) * cols * sizeof(float);
    float* device_M = nullptr;
    float* device_N = nullptr;
    float* device_P = nullptr;
    float* pinned = nullptr;  // staging for M, N and P, one after another
    cudaStream_t stream = nullptr;
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    auto release = [&] {
        if (stream != nullptr) cudaStreamSynchronize(stream);
        cudaFree(device_M);
        cudaFree(device_N);
        cudaFree(device_P);
        cudaFreeHost(pinned);
        if (start != nullptr) cudaEventDestroy(start);
        if (stop != nullptr) cudaEventDestroy(stop);
        if (stream != nullptr) cudaStreamDestroy(stream);
    };
    auto check = [&](cudaError_t code, const char* what) {
        if (code == cudaSuccess) return;
        release();
        throw tilelab::CudaError(code, what, __FILE__, __LINE__);
    };

    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    check(cudaMallocHost(&pinned, m_bytes + n_bytes + p_bytes), "cudaMallocHost");
    check(cudaMalloc(&device_M, m_bytes), "cudaMalloc(M)");
    check(cudaMalloc(&device_N, n_bytes), "cudaMalloc(N)");
    check(cudaMalloc(&device_P, p_bytes), "cudaMalloc(P)");
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreateWithFlags(&stop, cudaEventBlockingSync), "cudaEventCreateWithFlags");
    float* pinned_M = pinned;
    float* pinned_N = pinned + static_cast<std::size_t>(rows) * inner;
    float* pinned_P = pinned_N + static_cast<std::size_t>(inner) * cols;
    std::memcpy(pinned_M, M, m_bytes);
    std::memcpy(pinned_N, N, n_bytes);
    check(cudaMemcpyAsync(device_M, pinned_M, m_bytes, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync(M)");
    check(cudaMemcpyAsync(device_N, pinned_N, n_bytes, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync(N)");

    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    check(cudaEventRecord(start, stream), "cudaEventRecord(start)");
    matmul_tiled_boundary_kernel<<<grid, block, 0, stream>>>(device_M, device_N, device_P, rows, inner, cols);
    check(cudaGetLastError(), "launch");
    check(cudaEventRecord(stop, stream), "cudaEventRecord(stop)");
    check(cudaMemcpyAsync(pinned_P, device_P, p_bytes, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync(P)");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");  // the copy of P has landed
    float ms = 0.0f;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    std::memcpy(P, pinned_P, p_bytes);
    release();
    return ms;
}
