/// @file grader/selftest/accept-styles/cooperative-groups/03_tiled_boundary/kernel.cu
/// @brief Lab 03 with its barriers written as cooperative groups (style: the CUDA C++ Programming Guide's
/// cooperative groups chapter): cg::this_thread_block(), block.sync(), block.thread_index().
#include <tilelab/labs.hpp>

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];
    cg::thread_block block = cg::this_thread_block();
    const int tx = block.thread_index().x;
    const int ty = block.thread_index().y;
    const int row = block.group_index().y * TILE_WIDTH + ty;
    const int col = block.group_index().x * TILE_WIDTH + tx;

    float sum = 0.0f;
    for (int phase = 0; phase < (inner + TILE_WIDTH - 1) / TILE_WIDTH; ++phase) {
        const int m_col = phase * TILE_WIDTH + tx;
        const int n_row = phase * TILE_WIDTH + ty;
        M_tile[ty][tx] = (row < rows && m_col < inner) ? M[row * inner + m_col] : 0.0f;
        N_tile[ty][tx] = (n_row < inner && col < cols) ? N[n_row * cols + col] : 0.0f;
        block.sync();  // the tiles are complete before any thread reads them
        for (int k = 0; k < TILE_WIDTH; ++k) sum += M_tile[ty][k] * N_tile[k][tx];
        cg::sync(block);  // every thread is done with the tiles before the next phase overwrites them
    }
    if (row < rows && col < cols) P[row * cols + col] = sum;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
