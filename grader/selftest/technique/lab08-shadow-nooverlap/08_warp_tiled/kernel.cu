/// Red-team decoy (round 4): lab 08 with no copy running ahead of any multiply-add and no warp tiles. Phase p+1's
/// asynchronous copies are issued, phase p's stage is copied into FILE-SCOPE __shared__ arrays (legal CUDA; the CPU
/// rewrite leaves them `static thread_local`: unprobed), then the thread waits for ALL its copies
/// (__pipeline_wait_prior(0)) before any multiply-add, which all read the unprobed copies.
#include <tilelab/labs.hpp>

#include <cuda_pipeline.h>

namespace {
constexpr int kTile = WARP_TILED_BLOCK_TILE;
constexpr int kDepth = WARP_TILED_PHASE_DEPTH;
constexpr int kMicro = WARP_TILED_MICRO_TILE;
constexpr int kThreads = WARP_TILED_THREADS;
constexpr int kMicroPerRow = kTile / kMicro;
constexpr int kLoads = kTile * kDepth / kThreads;
}  // namespace

__shared__ float M_copy[kTile * kDepth];
__shared__ float N_copy[kDepth * kTile];

__global__ void __launch_bounds__(WARP_TILED_THREADS, 1)
    matmul_warp_tiled_kernel(const float* __restrict__ M, const float* __restrict__ N, float* __restrict__ P,
                             int rows, int inner, int cols) {
    __shared__ __align__(16) float M_tile[2][kTile * kDepth];
    __shared__ __align__(16) float N_tile[2][kDepth * kTile];

    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * kTile;
    const int tile_col = blockIdx.x * kTile;
    const int micro_row = (t / kMicroPerRow) * kMicro;
    const int micro_col = (t % kMicroPerRow) * kMicro;

    auto copy = [&](int s, int phase) {
        for (int load = 0; load < kLoads; ++load) {
            const int e = load * kThreads + t;
            const int m_row = e / kDepth, m_col = e % kDepth;
            const int m_r = tile_row + m_row, m_k = phase + m_col;
            const bool m_in = m_r < rows && m_k < inner;
            __pipeline_memcpy_async(&M_tile[s][e], m_in ? M + m_r * inner + m_k : M, sizeof(float),
                                    m_in ? 0 : sizeof(float));
            const int n_row = e / kTile, n_col = e % kTile;
            const int n_k = phase + n_row, n_c = tile_col + n_col;
            const bool n_in = n_k < inner && n_c < cols;
            __pipeline_memcpy_async(&N_tile[s][e], n_in ? N + n_k * cols + n_c : N, sizeof(float),
                                    n_in ? 0 : sizeof(float));
        }
    };

    float sums[kMicro][kMicro] = {};
    const int phases = (inner + kDepth - 1) / kDepth;
    copy(0, 0);
    __pipeline_commit();
    for (int p = 0; p < phases; ++p) {
        const int s = p & 1;
        if (p + 1 < phases) copy(s ^ 1, (p + 1) * kDepth);
        __pipeline_commit();
        __pipeline_wait_prior(1);  // phase p has landed
        __syncthreads();
        for (int load = 0; load < kLoads; ++load)
            for (int d = 1; d <= 2; ++d) {
                const int e = load * kThreads + (t + d) % kThreads;  // words another thread's copies landed
                M_copy[e] = M_tile[s][e];
                N_copy[e] = N_tile[s][e];
            }
        __pipeline_wait_prior(0);  // phase p + 1 too: nothing is in flight during the multiply-adds
        __syncthreads();
        for (int k = 0; k < kDepth; ++k)
            for (int i = 0; i < kMicro; ++i)
                for (int j = 0; j < kMicro; ++j)
                    sums[i][j] += M_copy[(micro_row + i) * kDepth + k] * N_copy[k * kTile + micro_col + j];
        __syncthreads();
    }
    for (int i = 0; i < kMicro; ++i) {
        const int row = tile_row + micro_row + i;
        for (int j = 0; j < kMicro; ++j) {
            const int col = tile_col + micro_col + j;
            if (row < rows && col < cols) P[row * cols + col] = sums[i][j];
        }
    }
}

void matmul_warp_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(WARP_TILED_THREADS);
    const dim3 grid((cols + WARP_TILED_BLOCK_TILE - 1) / WARP_TILED_BLOCK_TILE,
                    (rows + WARP_TILED_BLOCK_TILE - 1) / WARP_TILED_BLOCK_TILE);
    matmul_warp_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
