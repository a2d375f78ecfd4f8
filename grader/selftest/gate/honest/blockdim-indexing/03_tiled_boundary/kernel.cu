// Gate calibration, honest variant "blockdim-indexing" (lab 03): the tiled kernel for any shape with every
// index computed from blockDim.x / blockDim.y rather than TILE_WIDTH (tiles still TILE_WIDTH x TILE_WIDTH,
// partial tiles zero-filled). Honestly tiled: one global read per element per phase, reused from shared memory.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float tileM[TILE_WIDTH][TILE_WIDTH];
    __shared__ float tileN[TILE_WIDTH][TILE_WIDTH];

    const int bw = blockDim.x;  // tile width along k and along the columns of P
    const int bh = blockDim.y;  // tile height along the rows of P
    const int row = blockIdx.y * bh + threadIdx.y;
    const int col = blockIdx.x * bw + threadIdx.x;

    float result = 0.0f;
    const int phases = (inner + bw - 1) / bw;
    for (int t = 0; t < phases; ++t) {
        const int mk = t * bw + threadIdx.x;  // column of M this thread loads
        const int nk = t * bh + threadIdx.y;  // row of N this thread loads
        tileM[threadIdx.y][threadIdx.x] = (row < rows && mk < inner) ? M[row * inner + mk] : 0.0f;
        tileN[threadIdx.y][threadIdx.x] = (nk < inner && col < cols) ? N[nk * cols + col] : 0.0f;
        __syncthreads();  // all threads' loads must be in shared memory before the tiles are used

        for (int k = 0; k < bw; ++k) result += tileM[threadIdx.y][k] * tileN[k][threadIdx.x];
        __syncthreads();  // everyone must be done with this phase's tiles before they are refilled
    }
    if (row < rows && col < cols) P[row * cols + col] = result;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
