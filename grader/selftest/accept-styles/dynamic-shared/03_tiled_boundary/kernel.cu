/// @file grader/selftest/accept-styles/dynamic-shared/03_tiled_boundary/kernel.cu
/// @brief Lab 03 as issue 53 found it refused: its two tiles carved by pointers from one
/// `extern __shared__ float shared[]`, the launcher passing 2 * TILE_WIDTH * TILE_WIDTH * sizeof(float) as the third
/// launch argument (Kirk & Hwu's dynamic shared memory; the CUDA Programming Guide's shared-memory matrix multiply).
/// Zeros load where a tile lies past M or N, so the loop needs no test of its own.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    extern __shared__ float shared[];
    float* M_tile = shared;
    float* N_tile = &shared[TILE_WIDTH * TILE_WIDTH];

    const int row = blockIdx.y * TILE_WIDTH + threadIdx.y;
    const int col = blockIdx.x * TILE_WIDTH + threadIdx.x;
    const int me = threadIdx.y * TILE_WIDTH + threadIdx.x;
    float value = 0.0f;
    const int phases = (inner + TILE_WIDTH - 1) / TILE_WIDTH;
    for (int phase = 0; phase < phases; ++phase) {
        const int m_col = phase * TILE_WIDTH + threadIdx.x, n_row = phase * TILE_WIDTH + threadIdx.y;
        M_tile[me] = row < rows && m_col < inner ? M[row * inner + m_col] : 0.0f;
        N_tile[me] = n_row < inner && col < cols ? N[n_row * cols + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            value += M_tile[threadIdx.y * TILE_WIDTH + k] * N_tile[k * TILE_WIDTH + threadIdx.x];
        __syncthreads();
    }
    if (row < rows && col < cols) P[row * cols + col] = value;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_boundary_kernel<<<grid, block, 2 * TILE_WIDTH * TILE_WIDTH * sizeof(float)>>>(M, N, P, rows, inner,
                                                                                              cols);
}
