/// @file labs/09_tensor_cores/kernel.cu
/// @brief Lab 09: tensor cores through CUDA's warp matrix functions (nvcuda::wmma, TF32 inputs, FP32 accumulators).
/// The handout is README.md here.
#include <tilelab/labs.hpp>

#include <cuda_pipeline.h>
#include <mma.h>

using namespace nvcuda;

namespace {
// The tuning knob (the handout's last step): the shape of the part of P each warp computes, in whole 16 × 16
// accumulator fragments. With TENSOR_CORE_THREADS / 32 warps, the warp tiles must cover the block tile.
constexpr int kWarpRows = 64;  // rows of P per warp
constexpr int kWarpCols = 32;  // columns of P per warp
static_assert((TENSOR_CORE_BLOCK_TILE / kWarpRows) * (TENSOR_CORE_BLOCK_TILE / kWarpCols) == TENSOR_CORE_THREADS / 32,
              "one warp tile per warp covers the block tile");
static_assert(kWarpRows % 16 == 0 && kWarpCols % 16 == 0, "a warp tile is whole 16 x 16 accumulator fragments");
}  // namespace

/// Computes one TENSOR_CORE_BLOCK_TILE × TENSOR_CORE_BLOCK_TILE tile of P with TENSOR_CORE_THREADS threads (eight
/// warps): each warp a kWarpRows × kWarpCols warp tile, held in m16n16k8 float accumulator fragments and
/// multiplied on tensor cores from TF32 fragments of tiles that __pipeline_memcpy_async stages in shared memory,
/// double buffered; any rows, inner and cols.
__global__ void matmul_tensor_core_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // TODO(student): step 1, declare two stages in shared memory, each an M_tile (TENSOR_CORE_BLOCK_TILE rows of
    //                TENSOR_CORE_PHASE_DEPTH) and an N_tile (TENSOR_CORE_PHASE_DEPTH rows of
    //                TENSOR_CORE_BLOCK_TILE), rows padded by TENSOR_CORE_SHARED_PADDING, 32-byte aligned; find this
    //                warp's tile.
    // TODO(student): step 2, write the copy of one phase into one stage as in lab 08 (16 bytes where the row
    //                allows it, else 4), zero-filling what lies outside M or N.
    // TODO(student): step 3, declare the warp's accumulator fragments and fill them with zeros, once.
    // TODO(student): step 4, for each phase: wait for its copies, wait for the other warps, start the next
    //                phase's copy; then, for each step of 8 along k, load the warp's fragments of both tiles, round
    //                every element to TF32, and mma_sync every pair into its accumulator.
    // TODO(student): step 5, store the accumulators: straight into P where the fragment lies inside it and P's
    //                rows allow it, else through shared memory, writing only the elements inside P.
}

/// Launches matmul_tensor_core_kernel: TENSOR_CORE_THREADS threads per block, one block per
/// TENSOR_CORE_BLOCK_TILE × TENSOR_CORE_BLOCK_TILE tile of P, partial tiles included.
void matmul_tensor_core(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TENSOR_CORE_THREADS);
    const dim3 grid(1, 1);  // TODO(student): step 6, one block per tile of P, rounding up.
    matmul_tensor_core_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
