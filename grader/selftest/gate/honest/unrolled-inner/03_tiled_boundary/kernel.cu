// Gate calibration, honest variant "unrolled-inner" (lab 03): the tiled kernel for any shape (partial tiles
// zero-filled) with `#pragma unroll` on the inner product over the tile.
// Honestly tiled: one global read per element per phase, reused TILE_WIDTH times from shared memory.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float sM[TILE_WIDTH][TILE_WIDTH];
    __shared__ float sN[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;

    float value = 0.0f;
    const int phases = (inner + TILE_WIDTH - 1) / TILE_WIDTH;
    for (int p = 0; p < phases; ++p) {
        const int m_col = p * TILE_WIDTH + tx;
        const int n_row = p * TILE_WIDTH + ty;
        sM[ty][tx] = (row < rows && m_col < inner) ? M[row * inner + m_col] : 0.0f;
        sN[ty][tx] = (n_row < inner && col < cols) ? N[n_row * cols + col] : 0.0f;
        __syncthreads();  // the tiles are shared: wait until every thread has stored its element

#pragma unroll
        for (int k = 0; k < TILE_WIDTH; ++k) {
            value += sM[ty][k] * sN[k][tx];
        }
        __syncthreads();  // wait until every thread is done reading before the next phase overwrites the tiles
    }
    if (row < rows && col < cols) P[row * cols + col] = value;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
