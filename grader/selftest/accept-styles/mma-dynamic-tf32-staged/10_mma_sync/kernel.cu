// Style: four stages (64 KB) in dynamic shared memory with the cudaFuncSetAttribute opt-in, the handout's XOR swizzle, each thread rounding its own landed chunks to TF32 in shared memory before the barrier (convert-while-staging), and A loaded by two ldmatrix_x2 per fragment (CUTLASS multistage mainloop; the Programming Guide's >48 KB opt-in).
/// @file labs/10_mma_sync/kernel.cu
/// @brief Lab 10: tensor cores through mma.sync (m16n8k8, TF32 inputs, FP32 accumulators), called through the kit's
/// wrappers in tilelab/mma.hpp. The handout is README.md here.
#include <tilelab/labs.hpp>
#include <tilelab/mma.hpp>

#include <cuda_pipeline.h>

namespace {
// The tuning knobs (the handout's last step). Four stages do not fit in 48 KB of static shared memory, so they live
// in dynamic shared memory (the handout's lab 08 route for more stages), opted in by the launcher.
constexpr int kWarpRows = 64;  // rows of P per warp
constexpr int kWarpCols = 64;  // columns of P per warp
constexpr int kStages = 4;     // shared-memory stages: the phase being multiplied and those being copied
static_assert((MMA_SYNC_BLOCK_TILE / kWarpRows) * (MMA_SYNC_BLOCK_TILE / kWarpCols) == MMA_SYNC_THREADS / 32,
              "one warp tile per warp covers the block tile");
static_assert(kWarpRows % 16 == 0 && kWarpCols % 8 == 0, "a warp tile is whole 16 x 8 products");

constexpr int kTile = MMA_SYNC_BLOCK_TILE, kDepth = MMA_SYNC_PHASE_DEPTH, kThreads = MMA_SYNC_THREADS;
constexpr int kTileFloats = kTile * kDepth;        // 2048 floats per tile
constexpr int kStageFloats = 2 * kTileFloats;      // M's tile then N's tile
constexpr int kSharedBytes = kStages * kStageFloats * static_cast<int>(sizeof(float));  // 65536
constexpr int kMi = kWarpRows / 16, kNj = kWarpCols / 8;
constexpr int kPerThread = kTileFloats / 4 / kThreads;  // chunks of each tile a thread copies per phase: 4
static_assert(kDepth == 16, "M's swizzle permutes a row's four chunks");

// Offsets (floats) into the dynamic buffer, chunks swizzled as the handout says.
__device__ __forceinline__ int m_off(int s, int r, int chunk) {
    return s * kStageFloats + r * kDepth + 4 * (chunk ^ ((r >> 1) & 3));
}
__device__ __forceinline__ int n_off(int s, int k, int chunk) {
    return s * kStageFloats + kTileFloats + k * kTile + 4 * (chunk ^ ((k & 3) << 1));
}
}  // namespace

/// Computes one MMA_SYNC_BLOCK_TILE × MMA_SYNC_BLOCK_TILE tile of P with MMA_SYNC_THREADS threads (four warps): each
/// warp a kWarpRows × kWarpCols warp tile, held as (kWarpRows / 16) × (kWarpCols / 8) accumulators of four floats per
/// lane and multiplied with tilelab::mma_m16n8k8_tf32 from TF32 fragments loaded from tiles that
/// __pipeline_memcpy_async stages in shared memory, kStages phases at a time; any rows, inner and cols.
__global__ void matmul_mma_sync_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    extern __shared__ __align__(16) float smem[];

    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int g = lane >> 2, t = lane & 3;
    const int tile_row = blockIdx.y * kTile, tile_col = blockIdx.x * kTile;
    const int warp_row = (warp / (kTile / kWarpCols)) * kWarpRows;
    const int warp_col = (warp % (kTile / kWarpCols)) * kWarpCols;

    // This thread's chunks, the same every phase: M's chunk (row, chunk) and N's (k, chunk).
    auto m_chunk_of = [&](int i, int& r, int& c) { const int q = i * kThreads + tid; r = q / 4; c = q % 4; };
    auto n_chunk_of = [&](int i, int& k, int& c) { const int q = i * kThreads + tid; k = q / (kTile / 4); c = q % (kTile / 4); };

    auto copy_stage = [&](int s, int phase) {
        for (int i = 0; i < kPerThread; ++i) {
            int r, c;
            m_chunk_of(i, r, c);
            const int gr = tile_row + r, gk = phase + 4 * c;
            float* dst = &smem[m_off(s, r, c)];
            if (inner % 4 == 0 && gr < rows && gk < inner) {
                __pipeline_memcpy_async(dst, M + (long long)gr * inner + gk, 16);
            } else {
                for (int e = 0; e < 4; ++e) {
                    const bool ok = gr < rows && gk + e < inner;
                    __pipeline_memcpy_async(dst + e, ok ? M + (long long)gr * inner + gk + e : M, 4, ok ? 0 : 4);
                }
            }
        }
        for (int i = 0; i < kPerThread; ++i) {
            int k, c;
            n_chunk_of(i, k, c);
            const int gk = phase + k, gc = tile_col + 4 * c;
            float* dst = &smem[n_off(s, k, c)];
            if (cols % 4 == 0 && gk < inner && gc < cols) {
                __pipeline_memcpy_async(dst, N + (long long)gk * cols + gc, 16);
            } else {
                for (int e = 0; e < 4; ++e) {
                    const bool ok = gk < inner && gc + e < cols;
                    __pipeline_memcpy_async(dst + e, ok ? N + (long long)gk * cols + gc + e : N, 4, ok ? 0 : 4);
                }
            }
        }
    };

    // Rounds this thread's own landed chunks of stage s to TF32 in place (they are its writes: no other thread
    // touches them before the barrier that follows).
    auto round_stage = [&](int s) {
        for (int i = 0; i < kPerThread; ++i) {
            int r, c;
            m_chunk_of(i, r, c);
            const int o = m_off(s, r, c);
            for (int e = 0; e < 4; ++e) smem[o + e] = tilelab::to_tf32(smem[o + e]);
        }
        for (int i = 0; i < kPerThread; ++i) {
            int k, c;
            n_chunk_of(i, k, c);
            const int o = n_off(s, k, c);
            for (int e = 0; e < 4; ++e) smem[o + e] = tilelab::to_tf32(smem[o + e]);
        }
    };

    float acc[kMi][kNj][4] = {};
    const int phases = (inner + kDepth - 1) / kDepth;
    for (int s = 0; s < kStages - 1; ++s) {
        if (s < phases) copy_stage(s, s * kDepth);
        __pipeline_commit();
    }

    const int a_row = lane & 15, a_swz = (a_row >> 1) & 3;  // ldmatrix_x2: lanes 0-15 give rows 0-15
    for (int p = 0; p < phases; ++p) {
        const int s = p % kStages;
        __pipeline_wait_prior(kStages - 2);
        round_stage(s);
        __syncthreads();
        const int ahead = p + kStages - 1;
        if (ahead < phases) copy_stage(ahead % kStages, ahead * kDepth);
        __pipeline_commit();

#pragma unroll
        for (int k = 0; k < kDepth; k += 8) {
            float a[kMi][4], b[kNj][2];
#pragma unroll
            for (int i = 0; i < kMi; ++i) {
                const int r = warp_row + 16 * i + a_row;
                float lo[2], hi[2];
                tilelab::ldmatrix_x2(lo, &smem[s * kStageFloats + r * kDepth + 4 * ((k / 4) ^ a_swz)]);      // k..k+3
                tilelab::ldmatrix_x2(hi, &smem[s * kStageFloats + r * kDepth + 4 * ((k / 4 + 1) ^ a_swz)]);  // k+4..k+7
                a[i][0] = lo[0];  // A(g, t)
                a[i][1] = lo[1];  // A(g + 8, t)
                a[i][2] = hi[0];  // A(g, t + 4)
                a[i][3] = hi[1];  // A(g + 8, t + 4)
            }
#pragma unroll
            for (int j = 0; j < kNj; ++j) {
                const int c = warp_col + 8 * j + g;  // column of N_tile, its chunk c / 4 swizzled by row k + t
                const int col = 4 * ((c >> 2) ^ (t << 1)) + (c & 3);
                b[j][0] = smem[s * kStageFloats + kTileFloats + (k + t) * kTile + col];
                b[j][1] = smem[s * kStageFloats + kTileFloats + (k + t + 4) * kTile + col];
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
        for (int h = 0; h < 2; ++h) {
            const int row = tile_row + warp_row + 16 * i + g + 8 * h;
            if (row >= rows) continue;
#pragma unroll
            for (int j = 0; j < kNj; ++j) {
                const int col = tile_col + warp_col + 8 * j + 2 * t;
                if (col < cols) P[(long long)row * cols + col] = acc[i][j][2 * h];
                if (col + 1 < cols) P[(long long)row * cols + col + 1] = acc[i][j][2 * h + 1];
            }
        }
}

/// Launches matmul_mma_sync_kernel: MMA_SYNC_THREADS threads per block, one block per MMA_SYNC_BLOCK_TILE ×
/// MMA_SYNC_BLOCK_TILE tile of P, partial tiles included.
void matmul_mma_sync(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(MMA_SYNC_THREADS);
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    cudaFuncSetAttribute(matmul_mma_sync_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes);
    matmul_mma_sync_kernel<<<grid, block, kSharedBytes>>>(M, N, P, rows, inner, cols);
}
