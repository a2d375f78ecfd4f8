/// @file solutions/01_naive/kernel.cu
/// @brief Lab 01 model answer: one thread per element of P, every operand read from global memory.
#include <tilelab/labs.hpp>

/// Computes P(row, col) = Σₖ M(row, k) · N(k, col) for the one element this thread owns.
__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // x varies fastest within a warp; tying it to the column makes a warp read a contiguous run of N's
    // row and write a contiguous run of P (coalesced accesses).
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows || col >= cols) return;  // the last blocks overhang P when its sizes are not multiples

    float sum = 0.0f;
    for (int k = 0; k < inner; ++k) sum += M[row * inner + k] * N[k * cols + col];
    P[row * cols + col] = sum;
}

/// Launches one TILE_WIDTH × TILE_WIDTH block per tile of P, rounding up so partial tiles get a block too.
void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_naive_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
