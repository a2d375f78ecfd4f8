/// @file grader/selftest/accept-styles/warp-shuffle/01_naive/kernel.cu
/// @brief Lab 01 with one warp per element of P: the lanes split the inner dimension and add their partial sums
/// with __shfl_down_sync (style: NVIDIA's "Faster Parallel Reductions on Kepler" / CUDA samples' warp reduce).
#include <tilelab/labs.hpp>

namespace {
constexpr int kWarpsPerBlock = 8;
}

__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const int lane = threadIdx.x;  // blockDim.x == 32: one warp per row of the block
    const long long element = 1ll * blockIdx.x * kWarpsPerBlock + threadIdx.y;
    const bool active = element < 1ll * rows * cols;
    const int row = active ? static_cast<int>(element / cols) : 0;
    const int col = active ? static_cast<int>(element % cols) : 0;
    float sum = 0.0f;
    if (active)
        for (int k = lane; k < inner; k += 32) sum += M[row * inner + k] * N[k * cols + col];
    // Every lane takes part in the shuffles (inactive warps add zeros), so the full mask is right.
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (active && lane == 0) P[row * cols + col] = sum;
}

void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const long long elements = 1ll * rows * cols;
    const dim3 block(32, kWarpsPerBlock);
    const dim3 grid(static_cast<unsigned>((elements + kWarpsPerBlock - 1) / kWarpsPerBlock));
    matmul_naive_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
