/// @file 05_coarsened/kernel.cu
/// @brief Lab 05 attempt: no reuse from registers; M's words travel by __reduce_or_sync broadcast.
#include <tilelab/labs.hpp>

namespace {
constexpr int kTile = COARSENED_BLOCK_TILE;
constexpr int kDepth = COARSENED_PHASE_DEPTH;
constexpr int kOutputs = COARSENED_OUTPUTS;
}  // namespace

__device__ float broadcast_from_lane0(float value, int lane) {
    const unsigned bits = lane == 0 ? __float_as_uint(value) : 0u;
    return __uint_as_float(__reduce_or_sync(0xFFFFFFFFu, bits));
}

__global__ void matmul_coarsened_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[kTile][kDepth];
    __shared__ float N_tile[kDepth][kTile];

    const int t = threadIdx.x;
    const int lane = t % 32;
    const int tile_row = blockIdx.y * kTile;
    const int tile_col = blockIdx.x * kTile;
    const int out_col = t % kTile;
    const int out_row = (t / kTile) * kOutputs;
    const int m_row = t / kDepth, m_col = t % kDepth;
    const int n_row = t / kTile, n_col = t % kTile;

    float sums[kOutputs] = {};
    for (int phase = 0; phase < inner; phase += kDepth) {
        const int m_r = tile_row + m_row, m_k = phase + m_col;
        const int n_k = phase + n_row, n_c = tile_col + n_col;
        M_tile[m_row][m_col] = (m_r < rows && m_k < inner) ? M[m_r * inner + m_k] : 0.0f;
        N_tile[n_row][n_col] = (n_k < inner && n_c < cols) ? N[n_k * cols + n_c] : 0.0f;
        __syncthreads();
        for (int k = 0; k < kDepth; ++k) {
            for (int i = 0; i < kOutputs; ++i) {
                // Both operands from shared memory for every multiply-add, as lab 03 does: no register reuse.
                const float m_value = broadcast_from_lane0(lane == 0 ? static_cast<float>(M_tile[out_row + i][k]) : 0.0f, lane);
                sums[i] += m_value * N_tile[k][out_col];
            }
        }
        __syncthreads();
    }
    for (int i = 0; i < kOutputs; ++i) {
        const int row = tile_row + out_row + i, col = tile_col + out_col;
        if (row < rows && col < cols) P[row * cols + col] = sums[i];
    }
}

void matmul_coarsened(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(COARSENED_THREADS);
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    matmul_coarsened_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
