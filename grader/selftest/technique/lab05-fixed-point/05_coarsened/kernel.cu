/// Red team (a wrong kernel with full points): lab 05's model, but the sums are kept in 64-bit fixed point: each
/// operand is taken as a whole number of 2^-23 (x * 2^23 truncated to an integer) and the products, whole numbers of
/// 2^-46, are added exactly in a long long. The grader's operands are all k * 2^-23 in [-1, 1), so P comes out
/// exact; any other operand (1e-3 * u, 1/3, 1e-9, 300.0) is truncated or overflows: P is wrong.
#include <tilelab/labs.hpp>

namespace {
constexpr int kTile = COARSENED_BLOCK_TILE;    // rows and columns of P per block
constexpr int kDepth = COARSENED_PHASE_DEPTH;  // inner-dimension elements per phase
constexpr int kOutputs = COARSENED_OUTPUTS;    // elements of P per thread, one column of them
constexpr int kThreads = COARSENED_THREADS;
// Each thread loads exactly one element of each tile per phase.
static_assert(kTile * kDepth == kThreads, "one M_tile element per thread");
static_assert(kDepth * kTile == kThreads, "one N_tile element per thread");
}  // namespace

/// Computes a kTile × kTile tile of P; thread t owns column t % kTile of it, rows (t / kTile) * kOutputs onwards.
/// Per phase every thread stages one element of M_tile (kTile × kDepth) and one of N_tile (kDepth × kTile),
/// zero outside M and N, then multiplies: each N_tile value it reads serves all kOutputs sums, which live in
/// registers. Threads whose outputs lie outside P still load and reach both barriers; only the store is tested.
__global__ void __launch_bounds__(COARSENED_THREADS)
    matmul_coarsened_kernel(const float* __restrict__ M, const float* __restrict__ N, float* __restrict__ P,
                            int rows, int inner, int cols) {
    __shared__ float M_tile[kTile][kDepth];
    __shared__ float N_tile[kDepth][kTile];

    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * kTile;
    const int tile_col = blockIdx.x * kTile;
    // This thread's outputs: one column of the tile, kOutputs consecutive rows.
    const int out_col = t % kTile;
    const int out_row = (t / kTile) * kOutputs;
    // The tile elements this thread stages: consecutive threads take consecutive elements of a row (coalesced).
    const int m_row = t / kDepth, m_col = t % kDepth;
    const int n_row = t / kTile, n_col = t % kTile;

    long long sums[kOutputs] = {};
    for (int phase = 0; phase < inner; phase += kDepth) {
        const int m_r = tile_row + m_row, m_k = phase + m_col;
        const int n_k = phase + n_row, n_c = tile_col + n_col;
        M_tile[m_row][m_col] = (m_r < rows && m_k < inner) ? M[m_r * inner + m_k] : 0.0f;
        N_tile[n_row][n_col] = (n_k < inner && n_c < cols) ? N[n_k * cols + n_c] : 0.0f;
        __syncthreads();  // the tiles are complete before any thread reads them

#pragma unroll
        for (int k = 0; k < kDepth; ++k) {
            const long long n_fixed = static_cast<long long>(N_tile[k][out_col] * 8388608.0f);  // read once
#pragma unroll
            for (int i = 0; i < kOutputs; ++i) sums[i] += static_cast<long long>(M_tile[out_row + i][k] * 8388608.0f) * n_fixed;
        }
        __syncthreads();  // every thread is done with the tiles before the next phase overwrites them
    }
#pragma unroll
    for (int i = 0; i < kOutputs; ++i) {
        const int row = tile_row + out_row + i, col = tile_col + out_col;
        if (row < rows && col < cols) P[row * cols + col] = static_cast<float>(static_cast<double>(sums[i]) * 0x1p-46);
    }
}

/// Launches one block of COARSENED_THREADS threads per COARSENED_BLOCK_TILE² tile of P, partial tiles included.
void matmul_coarsened(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(COARSENED_THREADS);
    const dim3 grid((cols + COARSENED_BLOCK_TILE - 1) / COARSENED_BLOCK_TILE,
                    (rows + COARSENED_BLOCK_TILE - 1) / COARSENED_BLOCK_TILE);
    matmul_coarsened_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
