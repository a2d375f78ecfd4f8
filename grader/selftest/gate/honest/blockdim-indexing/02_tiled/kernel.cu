// Gate calibration, honest variant "blockdim-indexing" (lab 02): the tiled kernel with every index computed
// from blockDim.x / blockDim.y rather than TILE_WIDTH (the tiles are still TILE_WIDTH x TILE_WIDTH, and the
// launcher makes the block exactly that size). Honestly tiled: one global read per element per phase.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float tileM[TILE_WIDTH][TILE_WIDTH];
    __shared__ float tileN[TILE_WIDTH][TILE_WIDTH];

    const int bw = blockDim.x;  // tile width along k and along the columns of P
    const int bh = blockDim.y;  // tile height along the rows of P
    const int row = blockIdx.y * bh + threadIdx.y;
    const int col = blockIdx.x * bw + threadIdx.x;

    float result = 0.0f;
    for (int t = 0; t < inner / bw; ++t) {
        tileM[threadIdx.y][threadIdx.x] = M[row * inner + t * bw + threadIdx.x];
        tileN[threadIdx.y][threadIdx.x] = N[(t * bh + threadIdx.y) * cols + col];
        __syncthreads();  // all threads' loads must be in shared memory before the tiles are used

        for (int k = 0; k < bw; ++k) result += tileM[threadIdx.y][k] * tileN[k][threadIdx.x];
        __syncthreads();  // everyone must be done with this phase's tiles before they are refilled
    }
    P[row * cols + col] = result;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(cols / block.x, rows / block.y);  // exact: sizes are multiples of TILE_WIDTH
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
