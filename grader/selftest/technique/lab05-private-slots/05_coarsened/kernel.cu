// Red team: no shared tiles. Each thread loads its own 8 rows of M and its column of N from global memory (global
// traffic as the naive kernel's), bouncing each value through a private shared slot into registers; then the
// n value serves all 8 sums, as lab 05's does.
#include <tilelab/labs.hpp>

#define THREADS COARSENED_THREADS
#define TILE COARSENED_BLOCK_TILE
#define OUT COARSENED_OUTPUTS

__global__ void matmul_coarsened_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float slot[THREADS];
    const int t = threadIdx.x;
    const int c = blockIdx.x * TILE + t % TILE;
    const int r0 = blockIdx.y * TILE + (t / TILE) * OUT;
    float sums[OUT] = {};
    for (int k = 0; k < inner; ++k) {
        slot[t] = c < cols ? N[k * cols + c] : 0.0f;
        const float n = slot[t];
        for (int i = 0; i < OUT; ++i) {
            slot[t] = r0 + i < rows ? M[(r0 + i) * inner + k] : 0.0f;
            sums[i] += slot[t] * n;
        }
    }
    for (int i = 0; i < OUT; ++i)
        if (r0 + i < rows && c < cols) P[(r0 + i) * cols + c] = sums[i];
}

void matmul_coarsened(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(THREADS);
    const dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    matmul_coarsened_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
