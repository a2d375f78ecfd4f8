/// @file grader/selftest/accept-styles/grid-stride/01_naive/kernel.cu
/// @brief Lab 01 written as a two-dimensional grid-stride loop (style: NVIDIA's "CUDA Pro Tip: Write Flexible
/// Kernels with Grid-Stride Loops"). With the contract's grid, which covers P, each thread's loops run once: the
/// thread at (row, col) computes P(row, col) and nothing else, as the lab requires.
#include <tilelab/labs.hpp>

__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    for (int row = blockIdx.y * blockDim.y + threadIdx.y; row < rows; row += blockDim.y * gridDim.y) {
        for (int col = blockIdx.x * blockDim.x + threadIdx.x; col < cols; col += blockDim.x * gridDim.x) {
            float sum = 0.0f;
            for (int k = 0; k < inner; ++k) sum += M[row * inner + k] * N[k * cols + col];
            P[row * cols + col] = sum;
        }
    }
}

void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_naive_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
