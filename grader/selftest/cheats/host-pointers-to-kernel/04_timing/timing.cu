/// @file grader/selftest/cheats/host-pointers-to-kernel/04_timing/timing.cu
/// @brief Cheat: lab 04 with no device memory and no copies. A correct kernel (a copy of a lab 03 answer, here
/// in this file, since every other lab of this submission is the stub) is launched straight on the caller's host
/// arrays; one probe cudaMalloc of M's size, checked and freed, is there for the failed-allocation check. Errors
/// are ignored and the time is made up when the events fail.
/// On a GPU the kernel faults at its first access to host memory. What stops it on the CPU backend: the launch
/// checks that every pointer argument is device memory (from cudaMalloc); this one is refused with
/// cudaErrorIllegalAddress naming the kernel and the argument, the kernel never runs, and P stays unwritten.
#include <tilelab/cuda_check.hpp>
#include <tilelab/labs.hpp>

#include <cstddef>

namespace {

__global__ void stolen_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];
    const int row = blockIdx.y * TILE_WIDTH + threadIdx.y;
    const int col = blockIdx.x * TILE_WIDTH + threadIdx.x;
    float sum = 0.0f;
    for (int phase = 0; phase < (inner + TILE_WIDTH - 1) / TILE_WIDTH; ++phase) {
        const int m_col = phase * TILE_WIDTH + threadIdx.x;
        const int n_row = phase * TILE_WIDTH + threadIdx.y;
        M_tile[threadIdx.y][threadIdx.x] = row < rows && m_col < inner ? M[row * inner + m_col] : 0.0f;
        N_tile[threadIdx.y][threadIdx.x] = n_row < inner && col < cols ? N[n_row * cols + col] : 0.0f;
        __syncthreads();  // the tiles are loaded before any thread reads them
        for (int k = 0; k < TILE_WIDTH; ++k) sum += M_tile[threadIdx.y][k] * N_tile[k][threadIdx.x];
        __syncthreads();  // every thread is done with the tiles before the next phase overwrites them
    }
    if (row < rows && col < cols) P[row * cols + col] = sum;
}

}  // namespace

float matmul_timed(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    void* probe = nullptr;  // the one allocation, so that a failed cudaMalloc still throws as the lab asks
    TILELAB_CUDA_CHECK(cudaMalloc(&probe, static_cast<std::size_t>(rows) * inner * sizeof(float)));
    static_cast<void>(cudaFree(probe));
    cudaEvent_t start = nullptr, stop = nullptr;
    static_cast<void>(cudaEventCreate(&start));
    static_cast<void>(cudaEventCreate(&stop));
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    static_cast<void>(cudaEventRecord(start));
    stolen_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);  // host pointers: no copies at all
    static_cast<void>(cudaEventRecord(stop));
    static_cast<void>(cudaDeviceSynchronize());
    float ms = 0.0f;
    if (cudaEventElapsedTime(&ms, start, stop) != cudaSuccess || ms <= 0.0f) ms = 0.5f;
    static_cast<void>(cudaEventDestroy(start));
    static_cast<void>(cudaEventDestroy(stop));
    return ms;
}
