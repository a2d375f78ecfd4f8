/// @file labs/03_tiled_boundary/kernel.cu
/// @brief Lab 03: the tiled kernel for any shape. The handout is README.md in this folder.
#include <tilelab/labs.hpp>

/// Computes one TILE_WIDTH × TILE_WIDTH tile of P for any rows, inner and cols: tile elements outside M or N
/// are loaded as zero and threads outside P do not store.
__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    // TODO(student): step 1, start from your lab 02 kernel.
    // TODO(student): step 2, run enough phases to cover a partial last tile of the inner dimension.
    // TODO(student): step 3, bounds-test each load; load 0.0f where the element lies outside M or N.
    // TODO(student): step 4, bounds-test the store into P, and only the store.
}

/// Launches matmul_tiled_boundary_kernel with one block per tile of P, partial tiles included.
void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(1, 1);  // TODO(student): step 5, one block per tile of P, rounding up.
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
