/// @file grader/selftest/accept-styles/launch-kernel-void-cast/01_naive/kernel.cu
/// @brief Lab 01 launched as the CUDA C++ Programming Guide and the runtime API's examples write
/// cudaLaunchKernel (style: the kernel cast to `(void*)`, an argument array of `(void*)&arg`, stream 0), which the
/// CPU backend's build once refused (no cudaLaunchKernel took a void*): the rewrite drops the cast so that the
/// launch keeps the kernel's type.
#include <tilelab/labs.hpp>

__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows || col >= cols) return;
    float sum = 0.0f;
    for (int k = 0; k < inner; ++k) sum += M[row * inner + k] * N[k * cols + col];
    P[row * cols + col] = sum;
}

void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
    dim3 dimGrid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    void* kernelArgs[] = {(void*)&M, (void*)&N, (void*)&P, (void*)&rows, (void*)&inner, (void*)&cols};
    cudaLaunchKernel((void*)matmul_naive_kernel, dimGrid, dimBlock, kernelArgs, 0, 0);
}
