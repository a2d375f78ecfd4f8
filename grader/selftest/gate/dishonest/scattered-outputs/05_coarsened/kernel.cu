// Gate calibration, dishonest variant "scattered-outputs" (lab 05): lab 03's idea in lab 05's launch. Each thread
// still computes 8 elements of P, but no two of them share a row or a column (output i of thread t is row
// (t / 64) * 8 + i, column (t % 64 + 8 i) mod 64 of the block tile), so every multiply-add reads both its operands
// from shared memory, as lab 03's one-output threads do: nothing is reused from registers. Correct for every shape;
// its shared-memory reads per multiply-add are lab 03's, so it should run at about lab 03's model speed (the gate's
// reference for lab 05) and fail the gate. (Its tiles are 64 wide where lab 03's are 16: less global traffic, which
// is why its speed needs measuring; scripts/gate-variants.sh does.)
#include <tilelab/labs.hpp>

namespace {
constexpr int kTile = COARSENED_BLOCK_TILE;
constexpr int kDepth = COARSENED_PHASE_DEPTH;
constexpr int kOutputs = COARSENED_OUTPUTS;
constexpr int kThreads = COARSENED_THREADS;
static_assert(kTile * kDepth == kThreads, "one element of each tile per thread");
static_assert((kThreads / kTile) * kOutputs == kTile && kOutputs * kOutputs == kTile, "the outputs cover the tile");
}  // namespace

__global__ void matmul_coarsened_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[kTile][kDepth];
    __shared__ float N_tile[kDepth][kTile];
    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * kTile, tile_col = blockIdx.x * kTile;
    const int group = t / kTile, lane = t % kTile;
    const int m_row = t / kDepth, m_col = t % kDepth;
    const int n_row = t / kTile, n_col = t % kTile;

    float sums[kOutputs] = {};
    for (int phase = 0; phase < inner; phase += kDepth) {
        const int m_r = tile_row + m_row, m_k = phase + m_col;
        const int n_k = phase + n_row, n_c = tile_col + n_col;
        M_tile[m_row][m_col] = (m_r < rows && m_k < inner) ? M[(long long)m_r * inner + m_k] : 0.0f;
        N_tile[n_row][n_col] = (n_k < inner && n_c < cols) ? N[(long long)n_k * cols + n_c] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < kDepth; ++k)
#pragma unroll
            for (int i = 0; i < kOutputs; ++i)
                sums[i] += M_tile[group * kOutputs + i][k] * N_tile[k][(lane + kOutputs * i) % kTile];
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < kOutputs; ++i) {
        const int row = tile_row + group * kOutputs + i, col = tile_col + (lane + kOutputs * i) % kTile;
        if (row < rows && col < cols) P[(long long)row * cols + col] = sums[i];
    }
}

void matmul_coarsened(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 grid((cols + COARSENED_BLOCK_TILE - 1) / COARSENED_BLOCK_TILE,
                    (rows + COARSENED_BLOCK_TILE - 1) / COARSENED_BLOCK_TILE);
    matmul_coarsened_kernel<<<grid, COARSENED_THREADS>>>(M, N, P, rows, inner, cols);
}
