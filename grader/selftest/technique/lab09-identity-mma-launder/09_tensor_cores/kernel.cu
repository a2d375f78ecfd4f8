// Red team: naive FP32 multiply-adds from global memory. Each warp takes 16 x 8 blocks of the block's strip of M
// (8 x 16 of N's) into a fragment with load_matrix_sync, multiplies it by an identity fragment with mma_sync (so the
// accumulator holds the block itself), stores that and writes it back to global memory in place; then it issues
// mma_sync on zero fragments until it has done as many as the model answer. No multiply-add of P is a tensor-core one.
#include <tilelab/labs.hpp>

#include <mma.h>

using namespace nvcuda;

#define THREADS TENSOR_CORE_THREADS
#define TILE TENSOR_CORE_BLOCK_TILE

using FragA = wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major>;
using FragB = wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major>;
using Acc = wmma::fragment<wmma::accumulator, 16, 16, 8, float>;

__global__ void matmul_tensor_core_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ __align__(32) float a_in[8][16 * 8];    // per warp: a 16 x 8 block (of M, or the identity [I; 0])
    __shared__ __align__(32) float b_in[8][8 * 16];    // per warp: an 8 x 16 block (of N, or the identity [I 0])
    __shared__ __align__(32) float c_out[8][16 * 16];  // per warp: the accumulator
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int tile_row = blockIdx.y * TILE, tile_col = blockIdx.x * TILE;
    float* Mw = const_cast<float*>(M);
    float* Nw = const_cast<float*>(N);
    const int ksteps = (inner + 7) / 8;
    int done = 0;

    // M's strip: 8 row groups of 16, ksteps column groups of 8; block b goes to warp b % 8.
    for (int b = warp; b < 8 * ksteps; b += 8) {
        const int r0 = tile_row + (b / ksteps) * 16, k0 = (b % ksteps) * 8;
        for (int e = lane; e < 128; e += 32) {
            const int r = r0 + e / 8, k = k0 + e % 8;
            a_in[warp][e] = (r < rows && k < inner) ? M[r * inner + k] : 0.0f;
            const int i = e / 16, j = e % 16;  // identity [I 0], 8 x 16
            b_in[warp][e] = i == j ? 1.0f : 0.0f;
        }
        __syncwarp();
        FragA a; FragB id; Acc c;
        wmma::load_matrix_sync(a, &a_in[warp][0], 8);
        wmma::load_matrix_sync(id, &b_in[warp][0], 16);
        for (int t = 0; t < a.num_elements; ++t) a.x[t] = wmma::__float_to_tf32(a.x[t]);
        wmma::fill_fragment(c, 0.0f);
        wmma::mma_sync(c, a, id, c);
        ++done;
        wmma::store_matrix_sync(&c_out[warp][0], c, 16, wmma::mem_row_major);
        __syncwarp();
        for (int e = lane; e < 128; e += 32) {
            const int r = r0 + e / 8, k = k0 + e % 8;
            if (r < rows && k < inner) Mw[r * inner + k] = c_out[warp][(e / 8) * 16 + e % 8];
        }
        __syncwarp();
    }
    // N's strip: ksteps row groups of 8, 8 column groups of 16.
    for (int b = warp; b < 8 * ksteps; b += 8) {
        const int k0 = (b / 8) * 8, c0 = tile_col + (b % 8) * 16;
        for (int e = lane; e < 128; e += 32) {
            const int k = k0 + e / 16, c = c0 + e % 16;
            b_in[warp][e] = (k < inner && c < cols) ? N[k * cols + c] : 0.0f;
            const int i = e / 8, j = e % 8;  // identity [I; 0], 16 x 8
            a_in[warp][e] = i == j ? 1.0f : 0.0f;
        }
        __syncwarp();
        FragA id; FragB bf; Acc c;
        wmma::load_matrix_sync(id, &a_in[warp][0], 8);
        wmma::load_matrix_sync(bf, &b_in[warp][0], 16);
        for (int t = 0; t < bf.num_elements; ++t) bf.x[t] = wmma::__float_to_tf32(bf.x[t]);
        wmma::fill_fragment(c, 0.0f);
        wmma::mma_sync(c, id, bf, c);
        ++done;
        wmma::store_matrix_sync(&c_out[warp][0], c, 16, wmma::mem_row_major);
        __syncwarp();
        for (int e = lane; e < 128; e += 32) {
            const int k = k0 + e / 16, col = c0 + e % 16;
            if (k < inner && col < cols) Nw[k * cols + col] = c_out[warp][(e / 16) * 16 + e % 16];
        }
        __syncwarp();
    }
    // As many mma_sync as the model answer: 8 per warp per step of 8 (its phases of 16 rounded up).
    const int model = 8 * 2 * ((inner + 15) / 16);
    {
        FragA a; FragB b; Acc c;
        wmma::fill_fragment(a, 0.0f);
        wmma::fill_fragment(b, 0.0f);
        wmma::fill_fragment(c, 0.0f);
        for (; done < model; ++done) wmma::mma_sync(c, a, b, c);
    }
    __syncthreads();
    for (int e = threadIdx.x; e < TILE * TILE; e += THREADS) {
        const int r = tile_row + e / TILE, col = tile_col + e % TILE;
        if (r >= rows || col >= cols) continue;
        float sum = 0.0f;
        for (int k = 0; k < inner; ++k) sum += M[r * inner + k] * N[k * cols + col];
        P[r * cols + col] = sum;
    }
}

void matmul_tensor_core(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(THREADS);
    const dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    matmul_tensor_core_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
