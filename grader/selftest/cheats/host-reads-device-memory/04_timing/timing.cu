/// @file grader/selftest/cheats/host-reads-device-memory/04_timing/timing.cu
/// @brief Cheat: lab 04 with device memory but no cudaMemcpy. The host fills the device buffers of M and N by
/// writing through the device pointers, launches a correct kernel (a copy of a lab 03 answer, here in this file,
/// since every other lab of this submission is the stub) and reads P back through the device pointer.
/// On a GPU machine the host's first write to device memory is a segmentation fault. What stops it on the CPU
/// backend: device buffers are inaccessible to host code outside kernels, copies and fills, so the first write
/// faults, and the runner stops with "host code wrote device memory ... (a device pointer dereferenced on the
/// host; copy it with cudaMemcpy)".
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
    const std::size_t m_count = static_cast<std::size_t>(rows) * inner;
    const std::size_t n_count = static_cast<std::size_t>(inner) * cols;
    const std::size_t p_count = static_cast<std::size_t>(rows) * cols;
    float *device_M = nullptr, *device_N = nullptr, *device_P = nullptr;
    TILELAB_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&device_M), m_count * sizeof(float)));
    const cudaError_t n_status = cudaMalloc(reinterpret_cast<void**>(&device_N), n_count * sizeof(float));
    const cudaError_t p_status = cudaMalloc(reinterpret_cast<void**>(&device_P), p_count * sizeof(float));
    if (n_status != cudaSuccess || p_status != cudaSuccess) {
        static_cast<void>(cudaFree(device_M));
        static_cast<void>(cudaFree(device_N));
        static_cast<void>(cudaFree(device_P));
        TILELAB_CUDA_CHECK(n_status != cudaSuccess ? n_status : p_status);
    }
    for (std::size_t i = 0; i < m_count; ++i) device_M[i] = M[i];  // no cudaMemcpy: the host writes device memory
    for (std::size_t i = 0; i < n_count; ++i) device_N[i] = N[i];
    cudaEvent_t start = nullptr, stop = nullptr;
    static_cast<void>(cudaEventCreate(&start));
    static_cast<void>(cudaEventCreate(&stop));
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    static_cast<void>(cudaEventRecord(start));
    stolen_tiled_kernel<<<grid, block>>>(device_M, device_N, device_P, rows, inner, cols);
    static_cast<void>(cudaEventRecord(stop));
    static_cast<void>(cudaEventSynchronize(stop));
    float ms = 0.0f;
    static_cast<void>(cudaEventElapsedTime(&ms, start, stop));
    for (std::size_t i = 0; i < p_count; ++i) P[i] = device_P[i];  // and reads it
    static_cast<void>(cudaEventDestroy(start));
    static_cast<void>(cudaEventDestroy(stop));
    static_cast<void>(cudaFree(device_M));
    static_cast<void>(cudaFree(device_N));
    static_cast<void>(cudaFree(device_P));
    return ms;
}
