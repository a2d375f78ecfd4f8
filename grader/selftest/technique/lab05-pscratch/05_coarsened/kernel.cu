// Red team: no register reuse, no coarsened reads from shared memory. Each thread passes its two staged values
// through its own shared slots once, parks them in two of its own elements of P (global memory), and every
// multiply-add reads both operands back from P, N's value again for every output.
#include <tilelab/labs.hpp>

namespace {
constexpr int kTile = COARSENED_BLOCK_TILE;
constexpr int kDepth = COARSENED_PHASE_DEPTH;
constexpr int kOutputs = COARSENED_OUTPUTS;
}  // namespace

__global__ void matmul_coarsened_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[kTile][kDepth];
    __shared__ float N_tile[kDepth][kTile];
    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * kTile;
    const int tile_col = blockIdx.x * kTile;
    const int out_col = t % kTile;
    const int out_row = (t / kTile) * kOutputs;
    const int m_row = t / kDepth, m_col = t % kDepth;
    const int n_row = t / kTile, n_col = t % kTile;
    const bool whole = tile_row + kTile <= rows && tile_col + kTile <= cols;
    float* park = P + (size_t)tile_row * cols + tile_col;
    // Where thread u parks its M value (row 0 of its outputs) and its N value (row 1).
    auto m_slot = [&](int r, int k) { const int u = r * kDepth + k; return park + (u / kTile) * kOutputs * cols + u % kTile; };
    auto n_slot = [&](int k, int c) { const int u = k * kTile + c; return park + ((u / kTile) * kOutputs + 1) * cols + u % kTile; };
    float sums[kOutputs] = {};
    for (int phase = 0; phase < inner; phase += kDepth) {
        const int m_r = tile_row + m_row, m_k = phase + m_col;
        const int n_k = phase + n_row, n_c = tile_col + n_col;
        M_tile[m_row][m_col] = (m_r < rows && m_k < inner) ? M[m_r * inner + m_k] : 0.0f;
        N_tile[n_row][n_col] = (n_k < inner && n_c < cols) ? N[n_k * cols + n_c] : 0.0f;
        if (whole) {
            *m_slot(m_row, m_col) = M_tile[m_row][m_col];
            *n_slot(n_row, n_col) = N_tile[n_row][n_col];
        }
        __syncthreads();
        for (int k = 0; k < kDepth; ++k)
            for (int i = 0; i < kOutputs; ++i)
                sums[i] += whole ? *m_slot(out_row + i, k) * *n_slot(k, out_col)
                                 : M_tile[out_row + i][k] * N_tile[k][out_col];
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
