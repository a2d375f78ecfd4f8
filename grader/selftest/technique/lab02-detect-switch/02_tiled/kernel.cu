// Red team: naive in every ordinary run; tiled only when a shared-memory round trip changes a value
// (the probe's replacement or the shared-memory check's scaling).
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;
    const float g = M[row * inner + tx];
    M_tile[ty][tx] = g;
    const float back = M_tile[ty][tx];
    const int watched = __syncthreads_or(back != g);
    float sum = 0.0f;
    if (watched) {
        for (int phase = 0; phase < inner / TILE_WIDTH; ++phase) {
            M_tile[ty][tx] = M[row * inner + phase * TILE_WIDTH + tx];
            N_tile[ty][tx] = N[(phase * TILE_WIDTH + ty) * cols + col];
            __syncthreads();
            for (int k = 0; k < TILE_WIDTH; ++k) sum += M_tile[ty][k] * N_tile[k][tx];
            __syncthreads();
        }
    } else {
        for (int k = 0; k < inner; ++k) sum += M[row * inner + k] * N[k * cols + col];
    }
    P[row * cols + col] = sum;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
