// Red team: no shared tiles at all. Each thread loads its own 8 rows of M and 8 columns of N from global memory
// (no thread uses another's loads: global traffic as the naive kernel's), bouncing each value through a private
// slot of shared memory on the way into registers; then an 8 x 8 outer product per k, as lab 06 does.
#include <tilelab/labs.hpp>

#define THREADS REGISTER_THREADS
#define TILE REGISTER_BLOCK_TILE
#define MICRO REGISTER_MICRO_TILE

__global__ void matmul_register_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float slot[THREADS];
    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * TILE, tile_col = blockIdx.x * TILE;
    const int r0 = tile_row + (t / (TILE / MICRO)) * MICRO, c0 = tile_col + (t % (TILE / MICRO)) * MICRO;
    float sums[MICRO][MICRO] = {};
    for (int k = 0; k < inner; ++k) {
        float m[MICRO], n[MICRO];
        for (int i = 0; i < MICRO; ++i) {
            slot[t] = r0 + i < rows ? M[(r0 + i) * inner + k] : 0.0f;
            m[i] = slot[t];
        }
        for (int j = 0; j < MICRO; ++j) {
            slot[t] = c0 + j < cols ? N[k * cols + c0 + j] : 0.0f;
            n[j] = slot[t];
        }
        for (int i = 0; i < MICRO; ++i)
            for (int j = 0; j < MICRO; ++j) sums[i][j] += m[i] * n[j];
    }
    for (int i = 0; i < MICRO; ++i)
        for (int j = 0; j < MICRO; ++j)
            if (r0 + i < rows && c0 + j < cols) P[(r0 + i) * cols + c0 + j] = sums[i][j];
}

void matmul_register_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(THREADS);
    const dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    matmul_register_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
