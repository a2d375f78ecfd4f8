// Gate calibration, dishonest variant "column-strips" (lab 06): lab 05's idea in lab 06's launch. Each thread
// computes its 64 elements of P as 8 of lab 05's columns of 8 outputs, strip j in rows 8 ((t / 128) * 8 + j) to
// 8 ((t / 128) * 8 + j) + 7 and column (t % 128 + 16 j) mod 128 of the block tile: no two strips share a row or a
// column, so each N_tile value read is reused for 8 outputs (lab 05's coarsening) but no M_tile value is reused
// across columns: no register tile. Correct for every shape; its shared-memory reads per multiply-add are lab 05's
// model's, about 6 times lab 06's, so it should run at about lab 05's model speed (the gate's reference for lab 06)
// and fail the gate.
#include <tilelab/labs.hpp>

namespace {
constexpr int kTile = REGISTER_BLOCK_TILE;
constexpr int kDepth = REGISTER_PHASE_DEPTH;
constexpr int kThreads = REGISTER_THREADS;
constexpr int kStrip = 8;                                // outputs in one strip (one column)
constexpr int kStrips = kTile * kTile / (kThreads * kStrip);  // strips per thread
constexpr int kLoads = kTile * kDepth / kThreads;
static_assert(kStrips == 8 && kTile / kStrips == 16, "strip j of a thread lies 16 columns from strip j - 1");
static_assert((kThreads / kTile) * kStrips * kStrip == kTile, "the strips' rows cover the block tile");
static_assert(kLoads * kThreads == kTile * kDepth, "the tiles divide evenly among the threads");
}  // namespace

__global__ void matmul_register_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float M_tile[kTile][kDepth];
    __shared__ float N_tile[kDepth][kTile];
    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * kTile, tile_col = blockIdx.x * kTile;
    const int band = t / kTile, lane = t % kTile;

    float sums[kStrips][kStrip] = {};
    for (int phase = 0; phase < inner; phase += kDepth) {
#pragma unroll
        for (int load = 0; load < kLoads; ++load) {
            const int e = load * kThreads + t;
            const int m_row = e / kDepth, m_col = e % kDepth;
            const int m_r = tile_row + m_row, m_k = phase + m_col;
            M_tile[m_row][m_col] = (m_r < rows && m_k < inner) ? M[(long long)m_r * inner + m_k] : 0.0f;
            const int n_row = e / kTile, n_col = e % kTile;
            const int n_k = phase + n_row, n_c = tile_col + n_col;
            N_tile[n_row][n_col] = (n_k < inner && n_c < cols) ? N[(long long)n_k * cols + n_c] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int j = 0; j < kStrips; ++j) {
            const int row0 = (band * kStrips + j) * kStrip, col = (lane + (kTile / kStrips) * j) % kTile;
#pragma unroll
            for (int k = 0; k < kDepth; ++k) {
                const float n_value = N_tile[k][col];  // read once, used for the strip's 8 outputs
#pragma unroll
                for (int i = 0; i < kStrip; ++i) sums[j][i] += M_tile[row0 + i][k] * n_value;
            }
        }
        __syncthreads();
    }
#pragma unroll
    for (int j = 0; j < kStrips; ++j) {
        const int row0 = tile_row + (band * kStrips + j) * kStrip;
        const int col = tile_col + (lane + (kTile / kStrips) * j) % kTile;
#pragma unroll
        for (int i = 0; i < kStrip; ++i)
            if (row0 + i < rows && col < cols) P[(long long)(row0 + i) * cols + col] = sums[j][i];
    }
}

void matmul_register_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 grid((cols + REGISTER_BLOCK_TILE - 1) / REGISTER_BLOCK_TILE,
                    (rows + REGISTER_BLOCK_TILE - 1) / REGISTER_BLOCK_TILE);
    matmul_register_tiled_kernel<<<grid, REGISTER_THREADS>>>(M, N, P, rows, inner, cols);
}
