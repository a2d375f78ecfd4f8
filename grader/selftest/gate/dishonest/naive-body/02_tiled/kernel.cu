// Gate calibration, DISHONEST variant "naive-body" (lab 02): the naive kernel (one dot product straight from
// global memory) with two shared tiles declared and one zero written into each, never read.
// Not tiled at all: correct, so only the performance gate can reject it.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // volatile: the tiles are written but never read, and nvcc would otherwise delete them (and with them
    // the kernel's static shared memory).
    __shared__ volatile float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ volatile float N_tile[TILE_WIDTH][TILE_WIDTH];

    // Each thread touches its own element of each tile, so the tiles exist; nothing ever reads them.
    M_tile[threadIdx.y][threadIdx.x] = 0.0f;
    N_tile[threadIdx.y][threadIdx.x] = 0.0f;

    const int row = blockIdx.y * TILE_WIDTH + threadIdx.y;
    const int col = blockIdx.x * TILE_WIDTH + threadIdx.x;

    float sum = 0.0f;
    for (int k = 0; k < inner; ++k) sum += M[row * inner + k] * N[k * cols + col];
    P[row * cols + col] = sum;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);  // exact: sizes are multiples of TILE_WIDTH
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
