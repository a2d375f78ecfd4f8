/// @file labs/08_warp_tiled/kernel.cu
/// @brief Lab 08: warp tiles and double buffering with asynchronous copies. The handout is README.md here.
#include <tilelab/labs.hpp>

#include <cuda_pipeline.h>

namespace {
// The tuning knobs (the handout's last step): the shape of the part of P each warp computes, and how many
// phases are in shared memory at once. Their product must cover the block tile with its eight warps.
constexpr int kWarpRows = 32;  // rows of P per warp
constexpr int kWarpCols = 64;  // columns of P per warp
constexpr int kStages = 2;     // shared-memory stages: the phase being multiplied and those being copied
}  // namespace

/// Computes one WARP_TILED_BLOCK_TILE × WARP_TILED_BLOCK_TILE tile of P with WARP_TILED_THREADS threads (eight
/// warps): each warp a kWarpRows × kWarpCols warp tile, each lane four 4 × 4 pieces of it; the tiles of the next
/// phases are copied into shared memory with __pipeline_memcpy_async while the current phase is multiplied; any
/// rows, inner and cols.
__global__ void matmul_warp_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // TODO(student): step 1, declare kStages stages in shared memory, each an M_tile in M's layout and an N_tile,
    //                16-byte aligned; find this warp's tile and this lane's first row and column in it.
    // TODO(student): step 2, write the copy of one phase into one stage: one 16-byte asynchronous copy per group
    //                of four where the row allows it (M's into its swizzled chunk), else four 4-byte copies;
    //                zero-fill what lies outside M or N.
    // TODO(student): step 3, start the first kStages - 1 phases, committing one batch each.
    // TODO(student): step 4, for each phase: wait for its batch, wait for the other threads, start the copy of
    //                the phase kStages - 1 ahead, commit, then multiply from this phase's stage.
    // TODO(student): step 5, store the four pieces of the micro-tile, only inside P.
}

/// Launches matmul_warp_tiled_kernel: WARP_TILED_THREADS threads per block, one block per WARP_TILED_BLOCK_TILE ×
/// WARP_TILED_BLOCK_TILE tile of P, partial tiles included.
void matmul_warp_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(WARP_TILED_THREADS);
    const dim3 grid(1, 1);  // TODO(student): step 6, one block per tile of P, rounding up.
    matmul_warp_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
