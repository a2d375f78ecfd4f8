// Red team: one shared-memory stage, no double buffering. Each phase's tiles are copied by __pipeline_memcpy_async
// and waited for at once; between the commit and the wait each thread reads one dummy shared word, so every copy
// was "in flight while its thread read shared memory". Nothing overlaps the multiply-adds.
#include <tilelab/labs.hpp>

#include <cuda_pipeline.h>

#define THREADS WARP_TILED_THREADS
#define TILE WARP_TILED_BLOCK_TILE
#define DEPTH WARP_TILED_PHASE_DEPTH
#define MICRO WARP_TILED_MICRO_TILE

__global__ void matmul_warp_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[TILE][DEPTH];
    __shared__ float N_tile[DEPTH][TILE];
    __shared__ float token[THREADS];
    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * TILE, tile_col = blockIdx.x * TILE;
    const int micro_row = (t / (TILE / MICRO)) * MICRO, micro_col = (t % (TILE / MICRO)) * MICRO;
    token[t] = 0.0f;
    float sums[MICRO][MICRO] = {};
    float sink = 0.0f;
    for (int phase = 0; phase < inner; phase += DEPTH) {
        for (int e = t; e < TILE * DEPTH; e += THREADS) {
            const int mr = e / DEPTH, mk = e % DEPTH;
            const bool m_in = tile_row + mr < rows && phase + mk < inner;
            __pipeline_memcpy_async(&M_tile[mr][mk], m_in ? M + (tile_row + mr) * inner + phase + mk : M, 4,
                                    m_in ? 0 : 4);
            const int nk = e / TILE, nc = e % TILE;
            const bool n_in = phase + nk < inner && tile_col + nc < cols;
            __pipeline_memcpy_async(&N_tile[nk][nc], n_in ? N + (phase + nk) * cols + tile_col + nc : N, 4,
                                    n_in ? 0 : 4);
        }
        __pipeline_commit();
        sink += token[t];           // the token read: the copies are now "in flight while the thread reads"
        __pipeline_wait_prior(0);   // ... and waited for at once
        __syncthreads();
        for (int k = 0; k < DEPTH; ++k) {
            float m[MICRO], n[MICRO];
            for (int i = 0; i < MICRO; ++i) m[i] = M_tile[micro_row + i][k];
            for (int j = 0; j < MICRO; ++j) n[j] = N_tile[k][micro_col + j];
            for (int i = 0; i < MICRO; ++i)
                for (int j = 0; j < MICRO; ++j) sums[i][j] += m[i] * n[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < MICRO; ++i)
        for (int j = 0; j < MICRO; ++j) {
            const int r = tile_row + micro_row + i, c = tile_col + micro_col + j;
            if (r < rows && c < cols) P[r * cols + c] = sums[i][j] + sink;
        }
}

void matmul_warp_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(THREADS);
    const dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    matmul_warp_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
