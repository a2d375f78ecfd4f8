// Style: every accumulator stored through a per-warp shared scratch tile, then copied into P with bounds checks (no direct path), 16 x 128 warp tiles (warps stacked in rows), launched with cudaLaunchKernel and a void* args array (the CUDA Programming Guide's wmma edge handling, and its runtime-launch form).
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
constexpr int kWarpRows = 16;   // rows of P per warp
constexpr int kWarpCols = 128;  // columns of P per warp
static_assert((TENSOR_CORE_BLOCK_TILE / kWarpRows) * (TENSOR_CORE_BLOCK_TILE / kWarpCols) == TENSOR_CORE_THREADS / 32,
              "one warp tile per warp covers the block tile");
static_assert(kWarpRows % 16 == 0 && kWarpCols % 16 == 0, "a warp tile is whole 16 x 16 accumulator fragments");

constexpr int kTile = TENSOR_CORE_BLOCK_TILE;
constexpr int kDepth = TENSOR_CORE_PHASE_DEPTH;
constexpr int kLdM = kDepth + TENSOR_CORE_SHARED_PADDING;  // 20
constexpr int kLdN = kTile + TENSOR_CORE_SHARED_PADDING;   // 132
constexpr int kThreads = TENSOR_CORE_THREADS;
constexpr int kWarps = kThreads / 32;
constexpr int kFragCols = kWarpCols / 16;  // 8 accumulators per warp, one row of them
constexpr int kLdScratch = 16 + 4;

using FragA = wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major>;
using FragB = wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major>;
using FragC = wmma::fragment<wmma::accumulator, 16, 16, 8, float>;

template <class Frag>
__device__ void to_tf32(Frag& f) {
    for (int i = 0; i < f.num_elements; i++) f.x[i] = wmma::__float_to_tf32(f.x[i]);
}

/// One 4-float group: 16 bytes where allowed, else four 4-byte copies, zero-filled outside.
__device__ void copy_group(float* dst, const float* base, long long offset, int valid, bool vec) {
    if (vec && valid >= 4) {
        __pipeline_memcpy_async(dst, base + offset, 16);
        return;
    }
    for (int i = 0; i < 4; i++) {
        const bool in = i < valid;
        __pipeline_memcpy_async(dst + i, in ? base + offset + i : base, sizeof(float), in ? 0 : sizeof(float));
    }
}
}  // namespace

/// Computes one TENSOR_CORE_BLOCK_TILE × TENSOR_CORE_BLOCK_TILE tile of P with TENSOR_CORE_THREADS threads (eight
/// warps): each warp a kWarpRows × kWarpCols warp tile, held in m16n16k8 float accumulator fragments and
/// multiplied on tensor cores from TF32 fragments of tiles that __pipeline_memcpy_async stages in shared memory,
/// double buffered; any rows, inner and cols.
__global__ void __launch_bounds__(TENSOR_CORE_THREADS)
    matmul_tensor_core_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ __align__(32) float M_tile[2][kTile][kLdM];
    __shared__ __align__(32) float N_tile[2][kDepth][kLdN];
    __shared__ __align__(32) float scratch[kWarps][16][kLdScratch];

    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int tile_row = blockIdx.y * kTile, tile_col = blockIdx.x * kTile;
    const int warp_row = (warp / (kTile / kWarpCols)) * kWarpRows;
    const int warp_col = (warp % (kTile / kWarpCols)) * kWarpCols;

    auto load_stage = [&](int s, int phase) {
        for (int q = threadIdx.x; q < kTile * kDepth / 4; q += kThreads) {
            const int mr = q / (kDepth / 4), mc = (q % (kDepth / 4)) * 4;
            const int r = tile_row + mr, k = phase + mc;
            const int m_valid = r < rows ? min(4, inner - k) : 0;
            copy_group(&M_tile[s][mr][mc], M, (long long)r * inner + k, m_valid, inner % 4 == 0);
            const int nr = q / (kTile / 4), nc = (q % (kTile / 4)) * 4;
            const int kk = phase + nr, c = tile_col + nc;
            const int n_valid = kk < inner ? min(4, cols - c) : 0;
            copy_group(&N_tile[s][nr][nc], N, (long long)kk * cols + c, n_valid, cols % 4 == 0);
        }
    };

    FragC acc[kFragCols];
    for (int j = 0; j < kFragCols; j++) wmma::fill_fragment(acc[j], 0.0f);

    const int phases = (inner + kDepth - 1) / kDepth;
    load_stage(0, 0);
    __pipeline_commit();
    for (int p = 0; p < phases; p++) {
        __pipeline_wait_prior(0);
        __syncthreads();
        if (p + 1 < phases) load_stage((p + 1) % 2, (p + 1) * kDepth);
        __pipeline_commit();
        const int s = p % 2;
        for (int k = 0; k < kDepth; k += 8) {
            FragA a;
            wmma::load_matrix_sync(a, &M_tile[s][warp_row][k], kLdM);
            to_tf32(a);
            for (int j = 0; j < kFragCols; j++) {
                FragB b;
                wmma::load_matrix_sync(b, &N_tile[s][k][warp_col + 16 * j], kLdN);
                to_tf32(b);
                wmma::mma_sync(acc[j], a, b, acc[j]);
            }
        }
    }

    // Every fragment goes through this warp's scratch tile: its row-major layout there is known.
    for (int j = 0; j < kFragCols; j++) {
        wmma::store_matrix_sync(&scratch[warp][0][0], acc[j], kLdScratch, wmma::mem_row_major);
        __syncwarp();
        const int r0 = tile_row + warp_row, c0 = tile_col + warp_col + 16 * j;
        for (int e = lane; e < 256; e += 32) {
            const int r = e / 16, c = e % 16;
            if (r0 + r < rows && c0 + c < cols) P[(long long)(r0 + r) * cols + c0 + c] = scratch[warp][r][c];
        }
        __syncwarp();
    }
}

/// Launches matmul_tensor_core_kernel: TENSOR_CORE_THREADS threads per block, one block per
/// TENSOR_CORE_BLOCK_TILE × TENSOR_CORE_BLOCK_TILE tile of P, partial tiles included.
void matmul_tensor_core(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TENSOR_CORE_THREADS);
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    void* args[] = {&M, &N, &P, &rows, &inner, &cols};
    cudaLaunchKernel(reinterpret_cast<const void*>(matmul_tensor_core_kernel), grid, block, args, 0, nullptr);
}
