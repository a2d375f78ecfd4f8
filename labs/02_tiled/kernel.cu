/// @file labs/02_tiled/kernel.cu
/// @brief Lab 02: the tiled kernel for sizes that are multiples of TILE_WIDTH. The handout is README.md here.
#include <tilelab/labs.hpp>

/// Computes one TILE_WIDTH × TILE_WIDTH tile of P from tiles of M and N staged in shared memory.
/// rows, inner and cols are multiples of TILE_WIDTH.
__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // TODO(student): step 1, declare the two shared-memory tiles, M_tile and N_tile.
    // TODO(student): step 2, this thread's row and column of P.
    // TODO(student): step 3, for each phase: load one element of each tile, barrier, accumulate, barrier.
    // TODO(student): step 4, store the sum in P.
}

/// Launches matmul_tiled_kernel with one TILE_WIDTH × TILE_WIDTH block per tile of P.
void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(1, 1);  // TODO(student): step 5, one block per tile of P.
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
