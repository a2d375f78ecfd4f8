// Gate calibration, DISHONEST variant "tiles-reloaded" (lab 03): for every single k, the block reloads the
// phase's (zero-filled) tiles of M and N from global memory and uses only element k of them, so each tile is
// loaded TILE_WIDTH times per phase. Not honestly tiled (no reuse): correct, so only the performance gate can tell.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;

    float sum = 0.0f;
    const int phases = (inner + TILE_WIDTH - 1) / TILE_WIDTH;
    for (int phase = 0; phase < phases; ++phase) {
        const int m_col = phase * TILE_WIDTH + tx;
        const int n_row = phase * TILE_WIDTH + ty;
        for (int k = 0; k < TILE_WIDTH; ++k) {
            M_tile[ty][tx] = (row < rows && m_col < inner) ? M[row * inner + m_col] : 0.0f;
            N_tile[ty][tx] = (n_row < inner && col < cols) ? N[n_row * cols + col] : 0.0f;
            __syncthreads();  // the freshly reloaded tiles are complete before element k is read

            sum += M_tile[ty][k] * N_tile[k][tx];
            __syncthreads();  // every thread has read element k before the tiles are reloaded
        }
    }
    if (row < rows && col < cols) P[row * cols + col] = sum;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
