/// @file labs/06_register_tiled/kernel.cu
/// @brief Lab 06: 2D register tiling, each thread a micro-tile of P. The handout is README.md in this folder.
#include <tilelab/labs.hpp>

/// Computes one REGISTER_BLOCK_TILE × REGISTER_BLOCK_TILE tile of P with REGISTER_THREADS threads (a
/// one-dimensional block): each thread computes a REGISTER_MICRO_TILE × REGISTER_MICRO_TILE micro-tile of P in
/// registers, from an M_tile (REGISTER_BLOCK_TILE × REGISTER_PHASE_DEPTH) and an N_tile (REGISTER_PHASE_DEPTH ×
/// REGISTER_BLOCK_TILE) staged in shared memory each phase; any rows, inner and cols.
__global__ void matmul_register_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    // TODO(student): step 1, declare M_tile and N_tile in shared memory, a micro-tile of sums and two register
    //                arrays of REGISTER_MICRO_TILE values (a column piece of M_tile, a row piece of N_tile).
    // TODO(student): step 2, work out where this thread's micro-tile starts in the block tile.
    // TODO(student): step 3, for each phase, load the tiles together: each thread loads
    //                REGISTER_BLOCK_TILE * REGISTER_PHASE_DEPTH / REGISTER_THREADS elements of each (0.0f outside
    //                M or N), then wait.
    // TODO(student): step 4, for each k of the phase, copy your column piece of M_tile and row piece of N_tile
    //                into registers, then add all their products to the micro-tile; wait before the next phase.
    // TODO(student): step 5, store each element of the micro-tile that lies inside P.
}

/// Launches matmul_register_tiled_kernel: REGISTER_THREADS threads per block, one block per REGISTER_BLOCK_TILE ×
/// REGISTER_BLOCK_TILE tile of P, partial tiles included.
void matmul_register_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(REGISTER_THREADS);
    const dim3 grid(1, 1);  // TODO(student): step 6, one block per tile of P, rounding up.
    matmul_register_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
