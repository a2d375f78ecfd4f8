/// @file grader/selftest/accept-styles/restrict-ldg-unroll/03_tiled_boundary/kernel.cu
/// @brief Lab 03 with `const float* __restrict__` operands, loads through __ldg, `#pragma unroll` on the inner
/// product and a __launch_bounds__ annotation (style: the CUDA C++ Best Practices Guide's advice on restricted
/// pointers and the read-only data cache, as many course solutions copy it).
#include <tilelab/labs.hpp>

__global__ void __launch_bounds__(TILE_WIDTH * TILE_WIDTH)
    matmul_tiled_boundary_kernel(const float* __restrict__ M, const float* __restrict__ N, float* __restrict__ P,
                                 const int rows, const int inner, const int cols) {
    __shared__ float sM[TILE_WIDTH][TILE_WIDTH];
    __shared__ float sN[TILE_WIDTH][TILE_WIDTH + 1];  // padded: a column read never conflicts (style, not need)

    const unsigned tx = threadIdx.x;
    const unsigned ty = threadIdx.y;
    const int row = static_cast<int>(blockIdx.y * TILE_WIDTH + ty);
    const int col = static_cast<int>(blockIdx.x * TILE_WIDTH + tx);
    const int phases = (inner + TILE_WIDTH - 1) / TILE_WIDTH;

    float acc = 0.0f;
    for (int t = 0; t < phases; ++t) {
        const int k_m = t * TILE_WIDTH + static_cast<int>(tx);
        const int k_n = t * TILE_WIDTH + static_cast<int>(ty);
        sM[ty][tx] = (row < rows && k_m < inner) ? __ldg(M + row * inner + k_m) : 0.0f;
        sN[ty][tx] = (k_n < inner && col < cols) ? __ldg(N + k_n * cols + col) : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE_WIDTH; ++k) acc = fmaf(sM[ty][k], sN[k][tx], acc);
        __syncthreads();
    }
    if (row < rows && col < cols) P[row * cols + col] = acc;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
