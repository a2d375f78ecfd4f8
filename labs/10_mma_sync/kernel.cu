/// @file labs/10_mma_sync/kernel.cu
/// @brief Lab 10: tensor cores through mma.sync (m16n8k8, TF32 inputs, FP32 accumulators), called through the kit's
/// wrappers in tilelab/mma.hpp. The handout is README.md here.
#include <tilelab/labs.hpp>
#include <tilelab/mma.hpp>

#include <cuda_pipeline.h>

namespace {
// The tuning knobs (the handout's last step): the shape of the part of P each warp computes, in whole 16 × 8
// products, and how many phases are in shared memory at once. With MMA_SYNC_THREADS / 32 warps, the warp tiles must
// cover the block tile; the stages must fit in a kernel's 48 KB of static shared memory.
constexpr int kWarpRows = 64;  // rows of P per warp
constexpr int kWarpCols = 64;  // columns of P per warp
constexpr int kStages = 3;     // shared-memory stages: the phase being multiplied and those being copied
static_assert((MMA_SYNC_BLOCK_TILE / kWarpRows) * (MMA_SYNC_BLOCK_TILE / kWarpCols) == MMA_SYNC_THREADS / 32,
              "one warp tile per warp covers the block tile");
static_assert(kWarpRows % 16 == 0 && kWarpCols % 8 == 0, "a warp tile is whole 16 x 8 products");
static_assert(kStages >= 2 && kStages * MMA_SYNC_PHASE_DEPTH * 2 * MMA_SYNC_BLOCK_TILE * 4 <= 48 * 1024,
              "two stages at least, within 48 KB of static shared memory");
}  // namespace

/// Computes one MMA_SYNC_BLOCK_TILE × MMA_SYNC_BLOCK_TILE tile of P with MMA_SYNC_THREADS threads (four warps): each
/// warp a kWarpRows × kWarpCols warp tile, held as (kWarpRows / 16) × (kWarpCols / 8) accumulators of four floats per
/// lane and multiplied with tilelab::mma_m16n8k8_tf32 from TF32 fragments loaded from tiles that
/// __pipeline_memcpy_async stages in shared memory, kStages phases at a time; any rows, inner and cols.
__global__ void matmul_mma_sync_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // TODO(student): step 1, declare kStages stages in shared memory, each an M_tile (MMA_SYNC_BLOCK_TILE rows of
    //                MMA_SYNC_PHASE_DEPTH) and an N_tile (MMA_SYNC_PHASE_DEPTH rows of MMA_SYNC_BLOCK_TILE),
    //                16-byte aligned, laid out (swizzled or padded) so that the fragment loads of step 4 are free
    //                of bank conflicts; find this warp's tile, and this lane's group g = lane / 4 and t = lane % 4.
    // TODO(student): step 2, write the copy of one phase into one stage as in lab 08 (16 bytes where the row
    //                allows it, else 4), each chunk to its place in your layout, zero-filling what lies outside M
    //                or N.
    // TODO(student): step 3, declare the warp tile's accumulators (four floats per 16 x 8 product) as zeros, and
    //                start the first kStages - 1 phases, committing one batch each.
    // TODO(student): step 4, for each phase: wait for its batch, wait for the other threads, start the copy of the
    //                phase kStages - 1 ahead, commit; then, for each step of 8 along k, load this lane's registers
    //                of the warp's A fragments (tilelab::ldmatrix_x4) and B fragments (two plain loads each) in
    //                the layouts of tilelab/mma.hpp's table, convert each with tilelab::to_tf32, and call
    //                tilelab::mma_m16n8k8_tf32 for every pair.
    // TODO(student): step 5, store the elements of P this lane holds (tilelab/mma.hpp's table for C and D), only
    //                those inside P.
}

/// Launches matmul_mma_sync_kernel: MMA_SYNC_THREADS threads per block, one block per MMA_SYNC_BLOCK_TILE ×
/// MMA_SYNC_BLOCK_TILE tile of P, partial tiles included.
void matmul_mma_sync(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(MMA_SYNC_THREADS);
    const dim3 grid(1, 1);  // TODO(student): step 6, one block per tile of P, rounding up.
    matmul_mma_sync_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
