// Style: every stage in one flat 1-D __shared__ float array indexed by constexpr offset helpers (C-style flat buffers as in many SGEMM blog kernels), with the 128 x 16 warp-tile knob and three stages.
/// @file labs/08_warp_tiled/kernel.cu
/// @brief Lab 08: warp tiles and double buffering with asynchronous copies. The handout is README.md here.
#include <tilelab/labs.hpp>

#include <cuda_pipeline.h>

namespace {
// The tuning knobs (the handout's last step): the shape of the part of P each warp computes, and how many
// phases are in shared memory at once. Their product must cover the block tile with its eight warps.
constexpr int kWarpRows = 128;  // rows of P per warp
constexpr int kWarpCols = 16;   // columns of P per warp
constexpr int kStages = 3;      // shared-memory stages: the phase being multiplied and those being copied

constexpr int kTile = WARP_TILED_BLOCK_TILE;    // 128
constexpr int kDepth = WARP_TILED_PHASE_DEPTH;  // 16
constexpr int kThreads = WARP_TILED_THREADS;    // 256
constexpr int kChunks = kDepth / 4;             // 16-byte chunks in a row of M's tile
constexpr int kGroups = kTile * kDepth / (4 * kThreads);  // chunks of each tile a thread copies per phase
constexpr int kTileFloats = kTile * kDepth;               // floats in one tile of one stage
constexpr int kStageFloats = 2 * kTileFloats;             // M's tile, then N's tile
constexpr int kLaneCols = kWarpCols / 8;                  // lanes across the warp tile

static_assert((kTile / kWarpRows) * (kTile / kWarpCols) == kThreads / 32, "8 warps cover the block tile");
static_assert((kWarpRows / 8) * (kWarpCols / 8) == 32, "32 lanes of 8 x 8 outputs cover the warp tile");
static_assert((kWarpRows / 2) % 16 == 0, "a lane's pieces share one swizzle");
static_assert(kStages >= 2, "two stages at least");
static_assert(kStages * kStageFloats * 4 <= 48 * 1024, "the stages fit in 48 KB of static shared memory");
static_assert(kGroups * 4 * kThreads == kTileFloats, "the chunks divide evenly among the threads");

// Offsets into the flat buffer. M(tile row + r, phase + k): stage s, row r, chunk (k / 4) ^ ((r / 4) % 4), k % 4.
constexpr __device__ int m_at(int s, int r, int chunk) { return s * kStageFloats + r * kDepth + 4 * (chunk ^ ((r >> 2) & 3)); }
// N(phase + k, tile col + c): stage s, row k, column c.
constexpr __device__ int n_at(int s, int k, int c) { return s * kStageFloats + kTileFloats + k * kTile + c; }
}  // namespace

/// Computes one WARP_TILED_BLOCK_TILE × WARP_TILED_BLOCK_TILE tile of P with WARP_TILED_THREADS threads (eight
/// warps): each warp a kWarpRows × kWarpCols warp tile, each lane four 4 × 4 pieces of it; the tiles of the next
/// phases are copied into shared memory with __pipeline_memcpy_async while the current phase is multiplied; any
/// rows, inner and cols.
__global__ void matmul_warp_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ __align__(16) float smem[kStages * kStageFloats];

    const int tid = threadIdx.x;
    const int warp = tid / 32, lane = tid % 32;
    const int tile_row = blockIdx.y * kTile, tile_col = blockIdx.x * kTile;
    const int warp_row = (warp / (kTile / kWarpCols)) * kWarpRows;
    const int warp_col = (warp % (kTile / kWarpCols)) * kWarpCols;
    const int lane_row = lane / kLaneCols, lane_col = lane % kLaneCols;
    const int row0 = warp_row + lane_row * 4;  // first row of the lane's top pieces (bottom ones: + kWarpRows / 2)
    const int col0 = warp_col + lane_col * 4;  // first column of its left pieces (right ones: + kWarpCols / 2)
    const int swz = (row0 >> 2) & 3;           // the same for all 8 of its rows

    auto copy_phase = [&](int s, int phase) {
        for (int g = 0; g < kGroups; ++g) {
            const int q = g * kThreads + tid;
            // M: chunk q is row q / kChunks, chunk q % kChunks.
            const int r = q / kChunks, chunk = q % kChunks;
            const int gr = tile_row + r, gk = phase + chunk * 4;
            float* m_dst = &smem[m_at(s, r, chunk)];
            if (inner % 4 == 0 && gr < rows && gk < inner) {
                __pipeline_memcpy_async(m_dst, M + gr * inner + gk, 16);
            } else {
                for (int i = 0; i < 4; ++i) {
                    const bool in = gr < rows && gk + i < inner;
                    __pipeline_memcpy_async(m_dst + i, in ? M + gr * inner + gk + i : M, 4, in ? 0 : 4);
                }
            }
            // N: chunk q is row q / (kTile / 4), columns 4 * (q % (kTile / 4)) on.
            const int k = q / (kTile / 4), c = 4 * (q % (kTile / 4));
            const int gn = phase + k, gc = tile_col + c;
            float* n_dst = &smem[n_at(s, k, c)];
            if (cols % 4 == 0 && gn < inner && gc < cols) {
                __pipeline_memcpy_async(n_dst, N + gn * cols + gc, 16);
            } else {
                for (int j = 0; j < 4; ++j) {
                    const bool in = gn < inner && gc + j < cols;
                    __pipeline_memcpy_async(n_dst + j, in ? N + gn * cols + gc + j : N, 4, in ? 0 : 4);
                }
            }
        }
    };

    float acc[8][8] = {};
    const int phases = (inner + kDepth - 1) / kDepth;
    for (int s = 0; s < kStages - 1; ++s) {
        if (s < phases) copy_phase(s, s * kDepth);
        __pipeline_commit();
    }

    for (int p = 0; p < phases; ++p) {
        __pipeline_wait_prior(kStages - 2);
        __syncthreads();
        const int ahead = p + kStages - 1;
        if (ahead < phases) copy_phase(ahead % kStages, ahead * kDepth);
        __pipeline_commit();

        const int s = p % kStages;
#pragma unroll
        for (int kc = 0; kc < kChunks; ++kc) {
            float4 a[8];  // the lane's 8 rows, k = 4 kc .. 4 kc + 3
#pragma unroll
            for (int i = 0; i < 8; ++i) {
                const int r = row0 + (i % 4) + (i / 4) * (kWarpRows / 2);
                a[i] = *reinterpret_cast<const float4*>(&smem[s * kStageFloats + r * kDepth + 4 * (kc ^ swz)]);
            }
#pragma unroll
            for (int kk = 0; kk < 4; ++kk) {
                const int k = 4 * kc + kk;
                const float4 b0 = *reinterpret_cast<const float4*>(&smem[n_at(s, k, col0)]);
                const float4 b1 = *reinterpret_cast<const float4*>(&smem[n_at(s, k, col0 + kWarpCols / 2)]);
                const float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
                for (int i = 0; i < 8; ++i) {
                    const float av = kk == 0 ? a[i].x : kk == 1 ? a[i].y : kk == 2 ? a[i].z : a[i].w;
#pragma unroll
                    for (int j = 0; j < 8; ++j) acc[i][j] += av * bv[j];
                }
            }
        }
    }

    // acc[i][j]: row row0 + i % 4 + (i / 4) * kWarpRows / 2, column col0 + j % 4 + (j / 4) * kWarpCols / 2.
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int row = tile_row + row0 + (i % 4) + (i / 4) * (kWarpRows / 2);
        if (row >= rows) continue;
        float* dst = P + row * cols;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int col = tile_col + col0 + h * (kWarpCols / 2);
            if (cols % 4 == 0 && col + 3 < cols) {
                *reinterpret_cast<float4*>(dst + col) =
                    make_float4(acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]);
            } else {
                for (int j = 0; j < 4; ++j)
                    if (col + j < cols) dst[col + j] = acc[i][4 * h + j];
            }
        }
    }
}

/// Launches matmul_warp_tiled_kernel: WARP_TILED_THREADS threads per block, one block per WARP_TILED_BLOCK_TILE ×
/// WARP_TILED_BLOCK_TILE tile of P, partial tiles included.
void matmul_warp_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(WARP_TILED_THREADS);
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    matmul_warp_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
