// Gate calibration, honest variant "handout-steps" (lab 08): the handout's graded steps 1 to 6 and nothing more:
// 32 x 64 warp tiles, each lane's outputs in four 4 x 4 pieces, M's tile in M's layout with its chunks swizzled,
// 16-byte asynchronous copies where the shape allows (4-byte ones, zero-filled, elsewhere) and the stub's 2 stages:
// each phase waits for its own copies, meets the block at one barrier, starts the next phase's copies and then
// multiplies. No "blocks that need no tests" fast path, no __launch_bounds__. The copies of phase p + 1 are in
// flight while phase p is multiplied, so it passes the pipeline check on both backends. A kernel like this one
// measured 1.046x lab 07's model on an H100 (issue 29): the gate's "not slower" must pass it, where the 1.05x of
// before failed it.
#include <tilelab/labs.hpp>

#include <cuda_pipeline.h>

namespace {
constexpr int kWarpRows = 32;
constexpr int kWarpCols = 64;
constexpr int kStages = 2;

constexpr int kTile = WARP_TILED_BLOCK_TILE;
constexpr int kDepth = WARP_TILED_PHASE_DEPTH;
constexpr int kThreads = WARP_TILED_THREADS;
constexpr int kLaneCols = kWarpCols / 8;              // lanes across a warp tile
constexpr int kGroups = kTile * kDepth / (4 * kThreads);  // groups of four of each tile a thread copies per phase
static_assert((kTile / kWarpRows) * (kTile / kWarpCols) == kThreads / 32, "the warps cover the block tile");
static_assert((kWarpRows / 8) * (kWarpCols / 8) == 32, "the lanes cover the warp tile");
static_assert((kWarpRows / 2) % 16 == 0, "a lane's pieces share the swizzle");
static_assert(kStages >= 2, "at least two stages");
static_assert(kStages * kDepth * 2 * kTile * sizeof(float) <= 48 * 1024, "the stages fit in 48 KB");

__device__ int swizzle(int row, int chunk) { return chunk ^ ((row / 4) % 4); }
}  // namespace

__global__ void matmul_warp_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // Step 1: the stages, and where this warp and lane work.
    __shared__ __align__(16) float M_tile[kStages][kTile][kDepth];
    __shared__ __align__(16) float N_tile[kStages][kDepth][kTile];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int warp_row = (warp / (kTile / kWarpCols)) * kWarpRows;
    const int warp_col = (warp % (kTile / kWarpCols)) * kWarpCols;
    const int lane_row = lane / kLaneCols, lane_col = lane % kLaneCols;
    const int row0 = warp_row + lane_row * 4, col0 = warp_col + lane_col * 4;
    const int tile_row = blockIdx.y * kTile, tile_col = blockIdx.x * kTile;

    // Step 2: one phase into one stage.
    auto copy_phase = [&](int stage, int phase) {
#pragma unroll
        for (int g = 0; g < kGroups; ++g) {
            const int q = g * kThreads + threadIdx.x;
            const int m_row = q / (kDepth / 4), chunk = q % (kDepth / 4);
            const int r = tile_row + m_row, k = phase + chunk * 4;
            float* m_dst = &M_tile[stage][m_row][swizzle(m_row, chunk) * 4];
            if (inner % 4 == 0 && r < rows && k < inner) {
                __pipeline_memcpy_async(m_dst, &M[(long long)r * inner + k], 16);
            } else {
                for (int i = 0; i < 4; ++i) {
                    const bool in = r < rows && k + i < inner;
                    __pipeline_memcpy_async(m_dst + i, in ? &M[(long long)r * inner + k + i] : M, 4, in ? 0 : 4);
                }
            }
            const int n_row = q / (kTile / 4), n_col = (q % (kTile / 4)) * 4;
            const int kn = phase + n_row, c = tile_col + n_col;
            float* n_dst = &N_tile[stage][n_row][n_col];
            if (cols % 4 == 0 && kn < inner && c < cols) {
                __pipeline_memcpy_async(n_dst, &N[(long long)kn * cols + c], 16);
            } else {
                for (int j = 0; j < 4; ++j) {
                    const bool in = kn < inner && c + j < cols;
                    __pipeline_memcpy_async(n_dst + j, in ? &N[(long long)kn * cols + c + j] : N, 4, in ? 0 : 4);
                }
            }
        }
    };

    // Step 3: the prologue.
    const int phases = (inner + kDepth - 1) / kDepth;
    for (int s = 0; s < kStages - 1; ++s) {
        if (s < phases) copy_phase(s, s * kDepth);
        __pipeline_commit();
    }

    // Step 4: per phase, wait, barrier, copy ahead, commit, multiply.
    float acc[8][8] = {};
    for (int p = 0; p < phases; ++p) {
        __pipeline_wait_prior(kStages - 2);
        __syncthreads();
        const int ahead = p + kStages - 1;
        if (ahead < phases) copy_phase(ahead % kStages, ahead * kDepth);
        __pipeline_commit();

        const int stage = p % kStages;
#pragma unroll
        for (int kc = 0; kc < kDepth / 4; ++kc) {
            float4 m4[8];
#pragma unroll
            for (int i = 0; i < 8; ++i) {
                const int r = row0 + (i / 4) * (kWarpRows / 2) + i % 4;
                m4[i] = *reinterpret_cast<const float4*>(&M_tile[stage][r][swizzle(row0, kc) * 4]);
            }
#pragma unroll
            for (int kx = 0; kx < 4; ++kx) {
                const float4 n_lo = *reinterpret_cast<const float4*>(&N_tile[stage][kc * 4 + kx][col0]);
                const float4 n_hi = *reinterpret_cast<const float4*>(&N_tile[stage][kc * 4 + kx][col0 + kWarpCols / 2]);
                const float n[8] = {n_lo.x, n_lo.y, n_lo.z, n_lo.w, n_hi.x, n_hi.y, n_hi.z, n_hi.w};
#pragma unroll
                for (int i = 0; i < 8; ++i) {
                    const float m = kx == 0 ? m4[i].x : kx == 1 ? m4[i].y : kx == 2 ? m4[i].z : m4[i].w;
#pragma unroll
                    for (int j = 0; j < 8; ++j) acc[i][j] += m * n[j];
                }
            }
        }
    }

    // Step 5: the pieces, inside P only.
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int r = tile_row + row0 + (i / 4) * (kWarpRows / 2) + i % 4;
        if (r >= rows) continue;
        for (int half = 0; half < 2; ++half) {
            const int c = tile_col + col0 + half * (kWarpCols / 2);
            const float* v = &acc[i][half * 4];
            if (cols % 4 == 0 && c + 3 < cols) {
                *reinterpret_cast<float4*>(&P[(long long)r * cols + c]) = make_float4(v[0], v[1], v[2], v[3]);
            } else {
                for (int j = 0; j < 4; ++j)
                    if (c + j < cols) P[(long long)r * cols + c + j] = v[j];
            }
        }
    }
}

// Step 6: one block per 128 x 128 tile of P.
void matmul_warp_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(WARP_TILED_THREADS);
    const dim3 grid((cols + WARP_TILED_BLOCK_TILE - 1) / WARP_TILED_BLOCK_TILE,
                    (rows + WARP_TILED_BLOCK_TILE - 1) / WARP_TILED_BLOCK_TILE);
    matmul_warp_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
