// Gate calibration, honest variant "ceil-phases" (lab 02): the tiled kernel with the number of phases computed
// as ceilf(inner / (float)TILE_WIDTH) instead of the integer formula (exact for any inner below 2^24).
// Honestly tiled: one global read per element per phase, reused TILE_WIDTH times from shared memory.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int Row = blockIdx.y * TILE_WIDTH + ty;
    const int Col = blockIdx.x * TILE_WIDTH + tx;

    const int phases = static_cast<int>(ceilf(inner / static_cast<float>(TILE_WIDTH)));
    float Pvalue = 0.0f;
    for (int ph = 0; ph < phases; ++ph) {
        Mds[ty][tx] = M[Row * inner + ph * TILE_WIDTH + tx];
        Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * cols + Col];
        __syncthreads();  // make sure both tiles are complete before computing with them

        for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
        __syncthreads();  // make sure all threads finished with the tiles before loading the next ones
    }
    P[Row * cols + Col] = Pvalue;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);  // exact: sizes are multiples of TILE_WIDTH
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
