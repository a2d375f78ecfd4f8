/// @file grader/selftest/bad/not-emulated/01_naive/kernel.cu
/// @brief A correct lab 01 that calls __nanosleep, which the CPU backend does not emulate: its build check must
/// name the call and say that the GPU backend grades it, not leave the student with a bare compiler error.
#include <tilelab/labs.hpp>

__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows || col >= cols) return;
    __nanosleep(10);  // harmless on a GPU (sm_70 and later)
    float sum = 0.0f;
    for (int k = 0; k < inner; ++k) sum += M[row * inner + k] * N[k * cols + col];
    P[row * cols + col] = sum;
}

void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(16, 16);
    const dim3 grid((cols + 15) / 16, (rows + 15) / 16);
    matmul_naive_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
