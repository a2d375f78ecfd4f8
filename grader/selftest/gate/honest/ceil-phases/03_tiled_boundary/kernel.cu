// Gate calibration, honest variant "ceil-phases" (lab 03): the tiled kernel for any shape (partial tiles
// zero-filled) with the number of phases computed as ceilf(inner / (float)TILE_WIDTH) (exact below 2^24).
// Honestly tiled: one global read per element per phase, reused TILE_WIDTH times from shared memory.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int Row = blockIdx.y * TILE_WIDTH + ty;
    const int Col = blockIdx.x * TILE_WIDTH + tx;

    const int phases = static_cast<int>(ceilf(inner / static_cast<float>(TILE_WIDTH)));
    float Pvalue = 0.0f;
    for (int ph = 0; ph < phases; ++ph) {
        const int mCol = ph * TILE_WIDTH + tx;
        const int nRow = ph * TILE_WIDTH + ty;
        Mds[ty][tx] = (Row < rows && mCol < inner) ? M[Row * inner + mCol] : 0.0f;
        Nds[ty][tx] = (nRow < inner && Col < cols) ? N[nRow * cols + Col] : 0.0f;
        __syncthreads();  // make sure both tiles are complete before computing with them

        for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
        __syncthreads();  // make sure all threads finished with the tiles before loading the next ones
    }
    if (Row < rows && Col < cols) P[Row * cols + Col] = Pvalue;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
