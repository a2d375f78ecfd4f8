/// Red-team decoy (round 4): lab 06 without register tiles. Operands staged in function-scope __shared__ tiles (the
/// probe's hook); each thread copies words other threads stored into FILE-SCOPE __shared__ arrays (legal CUDA; the
/// CPU rewrite leaves them `static thread_local`: unchecked, unprobed); every multiply-add reads both operands from
/// those copies, no m_values/n_values outer product.
#include <tilelab/labs.hpp>

namespace {
constexpr int kTile = REGISTER_BLOCK_TILE;
constexpr int kDepth = REGISTER_PHASE_DEPTH;
constexpr int kMicro = REGISTER_MICRO_TILE;
constexpr int kThreads = REGISTER_THREADS;
constexpr int kMicroPerRow = kTile / kMicro;
constexpr int kLoads = kTile * kDepth / kThreads;
}  // namespace

__shared__ float M_copy[kTile * kDepth];
__shared__ float N_copy[kDepth * kTile];

__global__ void __launch_bounds__(REGISTER_THREADS)
    matmul_register_tiled_kernel(const float* __restrict__ M, const float* __restrict__ N, float* __restrict__ P,
                                 int rows, int inner, int cols) {
    __shared__ float M_tile[kTile * kDepth];
    __shared__ float N_tile[kDepth * kTile];

    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * kTile;
    const int tile_col = blockIdx.x * kTile;
    const int micro_row = (t / kMicroPerRow) * kMicro;
    const int micro_col = (t % kMicroPerRow) * kMicro;

    float sums[kMicro][kMicro] = {};
    for (int phase = 0; phase < inner; phase += kDepth) {
        for (int load = 0; load < kLoads; ++load) {
            const int e = load * kThreads + t;
            const int m_row = e / kDepth, m_col = e % kDepth;
            const int m_r = tile_row + m_row, m_k = phase + m_col;
            M_tile[e] = (m_r < rows && m_k < inner) ? M[m_r * inner + m_k] : 0.0f;
            const int n_row = e / kTile, n_col = e % kTile;
            const int n_k = phase + n_row, n_c = tile_col + n_col;
            N_tile[e] = (n_k < inner && n_c < cols) ? N[n_k * cols + n_c] : 0.0f;
        }
        __syncthreads();
        for (int load = 0; load < kLoads; ++load)
            for (int d = 1; d <= 2; ++d) {
                const int e = load * kThreads + (t + d) % kThreads;  // a word another thread stored
                M_copy[e] = M_tile[e];
                N_copy[e] = N_tile[e];
            }
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

void matmul_register_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(REGISTER_THREADS);
    const dim3 grid((cols + REGISTER_BLOCK_TILE - 1) / REGISTER_BLOCK_TILE,
                    (rows + REGISTER_BLOCK_TILE - 1) / REGISTER_BLOCK_TILE);
    matmul_register_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
