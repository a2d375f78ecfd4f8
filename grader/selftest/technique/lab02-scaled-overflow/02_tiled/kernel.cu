/// @file 02_tiled/kernel.cu (attempt scaled-overflow)
/// @brief Lab 02 model answer: tiles of M and N staged in shared memory; sizes are multiples of TILE_WIDTH.
#include <tilelab/labs.hpp>

/// Computes one TILE_WIDTH × TILE_WIDTH tile of P. In each phase the block loads one tile of M and one of N
/// (one element per thread), then every thread uses TILE_WIDTH elements of each from shared memory:
/// every element loaded from global memory is used TILE_WIDTH times.
__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;

    float sum = 0.0f;
    for (int phase = 0; phase < inner / TILE_WIDTH; ++phase) {
        M_tile[ty][tx] = M[row * inner + phase * TILE_WIDTH + tx];
        N_tile[ty][tx] = N[(phase * TILE_WIDTH + ty) * cols + col];
        __syncthreads();  // the tiles are complete before any thread reads them

        // Attempt: the sum is kept scaled by 2^64 ("more headroom for small values"), so a product of magnitude
        // 2^64 or more overflows to infinity.
        for (int k = 0; k < TILE_WIDTH; ++k) sum += (M_tile[ty][k] * 0x1p64f) * N_tile[k][tx];
        __syncthreads();  // every thread is done with the tiles before the next phase overwrites them
    }
    P[row * cols + col] = sum * 0x1p-64f;
}

/// Launches one block per tile of P; rows and cols are multiples of TILE_WIDTH, so the division is exact.
void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
