// Style: C-style host code, one cudaMalloc carved into M, N and P (256-byte aligned offsets) and a goto-cleanup error path (classic C CUDA code, e.g. the CUDA Samples' C era and many HPC codes that pool allocations).
/// @file labs/04_timing/timing.cu
/// @brief Lab 04: the host code that runs and times your lab 03 kernel. The handout is README.md in this folder.
#include <tilelab/cuda_check.hpp>
#include <tilelab/cuda_event.hpp>
#include <tilelab/device_buffer.hpp>
#include <tilelab/labs.hpp>

#include <cstddef>

namespace {
/// Rounds a count of floats up to a multiple of 64 floats (256 bytes), so each carved piece starts aligned.
std::size_t round_up_256b(std::size_t floats) { return (floats + 63) / 64 * 64; }
}  // namespace

/// Multiplies host matrices on the GPU with matmul_tiled_boundary_kernel and returns the kernel's time in ms.
float matmul_timed(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const std::size_t m_count = static_cast<std::size_t>(rows) * static_cast<std::size_t>(inner);
    const std::size_t n_count = static_cast<std::size_t>(inner) * static_cast<std::size_t>(cols);
    const std::size_t p_count = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
    const std::size_t m_slot = round_up_256b(m_count), n_slot = round_up_256b(n_count);
    const std::size_t total = m_slot + n_slot + p_count;

    cudaError_t err = cudaSuccess;
    float* pool = nullptr;
    float* d_M = nullptr;
    float* d_N = nullptr;
    float* d_P = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
    float ms = 0.0f;
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);

#define TRY(call)          \
    do {                   \
        err = (call);      \
        if (err != cudaSuccess) { \
            goto cleanup;  \
        }                  \
    } while (0)

    TRY(cudaMalloc(&pool, total * sizeof(float)));
    d_M = pool;
    d_N = pool + m_slot;
    d_P = pool + m_slot + n_slot;
    TRY(cudaMemcpy(d_M, M, m_count * sizeof(float), cudaMemcpyHostToDevice));
    TRY(cudaMemcpy(d_N, N, n_count * sizeof(float), cudaMemcpyHostToDevice));
    TRY(cudaEventCreate(&start));
    TRY(cudaEventCreate(&stop));

    TRY(cudaEventRecord(start));
    matmul_tiled_boundary_kernel<<<grid, block>>>(d_M, d_N, d_P, rows, inner, cols);
    TRY(cudaEventRecord(stop));
    TRY(cudaGetLastError());

    TRY(cudaEventSynchronize(stop));
    TRY(cudaEventElapsedTime(&ms, start, stop));
    TRY(cudaMemcpy(P, d_P, p_count * sizeof(float), cudaMemcpyDeviceToHost));
#undef TRY

cleanup:
    if (stop != nullptr) cudaEventDestroy(stop);
    if (start != nullptr) cudaEventDestroy(start);
    if (pool != nullptr) cudaFree(pool);
    if (err != cudaSuccess) TILELAB_CUDA_CHECK(err);  // throws tilelab::CudaError, memory already given back
    return ms;
}
