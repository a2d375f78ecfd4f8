/// @file grader/selftest/accept-styles/cg-memcpy-async/08_warp_tiled/kernel.cu
/// @brief Lab 08 with cooperative groups' collective copies, as the CUDA Programming Guide's "Asynchronous Data
/// Copies" section writes them with <cooperative_groups/memcpy_async.h>: `cg::memcpy_async(block, dst, src,
/// bytes)` called by the whole block for each contiguous piece of a tile (a row of M's tile, 64 bytes; a row of N's,
/// 512), `cg::wait(block)` before a stage is read. Double-buffered: at the top of phase p the block waits for phase
/// p's copies (cg::wait also syncs the block, so everyone is done with phase p - 1's stage), issues phase p + 1's
/// copies into that stage, and multiplies phase p while they are in flight. Each thread sums an 8 × 8 grid of
/// outputs 16 apart. Elements outside M or N are stored as zeros (the copies take only what lies inside).
#include <tilelab/labs.hpp>

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

namespace cg = cooperative_groups;

namespace {
constexpr int kTile = WARP_TILED_BLOCK_TILE;
constexpr int kDepth = WARP_TILED_PHASE_DEPTH;
constexpr int kThreads = WARP_TILED_THREADS;
constexpr int kSpread = 16;
constexpr int kPerThread = kTile / kSpread;
static_assert(kSpread * kSpread == kThreads, "one thread per (ty, tx)");
static_assert(2 * kDepth * 2 * kTile * sizeof(float) <= 48 * 1024, "static shared memory");
}  // namespace

__global__ void matmul_warp_tiled_kernel(const float* __restrict__ M, const float* __restrict__ N,
                                         float* __restrict__ P, int rows, int inner, int cols) {
    __shared__ __align__(16) float M_tile[2][kTile][kDepth];
    __shared__ __align__(16) float N_tile[2][kDepth][kTile];

    cg::thread_block block = cg::this_thread_block();
    const int tid = static_cast<int>(block.thread_rank());
    const int tx = tid % kSpread, ty = tid / kSpread;
    const int tile_row = blockIdx.y * kTile, tile_col = blockIdx.x * kTile;

    // The block's copies of the phase at @p k0 into stage @p s: one collective copy per row of each tile, of the
    // part that lies inside M or N; every thread stores the zeros of its elements outside.
    auto load_stage = [&](int s, int k0) {
        const int depth = min(kDepth, inner - k0);        // columns of M's rows inside M
        const int width = max(0, min(kTile, cols - tile_col));  // columns of N's rows inside N
        for (int r = 0; r < kTile && tile_row + r < rows; ++r)
            cg::memcpy_async(block, &M_tile[s][r][0], M + static_cast<long long>(tile_row + r) * inner + k0,
                             sizeof(float) * depth);
        for (int k = 0; k < depth; ++k)
            if (width > 0)
                cg::memcpy_async(block, &N_tile[s][k][0], N + static_cast<long long>(k0 + k) * cols + tile_col,
                                 sizeof(float) * width);
        for (int q = tid; q < kTile * kDepth; q += kThreads) {
            const int mr = q / kDepth, mk = q % kDepth;
            if (tile_row + mr >= rows || mk >= depth) M_tile[s][mr][mk] = 0.0f;
            const int nk = q / kTile, nc = q % kTile;
            if (nk >= depth || nc >= width) N_tile[s][nk][nc] = 0.0f;
        }
    };

    float sums[kPerThread][kPerThread] = {};
    const int phases = (inner + kDepth - 1) / kDepth;
    if (phases > 0) load_stage(0, 0);
    for (int p = 0; p < phases; ++p) {
        cg::wait(block);  // phase p has landed for the whole block, and everyone is done with phase p - 1's stage
        if (p + 1 < phases) load_stage((p + 1) % 2, (p + 1) * kDepth);
        const int s = p % 2;
#pragma unroll
        for (int k = 0; k < kDepth; ++k) {
            float b[kPerThread];
#pragma unroll
            for (int j = 0; j < kPerThread; ++j) b[j] = N_tile[s][k][tx + kSpread * j];
#pragma unroll
            for (int i = 0; i < kPerThread; ++i) {
                const float a = M_tile[s][ty + kSpread * i][k];
#pragma unroll
                for (int j = 0; j < kPerThread; ++j) sums[i][j] += a * b[j];
            }
        }
    }

    for (int i = 0; i < kPerThread; ++i) {
        const int row = tile_row + ty + kSpread * i;
        if (row >= rows) break;
        for (int j = 0; j < kPerThread; ++j) {
            const int col = tile_col + tx + kSpread * j;
            if (col < cols) P[static_cast<long long>(row) * cols + col] = sums[i][j];
        }
    }
}

void matmul_warp_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(WARP_TILED_THREADS);
    const dim3 grid((cols + WARP_TILED_BLOCK_TILE - 1) / WARP_TILED_BLOCK_TILE,
                    (rows + WARP_TILED_BLOCK_TILE - 1) / WARP_TILED_BLOCK_TILE);
    matmul_warp_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
