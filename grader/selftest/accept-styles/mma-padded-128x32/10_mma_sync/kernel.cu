// Style: padded (not swizzled) tiles, rows of 20 and 136 floats, two stages, and 128 x 32 warp tiles (each warp all rows of the block tile, a quarter of its columns), A by ldmatrix_x4, B by plain loads, TF32 at the fragment (the padding cure of the handout, as in the "How to write a fast SGEMM with tensor cores" blog posts).
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
constexpr int kWarpRows = 128;  // rows of P per warp
constexpr int kWarpCols = 32;   // columns of P per warp
constexpr int kStages = 2;      // shared-memory stages: the phase being multiplied and those being copied
static_assert((MMA_SYNC_BLOCK_TILE / kWarpRows) * (MMA_SYNC_BLOCK_TILE / kWarpCols) == MMA_SYNC_THREADS / 32,
              "one warp tile per warp covers the block tile");
static_assert(kWarpRows % 16 == 0 && kWarpCols % 8 == 0, "a warp tile is whole 16 x 8 products");

constexpr int kTile = MMA_SYNC_BLOCK_TILE;    // 128
constexpr int kDepth = MMA_SYNC_PHASE_DEPTH;  // 16
constexpr int kThreads = MMA_SYNC_THREADS;    // 128
constexpr int kLdM = kDepth + 4;              // 20 floats: rows r and r + 1 start 80 bytes apart
constexpr int kLdN = kTile + 8;               // 136 floats: rows k and k + 1 start 8 banks apart
constexpr int kMi = kWarpRows / 16;           // 8 A fragments per step
constexpr int kNj = kWarpCols / 8;            // 4 B fragments per step
constexpr int kChunksM = kTile * kDepth / 4 / kThreads;  // 4 chunks of M_tile per thread per phase
constexpr int kChunksN = kDepth * kTile / 4 / kThreads;  // 4 chunks of N_tile
static_assert(kStages * (kTile * kLdM + kDepth * kLdN) * 4 <= 48 * 1024, "padded stages within 48 KB");
static_assert(kLdM % 4 == 0 && kLdN % 4 == 0, "padded rows still start 16-byte aligned");
}  // namespace

/// Computes one MMA_SYNC_BLOCK_TILE × MMA_SYNC_BLOCK_TILE tile of P with MMA_SYNC_THREADS threads (four warps): each
/// warp a kWarpRows × kWarpCols warp tile, held as (kWarpRows / 16) × (kWarpCols / 8) accumulators of four floats per
/// lane and multiplied with tilelab::mma_m16n8k8_tf32 from TF32 fragments loaded from tiles that
/// __pipeline_memcpy_async stages in shared memory, kStages phases at a time; any rows, inner and cols.
__global__ void matmul_mma_sync_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ __align__(16) float M_tile[kStages][kTile][kLdM];   // M(tile row + r, phase + k) at [s][r][k]
    __shared__ __align__(16) float N_tile[kStages][kDepth][kLdN];  // N(phase + k, tile col + c) at [s][k][c]

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int g = lane / 4, t = lane % 4;
    const int tile_row = blockIdx.y * kTile, tile_col = blockIdx.x * kTile;
    const int warp_row = (warp / (kTile / kWarpCols)) * kWarpRows;
    const int warp_col = (warp % (kTile / kWarpCols)) * kWarpCols;

    auto copy_stage = [&](int s, int phase) {
#pragma unroll
        for (int i = 0; i < kChunksM; ++i) {
            const int q = i * kThreads + tid;
            const int r = q / (kDepth / 4), c = (q % (kDepth / 4)) * 4;
            const int gr = tile_row + r, gk = phase + c;
            if (inner % 4 == 0 && gr < rows && gk < inner) {
                __pipeline_memcpy_async(&M_tile[s][r][c], &M[(long long)gr * inner + gk], 16);
            } else {
                for (int e = 0; e < 4; ++e) {
                    const bool ok = gr < rows && gk + e < inner;
                    __pipeline_memcpy_async(&M_tile[s][r][c + e], ok ? &M[(long long)gr * inner + gk + e] : M, 4,
                                            ok ? 0 : 4);
                }
            }
        }
#pragma unroll
        for (int i = 0; i < kChunksN; ++i) {
            const int q = i * kThreads + tid;
            const int k = q / (kTile / 4), c = (q % (kTile / 4)) * 4;
            const int gk = phase + k, gc = tile_col + c;
            if (cols % 4 == 0 && gk < inner && gc < cols) {
                __pipeline_memcpy_async(&N_tile[s][k][c], &N[(long long)gk * cols + gc], 16);
            } else {
                for (int e = 0; e < 4; ++e) {
                    const bool ok = gk < inner && gc + e < cols;
                    __pipeline_memcpy_async(&N_tile[s][k][c + e], ok ? &N[(long long)gk * cols + gc + e] : N, 4,
                                            ok ? 0 : 4);
                }
            }
        }
    };

    float acc[kMi][kNj][4];
#pragma unroll
    for (int i = 0; i < kMi; ++i)
#pragma unroll
        for (int j = 0; j < kNj; ++j)
#pragma unroll
            for (int r = 0; r < 4; ++r) acc[i][j][r] = 0.0f;

    const int phases = (inner + kDepth - 1) / kDepth;
    for (int s = 0; s < kStages - 1; ++s) {
        if (s < phases) copy_stage(s, s * kDepth);
        __pipeline_commit();
    }
    for (int p = 0; p < phases; ++p) {
        __pipeline_wait_prior(kStages - 2);
        __syncthreads();
        if (p + kStages - 1 < phases) copy_stage((p + kStages - 1) % kStages, (p + kStages - 1) * kDepth);
        __pipeline_commit();

        const int s = p % kStages;
#pragma unroll
        for (int k = 0; k < kDepth; k += 8) {
            float a[kMi][4], b[kNj][2];
#pragma unroll
            for (int i = 0; i < kMi; ++i) {
                // lanes 0-15: rows 0-15 at k..k+3 (registers 0 and 1); lanes 16-31: the same rows at k+4..k+7.
                tilelab::ldmatrix_x4(a[i], &M_tile[s][warp_row + 16 * i + (lane % 16)][k + 4 * (lane / 16)]);
#pragma unroll
                for (int r = 0; r < 4; ++r) a[i][r] = tilelab::to_tf32(a[i][r]);
            }
#pragma unroll
            for (int j = 0; j < kNj; ++j) {
                b[j][0] = tilelab::to_tf32(N_tile[s][k + t][warp_col + 8 * j + g]);
                b[j][1] = tilelab::to_tf32(N_tile[s][k + t + 4][warp_col + 8 * j + g]);
            }
#pragma unroll
            for (int i = 0; i < kMi; ++i)
#pragma unroll
                for (int j = 0; j < kNj; ++j) tilelab::mma_m16n8k8_tf32(acc[i][j], a[i], b[j]);
        }
    }

#pragma unroll
    for (int i = 0; i < kMi; ++i)
#pragma unroll
        for (int j = 0; j < kNj; ++j)
#pragma unroll
            for (int r = 0; r < 4; ++r) {
                const int row = tile_row + warp_row + 16 * i + g + 8 * (r / 2);
                const int col = tile_col + warp_col + 8 * j + 2 * t + (r % 2);
                if (row < rows && col < cols) P[(long long)row * cols + col] = acc[i][j][r];
            }
}

/// Launches matmul_mma_sync_kernel: MMA_SYNC_THREADS threads per block, one block per MMA_SYNC_BLOCK_TILE ×
/// MMA_SYNC_BLOCK_TILE tile of P, partial tiles included.
void matmul_mma_sync(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(MMA_SYNC_THREADS);
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    matmul_mma_sync_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
