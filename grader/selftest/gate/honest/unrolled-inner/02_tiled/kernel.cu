// Gate calibration, honest variant "unrolled-inner" (lab 02): the tiled kernel with `#pragma unroll` on the
// inner product over the tile, so the compiler flattens the TILE_WIDTH multiply-adds.
// Honestly tiled: one global read per element per phase, reused TILE_WIDTH times from shared memory.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float sM[TILE_WIDTH][TILE_WIDTH];
    __shared__ float sN[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;

    float value = 0.0f;
    for (int p = 0; p < inner / TILE_WIDTH; ++p) {
        sM[ty][tx] = M[row * inner + p * TILE_WIDTH + tx];
        sN[ty][tx] = N[(p * TILE_WIDTH + ty) * cols + col];
        __syncthreads();  // the tiles are shared: wait until every thread has stored its element

#pragma unroll
        for (int k = 0; k < TILE_WIDTH; ++k) {
            value += sM[ty][k] * sN[k][tx];
        }
        __syncthreads();  // wait until every thread is done reading before the next phase overwrites the tiles
    }
    P[row * cols + col] = value;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);  // exact: sizes are multiples of TILE_WIDTH
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
