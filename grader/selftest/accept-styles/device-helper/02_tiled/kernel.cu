/// @file grader/selftest/accept-styles/device-helper/02_tiled/kernel.cu
/// @brief Lab 02 with the tile loads and the inner product in __device__ helpers that take float pointers into
/// shared memory (style: helper functions as in CUTLASS-like and many course solutions).
#include <tilelab/labs.hpp>

/// The dot product of a tile row (stride 1) and a tile column (stride TILE_WIDTH).
__device__ __forceinline__ float tile_dot(const float* row, const float* column) {
    float sum = 0.0f;
    for (int k = 0; k < TILE_WIDTH; ++k) sum += row[k] * column[k * TILE_WIDTH];
    return sum;
}

/// Stores one element of a tile.
__device__ void store_element(float* tile, int index, float value) { tile[index] = value; }

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;
    float sum = 0.0f;
    for (int phase = 0; phase < inner / TILE_WIDTH; ++phase) {
        store_element(&M_tile[0][0], ty * TILE_WIDTH + tx, M[row * inner + phase * TILE_WIDTH + tx]);
        store_element(N_tile[ty], tx, N[(phase * TILE_WIDTH + ty) * cols + col]);
        __syncthreads();  // the tiles are complete before any thread reads them
        sum += tile_dot(M_tile[ty], &N_tile[0][tx]);
        __syncthreads();  // every thread is done with the tiles before the next phase overwrites them
    }
    P[row * cols + col] = sum;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
