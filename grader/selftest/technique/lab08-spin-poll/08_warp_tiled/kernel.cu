// red5 attack spin-while-copying: one stage, copies waited for before every multiply-add; the thread polls a shared flag while they fly
#include <tilelab/labs.hpp>

#include <cuda_pipeline.h>

namespace {
constexpr int kWarpRows = 32;
constexpr int kWarpCols = 64;
constexpr int kStages = 1;
constexpr int kTile = WARP_TILED_BLOCK_TILE;
constexpr int kDepth = WARP_TILED_PHASE_DEPTH;
constexpr int kMicro = WARP_TILED_MICRO_TILE;
constexpr int kThreads = WARP_TILED_THREADS;
constexpr int kMicroPerRow = kTile / kMicro;
constexpr int kLoads = kTile * kDepth / kThreads;
#ifndef SPIN
#define SPIN 256
#endif
}  // namespace

__global__ void matmul_warp_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ __align__(16) float M_tile[kTile][kDepth];
    __shared__ __align__(16) float N_tile[kDepth][kTile];
    __shared__ int ready;
    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * kTile;
    const int tile_col = blockIdx.x * kTile;
    const int micro_row = (t / kMicroPerRow) * kMicro;
    const int micro_col = (t % kMicroPerRow) * kMicro;
    if (t == 0) ready = 1;
    __syncthreads();
    float sums[kMicro][kMicro] = {};
    for (int phase = 0; phase < inner; phase += kDepth) {
        for (int load = 0; load < kLoads; ++load) {
            const int e = load * kThreads + t;
            const int m_row = e / kDepth, m_col = e % kDepth;
            const int m_r = tile_row + m_row, m_k = phase + m_col;
            const bool m_in = m_r < rows && m_k < inner;
            __pipeline_memcpy_async(&M_tile[m_row][m_col], m_in ? M + m_r * inner + m_k : M, 4, m_in ? 0 : 4);
            const int n_row = e / kTile, n_col = e % kTile;
            const int n_k = phase + n_row, n_c = tile_col + n_col;
            const bool n_in = n_k < inner && n_c < cols;
            __pipeline_memcpy_async(&N_tile[n_row][n_col], n_in ? N + n_k * cols + n_c : N, 4, n_in ? 0 : 4);
        }
        __pipeline_commit();
        // "wait" for the copies by polling a flag (nothing is multiplied meanwhile)
        int polls = 0;
        for (int s = 0; s < SPIN; ++s) polls += ready;
        __pipeline_wait_prior(0);
        __syncthreads();
        if (polls < 0) sums[0][0] = 0.0f;
        for (int k = 0; k < kDepth; ++k) {
            float m_values[kMicro], n_values[kMicro];
            for (int i = 0; i < kMicro; ++i) m_values[i] = M_tile[micro_row + i][k];
            for (int j = 0; j < kMicro; ++j) n_values[j] = N_tile[k][micro_col + j];
            for (int i = 0; i < kMicro; ++i)
                for (int j = 0; j < kMicro; ++j) sums[i][j] += m_values[i] * n_values[j];
        }
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
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    matmul_warp_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
