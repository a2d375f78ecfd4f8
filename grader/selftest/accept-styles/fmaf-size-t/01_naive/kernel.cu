/// @file grader/selftest/accept-styles/fmaf-size-t/01_naive/kernel.cu
/// @brief Lab 01 with 64-bit (std::size_t) indexing, so that row * inner cannot overflow an int, and the sum
/// written as explicit fused multiply-adds with fmaf (style: the CUDA C++ Best Practices Guide on large index
/// arithmetic and the CUDA Math API's fmaf; common in production kernels).
#include <tilelab/labs.hpp>

#include <cstddef>

__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const std::size_t row = static_cast<std::size_t>(blockIdx.y) * blockDim.y + threadIdx.y;
    const std::size_t col = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (row >= static_cast<std::size_t>(rows) || col >= static_cast<std::size_t>(cols)) return;
    const std::size_t K = static_cast<std::size_t>(inner), C = static_cast<std::size_t>(cols);
    const float* m_row = M + row * K;
    float sum = 0.0f;
    for (std::size_t k = 0; k < K; ++k) sum = fmaf(m_row[k], N[k * C + col], sum);
    P[row * C + col] = sum;
}

void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(static_cast<unsigned>((cols + TILE_WIDTH - 1) / TILE_WIDTH),
                    static_cast<unsigned>((rows + TILE_WIDTH - 1) / TILE_WIDTH));
    matmul_naive_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
