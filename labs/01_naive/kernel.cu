/// @file labs/01_naive/kernel.cu
/// @brief Lab 01: the naive matrix-multiplication kernel. The handout is README.md in this folder.
#include <tilelab/labs.hpp>

/// Computes P(row, col) = Σₖ M(row, k) · N(k, col) for the one element of P this thread owns.
__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // TODO(student): step 1, this thread's row and column of P.
    // TODO(student): step 2, leave if that element lies outside P.
    // TODO(student): step 3, the dot product of row `row` of M and column `col` of N, stored in P.
}

/// Launches matmul_naive_kernel with TILE_WIDTH × TILE_WIDTH blocks so that every element of P has a thread.
void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(1, 1);  // TODO(student): step 4, enough blocks to cover all rows and cols of P.
    matmul_naive_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
