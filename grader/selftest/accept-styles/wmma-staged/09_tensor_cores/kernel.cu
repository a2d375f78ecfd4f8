/// @file grader/selftest/accept-styles/wmma-staged/09_tensor_cores/kernel.cu
/// @brief Lab 09 in the CUDA Programming Guide's plain warp-matrix style (no asynchronous copies): tiles loaded by
/// every thread into shared memory, N's tile stored transposed and loaded as a `wmma::col_major` matrix_b,
/// fragment arrays, an explicit `wmma::__float_to_tf32` loop over each fragment's elements, `namespace wmma =
/// nvcuda::wmma;`, #define'd tile sizes, and the accumulators stored through a per-warp scratch with
/// `wmma::mem_col_major` and __syncwarp() before the bounds-checked writes to P.
#include <tilelab/labs.hpp>

#include <mma.h>

namespace wmma = nvcuda::wmma;

#define BM TENSOR_CORE_BLOCK_TILE   // rows of P per block
#define BN TENSOR_CORE_BLOCK_TILE   // columns of P per block
#define BK TENSOR_CORE_PHASE_DEPTH  // inner elements per phase
#define LDS (BK + TENSOR_CORE_SHARED_PADDING)
#define WM 32  // rows of P per warp
#define WN 64  // columns of P per warp
#define WARPS (TENSOR_CORE_THREADS / 32)

__global__ void __launch_bounds__(TENSOR_CORE_THREADS)
    matmul_tensor_core_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ __align__(32) float As[BM][LDS];        // As[r][k] = M(row0 + r, k0 + k)
    __shared__ __align__(32) float Bt[BN][LDS];        // Bt[c][k] = N(k0 + k, col0 + c): N's tile transposed
    __shared__ __align__(32) float Cs[WARPS][16 * 16];  // each warp's scratch for one accumulator

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int wr = (warp / (BN / WN)) * WM, wc = (warp % (BN / WN)) * WN;

    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[WM / 16][WN / 16];
    for (int i = 0; i < WM / 16; i++)
        for (int j = 0; j < WN / 16; j++) wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < inner; k0 += BK) {
        for (int e = tid; e < BM * BK; e += TENSOR_CORE_THREADS) {
            const int r = e / BK, k = e % BK;
            As[r][k] = (row0 + r < rows && k0 + k < inner) ? M[(row0 + r) * inner + k0 + k] : 0.0f;
        }
        for (int e = tid; e < BK * BN; e += TENSOR_CORE_THREADS) {
            const int k = e / BN, c = e % BN;
            Bt[c][k] = (k0 + k < inner && col0 + c < cols) ? N[(k0 + k) * cols + col0 + c] : 0.0f;
        }
        __syncthreads();
        for (int kk = 0; kk < BK; kk += 8) {
            wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a[WM / 16];
            wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b[WN / 16];
            for (int i = 0; i < WM / 16; i++) {
                wmma::load_matrix_sync(a[i], &As[wr + 16 * i][kk], LDS);
                for (int t = 0; t < a[i].num_elements; t++) a[i].x[t] = wmma::__float_to_tf32(a[i].x[t]);
            }
            for (int j = 0; j < WN / 16; j++) {
                wmma::load_matrix_sync(b[j], &Bt[wc + 16 * j][kk], LDS);
                for (int t = 0; t < b[j].num_elements; t++) b[j].x[t] = wmma::__float_to_tf32(b[j].x[t]);
            }
            for (int i = 0; i < WM / 16; i++)
                for (int j = 0; j < WN / 16; j++) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }

    for (int i = 0; i < WM / 16; i++) {
        for (int j = 0; j < WN / 16; j++) {
            wmma::store_matrix_sync(&Cs[warp][0], acc[i][j], 16, wmma::mem_col_major);
            __syncwarp();
            for (int e = lane; e < 16 * 16; e += 32) {
                const int r = row0 + wr + 16 * i + e % 16, c = col0 + wc + 16 * j + e / 16;
                if (r < rows && c < cols) P[r * cols + c] = Cs[warp][e];
            }
            __syncwarp();
        }
    }
}

void matmul_tensor_core(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 grid((cols + BN - 1) / BN, (rows + BM - 1) / BM);
    matmul_tensor_core_kernel<<<grid, TENSOR_CORE_THREADS>>>(M, N, P, rows, inner, cols);
}
