// Gate calibration, partly tiled variant "global-one-operand" (lab 02): both tiles are loaded each phase and
// M is read from its tile, but N from global memory in the inner product (its tile is never read). Fast enough
// to pass the GPU gate; the CPU backend's shared-memory check, which counts tile reads, rejects it.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    // volatile: this tile is written but never read, and nvcc would otherwise delete it.
    __shared__ volatile float N_tile[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;

    float sum = 0.0f;
    for (int phase = 0; phase < inner / TILE_WIDTH; ++phase) {
        const int k0 = phase * TILE_WIDTH;
        M_tile[ty][tx] = M[row * inner + k0 + tx];
        N_tile[ty][tx] = N[(k0 + ty) * cols + col];
        __syncthreads();  // the tile of M is complete before the threads of the row read it

        for (int k = 0; k < TILE_WIDTH; ++k) sum += M_tile[ty][k] * N[(k0 + k) * cols + col];
        __syncthreads();  // every thread is done with the tile of M before the next phase overwrites it
    }
    P[row * cols + col] = sum;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);  // exact: sizes are multiples of TILE_WIDTH
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
