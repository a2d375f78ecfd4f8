/// @file grader/selftest/accept/02_tiled/kernel.cu
/// @brief A correct lab 02 written unlike the model answer: indices from blockDim instead of TILE_WIDTH, one
/// tile array holding both operands, and one extra phase over tiles of zeros. The grader must accept it.
#include <tilelab/labs.hpp>

/// Same product as the model answer; the extra phase loads zeros (it lies past the inner dimension) and adds
/// nothing, but it still runs both barriers, as every thread of the block does.
__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float tiles[2][TILE_WIDTH][TILE_WIDTH];  // [0]: tile of M, [1]: tile of N

    const int width = blockDim.x;  // equals TILE_WIDTH: the launcher makes square TILE_WIDTH blocks
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;

    float sum = 0.0f;
    const int phases = inner / width + 1;  // one phase more than needed: it must change nothing
    for (int phase = 0; phase < phases; ++phase) {
        const int k = phase * width;
        const bool inside = k < inner;
        tiles[0][threadIdx.y][threadIdx.x] = inside ? M[row * inner + k + threadIdx.x] : 0.0f;
        tiles[1][threadIdx.y][threadIdx.x] = inside ? N[(k + threadIdx.y) * cols + col] : 0.0f;
        __syncthreads();  // both tiles are complete before any thread reads them

        for (int i = 0; i < width; ++i) sum = fmaf(tiles[0][threadIdx.y][i], tiles[1][i][threadIdx.x], sum);
        __syncthreads();  // every thread is done with the tiles before the next phase overwrites them
    }
    P[row * cols + col] = sum;
}

/// One block per tile of P, the grid computed from the block's own dimensions.
void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(cols / block.x, rows / block.y);
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
