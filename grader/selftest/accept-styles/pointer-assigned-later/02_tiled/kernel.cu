/// @file grader/selftest/accept-styles/pointer-assigned-later/02_tiled/kernel.cu
/// @brief Lab 02 with a pointer into a tile declared without a value and assigned later (style: `float* m_row;
/// m_row = M_tile[ty];`): the CPU backend makes such a local a checked pointer (it once refused it), as it must for
/// a copy of P.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;
    float* m_row;
    m_row = M_tile[ty];  // assigned, not initialised
    float sum = 0.0f;
    for (int phase = 0; phase < inner / TILE_WIDTH; ++phase) {
        M_tile[ty][tx] = M[row * inner + phase * TILE_WIDTH + tx];
        N_tile[ty][tx] = N[(phase * TILE_WIDTH + ty) * cols + col];
        __syncthreads();  // the tiles are complete before any thread reads them
        for (int k = 0; k < TILE_WIDTH; ++k) sum += m_row[k] * N_tile[k][tx];
        __syncthreads();  // every thread is done with the tiles before the next phase overwrites them
    }
    P[row * cols + col] = sum;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
