/// @file grader/selftest/accept-styles/warp-shuffle/01_naive/kernel.cu
/// @brief Lab 01 with M's values shared across a row of threads by warp shuffles instead of each thread loading
/// them (style: NVIDIA's "Using CUDA Warp-Level Primitives" blog and the register-cache technique): each thread
/// loads one M value per step of TILE_WIDTH and reads the others from its row's lanes with __shfl_sync.
#include <tilelab/labs.hpp>

__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // A block is TILE_WIDTH × TILE_WIDTH threads, x fastest: a row of the block is TILE_WIDTH consecutive lanes of
    // one warp (TILE_WIDTH divides 32), the segment a shuffle of width TILE_WIDTH reads within.
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int k0 = 0; k0 < inner; k0 += TILE_WIDTH) {
        const int k = k0 + threadIdx.x;
        const float m = (row < rows && k < inner) ? M[row * inner + k] : 0.0f;
        // Every lane of the warp reaches every shuffle (the bounds are the same for all), so the full mask holds.
        for (int j = 0; j < TILE_WIDTH && k0 + j < inner; ++j) {
            const float m_j = __shfl_sync(0xffffffffu, m, j, TILE_WIDTH);
            if (col < cols) sum += m_j * N[(k0 + j) * cols + col];
        }
    }
    if (row < rows && col < cols) P[row * cols + col] = sum;
}

void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_naive_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
