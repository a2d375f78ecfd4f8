// Bad submission: lab 01 handed to cuBLAS. The build check must reject it as a library call.
#include <tilelab/labs.hpp>

#include <cublas_v2.h>

__global__ void matmul_naive_kernel(const float*, const float*, float*, int, int, int) {}

void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    cublasHandle_t handle;
    cublasCreate(&handle);
    const float one = 1.0f, zero = 0.0f;
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, cols, rows, inner, &one, N, cols, M, inner, &zero, P, cols);
    cublasDestroy(handle);
}
