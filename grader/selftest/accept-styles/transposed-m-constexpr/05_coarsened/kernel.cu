// Style: M's tile stored transposed (k-major, as in siboehm's SGEMM blog kernels 4-5) with constexpr helper functions and #pragma unroll over constexpr bounds.
/// @file labs/05_coarsened/kernel.cu
/// @brief Lab 05: thread coarsening, each thread a column of outputs. The handout is README.md in this folder.
#include <tilelab/labs.hpp>

namespace {
constexpr int kBM = COARSENED_BLOCK_TILE;   // 64 rows (and columns) of P per block
constexpr int kBK = COARSENED_PHASE_DEPTH;  // 8 columns of M per phase
constexpr int kTM = COARSENED_OUTPUTS;      // 8 outputs per thread, down one column

constexpr __host__ __device__ int ceil_div(int a, int b) { return (a + b - 1) / b; }
// Which element of each tile thread t loads (consecutive threads along a row of M, and of N).
constexpr __device__ int m_load_row(int t) { return t / kBK; }
constexpr __device__ int m_load_k(int t) { return t % kBK; }
constexpr __device__ int n_load_k(int t) { return t / kBM; }
constexpr __device__ int n_load_col(int t) { return t % kBM; }
// Which outputs thread t owns: column t mod 64 of the tile, rows 8 * (t / 64) to 8 * (t / 64) + 7.
constexpr __device__ int out_col(int t) { return t % kBM; }
constexpr __device__ int out_row0(int t) { return (t / kBM) * kTM; }

static_assert(kBM * kBK == COARSENED_THREADS && kBK * kBM == COARSENED_THREADS, "one element of each tile a thread");
}  // namespace

/// Computes one COARSENED_BLOCK_TILE × COARSENED_BLOCK_TILE tile of P with COARSENED_THREADS threads (a
/// one-dimensional block): each thread computes COARSENED_OUTPUTS elements of one column of the tile, in registers,
/// from an M_tile (stored transposed here: COARSENED_PHASE_DEPTH × COARSENED_BLOCK_TILE) and an N_tile
/// (COARSENED_PHASE_DEPTH × COARSENED_BLOCK_TILE) staged in shared memory each phase; any rows, inner and cols.
__global__ void matmul_coarsened_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile_T[kBK][kBM];  // M_tile_T[k][r] = M(block row + r, phase + k)
    __shared__ float N_tile[kBK][kBM];    // N_tile[k][c] = N(phase + k, block col + c)
    float sums[kTM] = {};

    const int t = threadIdx.x;
    const int block_row = blockIdx.y * kBM, block_col = blockIdx.x * kBM;
    const int a_row = block_row + m_load_row(t);
    const int b_col = block_col + n_load_col(t);
    const int c = out_col(t), r0 = out_row0(t);

    for (int phase = 0; phase < inner; phase += kBK) {
        const int a_k = phase + m_load_k(t), b_k = phase + n_load_k(t);
        M_tile_T[m_load_k(t)][m_load_row(t)] = (a_row < rows && a_k < inner) ? M[a_row * inner + a_k] : 0.0f;
        N_tile[n_load_k(t)][n_load_col(t)] = (b_k < inner && b_col < cols) ? N[b_k * cols + b_col] : 0.0f;
        __syncthreads();

#pragma unroll
        for (int k = 0; k < kBK; ++k) {
            const float n_value = N_tile[k][c];
#pragma unroll
            for (int i = 0; i < kTM; ++i) sums[i] += M_tile_T[k][r0 + i] * n_value;
        }
        __syncthreads();
    }

    const int col = block_col + c;
#pragma unroll
    for (int i = 0; i < kTM; ++i) {
        const int row = block_row + r0 + i;
        if (row < rows && col < cols) P[row * cols + col] = sums[i];
    }
}

/// Launches matmul_coarsened_kernel: COARSENED_THREADS threads per block, one block per COARSENED_BLOCK_TILE ×
/// COARSENED_BLOCK_TILE tile of P, partial tiles included.
void matmul_coarsened(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(COARSENED_THREADS);
    const dim3 grid(ceil_div(cols, kBM), ceil_div(rows, kBM));
    matmul_coarsened_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
