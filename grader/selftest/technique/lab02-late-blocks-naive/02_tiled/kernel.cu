/// @file 02_tiled/kernel.cu (decoy late-blocks-naive)
/// @brief Lab 02's tiled kernel in the grid's first eight blocks only; every later block computes its tile the
/// naive way, from global memory. The technique check's small shapes have four blocks at most, so they see tiles
/// only; the performance gate's shape has thousands, nearly all naive.
#include <tilelab/labs.hpp>

/// One TILE_WIDTH × TILE_WIDTH tile of P: tiled in blocks 0 to 7, naive past them.
__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;
    const bool tiled = blockIdx.y * gridDim.x + blockIdx.x < 8;  // the decoy: uniform per block

    float sum = 0.0f;
    if (tiled) {
        for (int phase = 0; phase < inner / TILE_WIDTH; ++phase) {
            M_tile[ty][tx] = M[row * inner + phase * TILE_WIDTH + tx];
            N_tile[ty][tx] = N[(phase * TILE_WIDTH + ty) * cols + col];
            __syncthreads();  // the tiles are complete before any thread reads them

            for (int k = 0; k < TILE_WIDTH; ++k) sum += M_tile[ty][k] * N_tile[k][tx];
            __syncthreads();  // every thread is done with the tiles before the next phase overwrites them
        }
    } else {
        for (int k = 0; k < inner; ++k) sum += M[row * inner + k] * N[k * cols + col];
    }
    P[row * cols + col] = sum;
}

/// Launches one block per tile of P; rows and cols are multiples of TILE_WIDTH, so the division is exact.
void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
