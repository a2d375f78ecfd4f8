// Bad submission: naive code dressed up as lab 02. It declares and touches two full tiles, so it passes the
// shared-memory check, but computes straight from global memory: the performance gate must reject it.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];
    const int row = blockIdx.y * TILE_WIDTH + threadIdx.y;
    const int col = blockIdx.x * TILE_WIDTH + threadIdx.x;
    M_tile[threadIdx.y][threadIdx.x] = 0.0f;
    N_tile[threadIdx.y][threadIdx.x] = 0.0f;
    __syncthreads();  // the zeroed tiles are read below, by other threads
    float sum = M_tile[threadIdx.x][threadIdx.y] + N_tile[threadIdx.x][threadIdx.y];
    for (int k = 0; k < inner; ++k) sum += M[row * inner + k] * N[k * cols + col];
    P[row * cols + col] = sum;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
