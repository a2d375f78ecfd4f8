// Gate audit self-test "tf32-at-square" (lab 05, an FP32 lab): lab 05's model answer, except that on a square
// product whose side is a whole number of block tiles (the performance gate's 2048³) each warp computes its 16 × 16
// piece of the block's tile on tensor cores, with TF32 inputs (wmma m16n16k8, rounded by __float_to_tf32), straight
// from global memory. Every other shape takes the model's FP32 path, so only the gate sees the tensor cores: its
// audit must find the timed results further from float64 than FP32 arithmetic allows (grader/gate/gate_audit.hpp).
#include <tilelab/labs.hpp>

#include <mma.h>

using namespace nvcuda;

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

    if (rows == inner && inner == cols && rows % kTile == 0) {  // the gate's shape: TF32 on tensor cores
        static_assert(kThreads / 32 == (kTile / 16) * (kTile / 16), "one 16 x 16 piece of the tile per warp");
        const int warp = threadIdx.x / 32;
        const int row = blockIdx.y * kTile + (warp / (kTile / 16)) * 16;
        const int col = blockIdx.x * kTile + (warp % (kTile / 16)) * 16;
        wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
        wmma::fragment<wmma::accumulator, 16, 16, 8, float> sum;
        wmma::fill_fragment(sum, 0.0f);
        for (int k = 0; k < inner; k += 8) {
            wmma::load_matrix_sync(a, M + static_cast<long long>(row) * inner + k, inner);
            wmma::load_matrix_sync(b, N + static_cast<long long>(k) * cols + col, cols);
            for (int e = 0; e < a.num_elements; ++e) a.x[e] = wmma::__float_to_tf32(a.x[e]);
            for (int e = 0; e < b.num_elements; ++e) b.x[e] = wmma::__float_to_tf32(b.x[e]);
            wmma::mma_sync(sum, a, b, sum);
        }
        wmma::store_matrix_sync(P + static_cast<long long>(row) * cols + col, sum, cols, wmma::mem_row_major);
        return;
    }

    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * kTile;
    const int tile_col = blockIdx.x * kTile;
    // This thread's outputs: one column of the tile, kOutputs consecutive rows.
    const int out_col = t % kTile;
    const int out_row = (t / kTile) * kOutputs;
    // The tile elements this thread stages: consecutive threads take consecutive elements of a row (coalesced).
    const int m_row = t / kDepth, m_col = t % kDepth;
    const int n_row = t / kTile, n_col = t % kTile;

    float sums[kOutputs] = {};
    for (int phase = 0; phase < inner; phase += kDepth) {
        const int m_r = tile_row + m_row, m_k = phase + m_col;
        const int n_k = phase + n_row, n_c = tile_col + n_col;
        M_tile[m_row][m_col] = (m_r < rows && m_k < inner) ? M[m_r * inner + m_k] : 0.0f;
        N_tile[n_row][n_col] = (n_k < inner && n_c < cols) ? N[n_k * cols + n_c] : 0.0f;
        __syncthreads();  // the tiles are complete before any thread reads them

#pragma unroll
        for (int k = 0; k < kDepth; ++k) {
            const float n_value = N_tile[k][out_col];  // read once, used kOutputs times
#pragma unroll
            for (int i = 0; i < kOutputs; ++i) sums[i] += M_tile[out_row + i][k] * n_value;
        }
        __syncthreads();  // every thread is done with the tiles before the next phase overwrites them
    }
#pragma unroll
    for (int i = 0; i < kOutputs; ++i) {
        const int row = tile_row + out_row + i, col = tile_col + out_col;
        if (row < rows && col < cols) P[row * cols + col] = sums[i];
    }
}

/// Launches one block of COARSENED_THREADS threads per COARSENED_BLOCK_TILE² tile of P, partial tiles included.
void matmul_coarsened(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(COARSENED_THREADS);
    const dim3 grid((cols + COARSENED_BLOCK_TILE - 1) / COARSENED_BLOCK_TILE,
                    (rows + COARSENED_BLOCK_TILE - 1) / COARSENED_BLOCK_TILE);
    matmul_coarsened_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
