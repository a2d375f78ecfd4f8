/// Red team: lab 05 without register reuse. Each thread's 8 outputs are 8 independent dot products, lab 03 style:
/// both operands of every multiply-add are read from the tiles again (N's value re-read for each output), only
/// 16 bytes at a time (N's tile stored transposed), so a count of shared-memory accesses sees 0.5 per multiply-add.
#include <tilelab/labs.hpp>

namespace {
constexpr int kTile = COARSENED_BLOCK_TILE;
constexpr int kDepth = COARSENED_PHASE_DEPTH;
constexpr int kOutputs = COARSENED_OUTPUTS;
constexpr int kThreads = COARSENED_THREADS;
static_assert(kTile * kDepth == kThreads, "one M_tile element per thread");
}  // namespace

__global__ void __launch_bounds__(COARSENED_THREADS)
    matmul_coarsened_kernel(const float* __restrict__ M, const float* __restrict__ N, float* __restrict__ P,
                            int rows, int inner, int cols) {
    __shared__ __align__(16) float M_tile[kTile][kDepth];
    __shared__ __align__(16) float N_tileT[kTile][kDepth];  // N_tileT[c][k] = N(k, c)

    const int t = threadIdx.x;
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
        N_tileT[n_col][n_row] = (n_k < inner && n_c < cols) ? N[n_k * cols + n_c] : 0.0f;
        __syncthreads();
        for (int i = 0; i < kOutputs; ++i) {
            const float4* a = reinterpret_cast<const float4*>(&M_tile[out_row + i][0]);
            const float4* b = reinterpret_cast<const float4*>(&N_tileT[out_col][0]);
            for (int q = 0; q < kDepth / 4; ++q) {
                const float4 x = a[q];
                const float4 y = b[q];  // read again for every output: no register reuse
                sums[i] += x.x * y.x;
                sums[i] += x.y * y.y;
                sums[i] += x.z * y.z;
                sums[i] += x.w * y.w;
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
    const dim3 grid((cols + COARSENED_BLOCK_TILE - 1) / COARSENED_BLOCK_TILE,
                    (rows + COARSENED_BLOCK_TILE - 1) / COARSENED_BLOCK_TILE);
    matmul_coarsened_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
