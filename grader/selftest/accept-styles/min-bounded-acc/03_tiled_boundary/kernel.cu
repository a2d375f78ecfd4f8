/// @file grader/selftest/accept-styles/min-bounded-acc/03_tiled_boundary/kernel.cu
/// @brief Lab 03 whose last, partial phase is cut short with min() instead of being multiplied through zeros, the
/// tile loads guarded by ternaries and the sum in a `float acc` register (style: the common course-solution form of
/// the boundary kernel, e.g. "for (k = 0; k < min(TILE, K - t); ++k)").
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float tileM[TILE_WIDTH][TILE_WIDTH];
    __shared__ float tileN[TILE_WIDTH][TILE_WIDTH];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * blockDim.y + ty;
    const int col = blockIdx.x * blockDim.x + tx;

    float acc = 0.0f;
    for (int t = 0; t < inner; t += TILE_WIDTH) {
        // Every element the product below reads is written in this phase: k < depth means t + k < inner.
        tileM[ty][tx] = (row < rows && t + tx < inner) ? M[row * inner + t + tx] : 0.0f;
        tileN[ty][tx] = (t + ty < inner && col < cols) ? N[(t + ty) * cols + col] : 0.0f;
        __syncthreads();
        const int depth = min(TILE_WIDTH, inner - t);
        for (int k = 0; k < depth; ++k) acc += tileM[ty][k] * tileN[k][tx];
        __syncthreads();
    }
    if (row < rows && col < cols) P[row * cols + col] = acc;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(cols / TILE_WIDTH + (cols % TILE_WIDTH != 0 ? 1 : 0),
                    rows / TILE_WIDTH + (rows % TILE_WIDTH != 0 ? 1 : 0));
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
