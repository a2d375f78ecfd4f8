/// @file grader/selftest/accept-styles/malloc-async/04_timing/timing.cu
/// @brief Lab 04 with the stream-ordered allocator (style: NVIDIA's "Using the NVIDIA CUDA Stream-Ordered Memory
/// Allocator" blog and the CUDA Programming Guide's chapter on it): cudaMallocAsync and cudaFreeAsync on a stream of
/// its own, cudaMemcpyAsync, events recorded on that stream, and one cudaStreamSynchronize. The stream and the
/// allocations live in a small struct of the lab's own whose destructor gives them back on every path.
#include <tilelab/cuda_check.hpp>
#include <tilelab/labs.hpp>

#include <cstddef>

namespace {
/// A stream, its events and the device buffers allocated on it; the destructor frees them in stream order and
/// waits, so that nothing is left behind when a check throws.
struct StreamWork {
    cudaStream_t stream = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
    float* d_M = nullptr;
    float* d_N = nullptr;
    float* d_P = nullptr;
    StreamWork() = default;
    StreamWork(const StreamWork&) = delete;
    StreamWork& operator=(const StreamWork&) = delete;
    ~StreamWork() {
        if (stream != nullptr) {
            if (d_M != nullptr) cudaFreeAsync(d_M, stream);
            if (d_N != nullptr) cudaFreeAsync(d_N, stream);
            if (d_P != nullptr) cudaFreeAsync(d_P, stream);
            cudaStreamSynchronize(stream);
            cudaStreamDestroy(stream);
        }
        if (start != nullptr) cudaEventDestroy(start);
        if (stop != nullptr) cudaEventDestroy(stop);
    }
};
}  // namespace

float matmul_timed(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const std::size_t m_bytes = static_cast<std::size_t>(rows) * inner * sizeof(float);
    const std::size_t n_bytes = static_cast<std::size_t>(inner) * cols * sizeof(float);
    const std::size_t p_bytes = static_cast<std::size_t>(rows) * cols * sizeof(float);

    StreamWork w;
    TILELAB_CUDA_CHECK(cudaStreamCreateWithFlags(&w.stream, cudaStreamNonBlocking));
    TILELAB_CUDA_CHECK(cudaEventCreate(&w.start));
    TILELAB_CUDA_CHECK(cudaEventCreate(&w.stop));
    TILELAB_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&w.d_M), m_bytes, w.stream));
    TILELAB_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&w.d_N), n_bytes, w.stream));
    TILELAB_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&w.d_P), p_bytes, w.stream));
    TILELAB_CUDA_CHECK(cudaMemcpyAsync(w.d_M, M, m_bytes, cudaMemcpyHostToDevice, w.stream));
    TILELAB_CUDA_CHECK(cudaMemcpyAsync(w.d_N, N, n_bytes, cudaMemcpyHostToDevice, w.stream));

    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    TILELAB_CUDA_CHECK(cudaEventRecord(w.start, w.stream));
    matmul_tiled_boundary_kernel<<<grid, block, 0, w.stream>>>(w.d_M, w.d_N, w.d_P, rows, inner, cols);
    TILELAB_CUDA_CHECK(cudaGetLastError());
    TILELAB_CUDA_CHECK(cudaEventRecord(w.stop, w.stream));
    TILELAB_CUDA_CHECK(cudaMemcpyAsync(P, w.d_P, p_bytes, cudaMemcpyDeviceToHost, w.stream));
    TILELAB_CUDA_CHECK(cudaStreamSynchronize(w.stream));  // P has landed on the host
    float ms = 0.0f;
    TILELAB_CUDA_CHECK(cudaEventElapsedTime(&ms, w.start, w.stop));
    return ms;
}
