/// @file grader/selftest/accept-styles/launch-kernel/01_naive/kernel.cu
/// @brief Lab 01 launched with cudaLaunchKernel and an argument array instead of <<< >>> (style: the runtime
/// API reference's launch without the chevron syntax, as code that must build with a plain C++ compiler does).
#include <tilelab/labs.hpp>

__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows || col >= cols) return;
    float sum = 0.0f;
    for (int k = 0; k < inner; ++k) sum = __fmaf_rn(M[row * inner + k], N[k * cols + col], sum);
    P[row * cols + col] = sum;
}

void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(16, 16);
    const dim3 grid((cols + 15) / 16, (rows + 15) / 16);
    void* arguments[] = {&M, &N, &P, &rows, &inner, &cols};
    cudaLaunchKernel(matmul_naive_kernel, grid, block, arguments, 0, nullptr);
}
