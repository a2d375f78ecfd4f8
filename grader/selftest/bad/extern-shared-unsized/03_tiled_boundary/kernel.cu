/// @file grader/selftest/bad/extern-shared-unsized/03_tiled_boundary/kernel.cu
/// @brief Lab 03 with one dynamic shared array carved into two tiles (Kirk & Hwu's "dynamic shared memory" style)
/// whose launcher forgets to size it: no third <<< >>> argument, so the launch gives the kernel no dynamic shared
/// memory. On a GPU the tiles then lie outside the block's shared memory and the kernel faults; the CPU backend must
/// say the same, not run it. The kit's own launch gives the kernel what the launcher gives, none here; the same
/// kernel with the size passed is correct (accept-styles/dynamic-shared/03_tiled_boundary).
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    extern __shared__ float shared[];
    float* M_tile = shared;                           // TILE_WIDTH × TILE_WIDTH, row-major
    float* N_tile = shared + TILE_WIDTH * TILE_WIDTH;  // the next TILE_WIDTH × TILE_WIDTH

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;
    float sum = 0.0f;
    for (int phase = 0; phase < (inner + TILE_WIDTH - 1) / TILE_WIDTH; ++phase) {
        const int m_col = phase * TILE_WIDTH + tx;
        const int n_row = phase * TILE_WIDTH + ty;
        M_tile[ty * TILE_WIDTH + tx] = (row < rows && m_col < inner) ? M[row * inner + m_col] : 0.0f;
        N_tile[ty * TILE_WIDTH + tx] = (n_row < inner && col < cols) ? N[n_row * cols + col] : 0.0f;
        __syncthreads();  // the tiles are complete before any thread reads them
        const float* m_row = &M_tile[ty * TILE_WIDTH];
        for (int k = 0; k < TILE_WIDTH; ++k) sum += m_row[k] * N_tile[k * TILE_WIDTH + tx];
        __syncthreads();  // every thread is done with the tiles before the next phase overwrites them
    }
    if (row < rows && col < cols) P[row * cols + col] = sum;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);  // the tiles' bytes are missing
}
