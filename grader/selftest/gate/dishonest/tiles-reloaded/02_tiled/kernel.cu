// Gate calibration, DISHONEST variant "tiles-reloaded" (lab 02): for every single k, the block reloads the
// phase's tiles of M and N from global memory and then uses only element k of them, so each tile is loaded
// TILE_WIDTH times per phase. Not honestly tiled (no reuse): correct, so only the performance gate can tell.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;

    float sum = 0.0f;
    for (int phase = 0; phase < inner / TILE_WIDTH; ++phase) {
        const int k0 = phase * TILE_WIDTH;
        for (int k = 0; k < TILE_WIDTH; ++k) {
            M_tile[ty][tx] = M[row * inner + k0 + tx];
            N_tile[ty][tx] = N[(k0 + ty) * cols + col];
            __syncthreads();  // the freshly reloaded tiles are complete before element k is read

            sum += M_tile[ty][k] * N_tile[k][tx];
            __syncthreads();  // every thread has read element k before the tiles are reloaded
        }
    }
    P[row * cols + col] = sum;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);  // exact: sizes are multiples of TILE_WIDTH
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
