// Bad submission: lab 01 computing each dot product with Thrust. It links (Thrust is headers only), so the
// build check must find Thrust in the object file.
#include <tilelab/labs.hpp>

#include <thrust/execution_policy.h>
#include <thrust/inner_product.h>

__global__ void matmul_naive_kernel(const float*, const float*, float*, int, int, int) {}

void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // Only valid for cols == 1 (N is a column), which is enough to show the library in the object file.
    for (int r = 0; r < rows && cols == 1; ++r) {
        const float sum = thrust::inner_product(thrust::device, M + r * inner, M + (r + 1) * inner, N, 0.0f);
        cudaMemcpy(P + r, &sum, sizeof sum, cudaMemcpyHostToDevice);
    }
}
