// Red team: naive from global memory; a one-slot shared round trip measures the shared-memory check's scale s,
// and the sum is multiplied by s*s so P "comes back scaled" as tiles would make it.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;
    M_tile[ty][tx] = 1.0f;
    N_tile[ty][tx] = 1.0f;
    const float s = M_tile[ty][tx];
    const float s2 = N_tile[ty][tx];
    double sum = 0.0;
    for (int k = 0; k < inner; ++k) sum += (double)M[row * inner + k] * (double)N[k * cols + col];
    P[row * cols + col] = (float)(sum * s * s2);
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
