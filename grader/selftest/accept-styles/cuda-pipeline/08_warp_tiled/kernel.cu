/// @file grader/selftest/accept-styles/cuda-pipeline/08_warp_tiled/kernel.cu
/// @brief Lab 08 with the C++ API of asynchronous copies, as the CUDA Programming Guide's "Asynchronous Data Copies
/// using cuda::pipeline" section and the CUDA Samples' globalToShmemAsyncCopy (USE_CPP_API 1) write it: a
/// thread-scope `cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline()`, one stage per phase
/// (producer_acquire, cuda::memcpy_async of float4 chunks sized `cuda::aligned_size_t<alignof(float4)>`,
/// producer_commit), and for each phase consumer_wait, __syncthreads(), the multiply-adds, consumer_release. Grown
/// to the lab's 128 × 128 block tile, 16-deep phases and 256 threads: each thread sums an 8 × 8 grid of outputs
/// 16 apart, three stages in flight. Where a group of four lies partly outside M or N, or a row's length is not a
/// multiple of 4 (so its groups are not 16-byte aligned), the elements are copied 4 bytes at a time and those
/// outside are stored as zeros (cuda::memcpy_async has no zero fill).
#include <tilelab/labs.hpp>

#include <cuda/pipeline>

namespace {
constexpr int kTile = WARP_TILED_BLOCK_TILE;
constexpr int kDepth = WARP_TILED_PHASE_DEPTH;
constexpr int kThreads = WARP_TILED_THREADS;
constexpr int kSpread = 16;                 // outputs of a thread lie 16 apart
constexpr int kPerThread = kTile / kSpread;  // 8 × 8 outputs per thread
constexpr int kStages = 3;
constexpr int kGroups = kTile * kDepth / (4 * kThreads);  // groups of four of each tile per thread
static_assert(kSpread * kSpread == kThreads, "one thread per (ty, tx)");
static_assert(kGroups * 4 * kThreads == kTile * kDepth, "the tiles divide evenly among the threads");
static_assert(kStages * kDepth * 2 * kTile * sizeof(float) <= 48 * 1024, "static shared memory");
}  // namespace

__global__ void matmul_warp_tiled_kernel(const float* __restrict__ M, const float* __restrict__ N,
                                         float* __restrict__ P, int rows, int inner, int cols) {
    __shared__ __align__(16) float M_tile[kStages][kTile][kDepth];
    __shared__ __align__(16) float N_tile[kStages][kDepth][kTile];

    const int tx = threadIdx.x % kSpread, ty = threadIdx.x / kSpread;
    const int tile_row = blockIdx.y * kTile, tile_col = blockIdx.x * kTile;
    const bool m_vector = inner % 4 == 0, n_vector = cols % 4 == 0;

    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    const auto shape4 = cuda::aligned_size_t<alignof(float4)>(sizeof(float4));

    // This thread's copies of the phase at @p k0 into stage @p s: groups of four floats of a row of each tile.
    auto load_stage = [&](int s, int k0) {
        for (int g = 0; g < kGroups; ++g) {
            const int q = g * kThreads + static_cast<int>(threadIdx.x);
            const int m_row = q / (kDepth / 4), m_k = (q % (kDepth / 4)) * 4;
            const int r = tile_row + m_row, k = k0 + m_k;
            if (m_vector && r < rows && k + 3 < inner) {
                cuda::memcpy_async(&M_tile[s][m_row][m_k], &M[static_cast<long long>(r) * inner + k], shape4, pipe);
            } else {
                for (int e = 0; e < 4; ++e) {
                    if (r < rows && k + e < inner)
                        cuda::memcpy_async(&M_tile[s][m_row][m_k + e], &M[static_cast<long long>(r) * inner + k + e],
                                           sizeof(float), pipe);
                    else
                        M_tile[s][m_row][m_k + e] = 0.0f;
                }
            }
            const int n_k = q / (kTile / 4), n_col = (q % (kTile / 4)) * 4;
            const int kk = k0 + n_k, c = tile_col + n_col;
            if (n_vector && kk < inner && c + 3 < cols) {
                cuda::memcpy_async(&N_tile[s][n_k][n_col], &N[static_cast<long long>(kk) * cols + c], shape4, pipe);
            } else {
                for (int e = 0; e < 4; ++e) {
                    if (kk < inner && c + e < cols)
                        cuda::memcpy_async(&N_tile[s][n_k][n_col + e], &N[static_cast<long long>(kk) * cols + c + e],
                                           sizeof(float), pipe);
                    else
                        N_tile[s][n_k][n_col + e] = 0.0f;
                }
            }
        }
    };

    float sums[kPerThread][kPerThread] = {};
    const int phases = (inner + kDepth - 1) / kDepth;
    // Prologue: kStages - 1 phases in flight (a stage is committed even when empty, so that the count stays regular).
    int fetch = 0;
    for (; fetch < kStages - 1; ++fetch) {
        pipe.producer_acquire();
        if (fetch < phases) load_stage(fetch % kStages, fetch * kDepth);
        pipe.producer_commit();
    }
    for (int p = 0; p < phases; ++p, ++fetch) {
        pipe.consumer_wait();  // this thread's copies of phase p have landed
        __syncthreads();       // everyone's have, and everyone is done with phase p - 1's stage, refilled now
        pipe.producer_acquire();
        if (fetch < phases) load_stage(fetch % kStages, fetch * kDepth);
        pipe.producer_commit();

        const int s = p % kStages;
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
        pipe.consumer_release();
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
