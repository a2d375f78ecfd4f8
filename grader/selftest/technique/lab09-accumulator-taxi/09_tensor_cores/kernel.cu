/// Red team: P is computed by scalar FP32 multiply-adds, lab 06 style (each thread an 8 x 8 micro-tile). The tensor
/// cores do multiply the block's real tiles (as many mma_sync as the model answer, on fragments loaded from them),
/// but their accumulators are thrown away. The scalar code's operands reach it through a "taxi": each warp loads a
/// 16 x 16 slice of the tiles into an accumulator fragment with load_matrix_sync and stores it back into a second
/// shared array with store_matrix_sync; the multiply-adds read that copy.
#include <tilelab/labs.hpp>

#include <mma.h>

using namespace nvcuda;

namespace {
constexpr int kTile = TENSOR_CORE_BLOCK_TILE;    // 128
constexpr int kDepth = TENSOR_CORE_PHASE_DEPTH;  // 16
constexpr int kThreads = TENSOR_CORE_THREADS;    // 256
constexpr int kLdM = kDepth + 4;                 // 20
constexpr int kLdN = kTile + 4;                  // 132
constexpr int kFrag = 16, kStep = 8;
constexpr int kWarpRows = 64, kWarpCols = 32;
constexpr int kFragRows = kWarpRows / kFrag, kFragCols = kWarpCols / kFrag;
constexpr int kMicro = 8;

using FragmentM = wmma::fragment<wmma::matrix_a, kFrag, kFrag, kStep, wmma::precision::tf32, wmma::row_major>;
using FragmentN = wmma::fragment<wmma::matrix_b, kFrag, kFrag, kStep, wmma::precision::tf32, wmma::row_major>;
using Accumulator = wmma::fragment<wmma::accumulator, kFrag, kFrag, kStep, float>;
}  // namespace

__global__ void __launch_bounds__(TENSOR_CORE_THREADS)
    matmul_tensor_core_kernel(const float* __restrict__ M, const float* __restrict__ N, float* __restrict__ P,
                              int rows, int inner, int cols) {
    __shared__ __align__(32) float M_tile[kTile][kLdM];
    __shared__ __align__(32) float N_tile[kDepth][kLdN];
    __shared__ __align__(32) float M_copy[kTile][kLdM];
    __shared__ __align__(32) float N_copy[kDepth][kLdN];

    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * kTile;
    const int tile_col = blockIdx.x * kTile;
    const int warp = t / 32;
    const int warp_row = (warp / (kTile / kWarpCols)) * kWarpRows;
    const int warp_col = (warp % (kTile / kWarpCols)) * kWarpCols;
    const int micro_row = (t / 16) * kMicro, micro_col = (t % 16) * kMicro;

    Accumulator discarded[kFragRows][kFragCols];
    for (int i = 0; i < kFragRows; ++i)
        for (int j = 0; j < kFragCols; ++j) wmma::fill_fragment(discarded[i][j], 0.0f);
    float sums[kMicro][kMicro] = {};

    for (int phase = 0; phase < inner; phase += kDepth) {
        for (int e = t; e < kTile * kDepth; e += kThreads) {
            const int r = e / kDepth, k = e % kDepth;
            M_tile[r][k] = (tile_row + r < rows && phase + k < inner) ? M[(tile_row + r) * inner + phase + k] : 0.0f;
            const int kk = e / kTile, c = e % kTile;
            N_tile[kk][c] = (phase + kk < inner && tile_col + c < cols) ? N[(phase + kk) * cols + tile_col + c] : 0.0f;
        }
        __syncthreads();
        // The tensor cores multiply the real tiles; the products go nowhere.
        for (int k = 0; k < kDepth; k += kStep) {
            FragmentM a[kFragRows];
            FragmentN b[kFragCols];
            for (int i = 0; i < kFragRows; ++i) wmma::load_matrix_sync(a[i], &M_tile[warp_row + i * kFrag][k], kLdM);
            for (int j = 0; j < kFragCols; ++j) wmma::load_matrix_sync(b[j], &N_tile[k][warp_col + j * kFrag], kLdN);
            for (int i = 0; i < kFragRows; ++i)
                for (int j = 0; j < kFragCols; ++j) wmma::mma_sync(discarded[i][j], a[i], b[j], discarded[i][j]);
        }
        // The taxi: warp w carries rows 16w.. of M_tile and columns 16w.. of N_tile through an accumulator fragment.
        Accumulator taxi;
        wmma::load_matrix_sync(taxi, &M_tile[warp * kFrag][0], kLdM, wmma::mem_row_major);
        wmma::store_matrix_sync(&M_copy[warp * kFrag][0], taxi, kLdM, wmma::mem_row_major);
        wmma::load_matrix_sync(taxi, &N_tile[0][warp * kFrag], kLdN, wmma::mem_row_major);
        wmma::store_matrix_sync(&N_copy[0][warp * kFrag], taxi, kLdN, wmma::mem_row_major);
        __syncthreads();
        for (int k = 0; k < kDepth; ++k) {
            float m[kMicro], n[kMicro];
            for (int i = 0; i < kMicro; ++i) m[i] = M_copy[micro_row + i][k];
            for (int j = 0; j < kMicro; ++j) n[j] = N_copy[k][micro_col + j];
            for (int i = 0; i < kMicro; ++i)
                for (int j = 0; j < kMicro; ++j) sums[i][j] += m[i] * n[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < kMicro; ++i)
        for (int j = 0; j < kMicro; ++j) {
            const int row = tile_row + micro_row + i, col = tile_col + micro_col + j;
            if (row < rows && col < cols) P[row * cols + col] = sums[i][j];
        }
}

void matmul_tensor_core(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TENSOR_CORE_THREADS);
    const dim3 grid((cols + TENSOR_CORE_BLOCK_TILE - 1) / TENSOR_CORE_BLOCK_TILE,
                    (rows + TENSOR_CORE_BLOCK_TILE - 1) / TENSOR_CORE_BLOCK_TILE);
    matmul_tensor_core_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
