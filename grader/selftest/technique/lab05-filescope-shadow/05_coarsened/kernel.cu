/// Red-team decoy (round 4): lab 05 without thread coarsening's reuse. The operands are staged in function-scope
/// __shared__ tiles (the probe's hook), each thread copies two tile words another thread stored into FILE-SCOPE
/// __shared__ arrays (legal CUDA; the CPU rewrite leaves them as `static thread_local`, unchecked and unprobed),
/// and every multiply-add reads both operands from those copies: no value is reused from a register.
#include <tilelab/labs.hpp>

namespace {
constexpr int kTile = COARSENED_BLOCK_TILE;
constexpr int kDepth = COARSENED_PHASE_DEPTH;
constexpr int kOutputs = COARSENED_OUTPUTS;
constexpr int kThreads = COARSENED_THREADS;
}  // namespace

__shared__ float M_copy[kTile * kDepth];
__shared__ float N_copy[kDepth * kTile];

__global__ void __launch_bounds__(COARSENED_THREADS)
    matmul_coarsened_kernel(const float* __restrict__ M, const float* __restrict__ N, float* __restrict__ P,
                            int rows, int inner, int cols) {
    __shared__ float M_tile[kTile * kDepth];
    __shared__ float N_tile[kDepth * kTile];

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
        M_tile[t] = (m_r < rows && m_k < inner) ? M[m_r * inner + m_k] : 0.0f;
        N_tile[t] = (n_k < inner && n_c < cols) ? N[n_k * cols + n_c] : 0.0f;
        __syncthreads();
        // Two neighbours' words each, into the unprobed copies (4 counted reads per thread per phase).
        for (int d = 1; d <= 2; ++d) {
            const int e = (t + d) % kThreads;
            M_copy[e] = M_tile[e];
            N_copy[e] = N_tile[e];
        }
        __syncthreads();
        for (int k = 0; k < kDepth; ++k)
            for (int i = 0; i < kOutputs; ++i)
                sums[i] += M_copy[(out_row + i) * kDepth + k] * N_copy[k * kTile + out_col];  // no reuse
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
