/// @file grader/selftest/accept-styles/dynamic-shared/02_tiled/kernel.cu
/// @brief Lab 02 with its tiles in dynamic shared memory, their size known only at run time: one
/// `extern __shared__ float smem[]` carved by pointers into two blockDim.x × blockDim.x tiles, the bytes passed as
/// the third <<< >>> argument (the CUDA Programming Guide's "extern __shared__" arrays; Kirk & Hwu's tiled kernel
/// with the tile width a run-time value).
#include <tilelab/labs.hpp>

#include <cstddef>

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    extern __shared__ float smem[];
    const int tile = blockDim.x;  // square blocks: the tiles are as wide as the block
    float* Ms = smem;
    float* Ns = smem + tile * tile;

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * tile + ty, col = blockIdx.x * tile + tx;
    float sum = 0.0f;
    for (int k0 = 0; k0 < inner; k0 += tile) {
        Ms[ty * tile + tx] = M[row * inner + k0 + tx];
        Ns[ty * tile + tx] = N[(k0 + ty) * cols + col];
        __syncthreads();
        for (int k = 0; k < tile; ++k) sum += Ms[ty * tile + k] * Ns[k * tile + tx];
        __syncthreads();
    }
    P[row * cols + col] = sum;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);
    const std::size_t bytes = 2 * block.x * block.y * sizeof(float);
    matmul_tiled_kernel<<<grid, block, bytes>>>(M, N, P, rows, inner, cols);
}
