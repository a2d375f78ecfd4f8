/// @file labs/05_coarsened/kernel.cu
/// @brief Lab 05: thread coarsening, each thread a column of outputs. The handout is README.md in this folder.
#include <tilelab/labs.hpp>

/// Computes one COARSENED_BLOCK_TILE × COARSENED_BLOCK_TILE tile of P with COARSENED_THREADS threads (a
/// one-dimensional block): each thread computes COARSENED_OUTPUTS elements of one column of the tile, in registers,
/// from an M_tile (COARSENED_BLOCK_TILE × COARSENED_PHASE_DEPTH) and an N_tile (COARSENED_PHASE_DEPTH ×
/// COARSENED_BLOCK_TILE) staged in shared memory each phase; any rows, inner and cols.
__global__ void matmul_coarsened_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // TODO(student): step 1, declare M_tile and N_tile in shared memory, and an array of COARSENED_OUTPUTS sums.
    // TODO(student): step 2, work out which column and which rows of the tile this thread computes, and which
    //                element of each tile it loads (one of each per phase).
    // TODO(student): step 3, for each phase, load your two tile elements (0.0f outside M or N), then wait.
    // TODO(student): step 4, for each k of the phase, read N_tile's value for your column once and add its product
    //                with M_tile's value to each of your sums; wait before the next phase.
    // TODO(student): step 5, store each sum whose element lies inside P.
}

/// Launches matmul_coarsened_kernel: COARSENED_THREADS threads per block, one block per COARSENED_BLOCK_TILE ×
/// COARSENED_BLOCK_TILE tile of P, partial tiles included.
void matmul_coarsened(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(COARSENED_THREADS);
    const dim3 grid(1, 1);  // TODO(student): step 6, one block per tile of P, rounding up.
    matmul_coarsened_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
