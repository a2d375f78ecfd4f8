// A correct lab 01 in another style: a fixed-size grid whose threads stride over P, and pointer walking.
// The grader must accept it.
#include <tilelab/labs.hpp>

__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    for (int row = blockIdx.y * blockDim.y + threadIdx.y; row < rows; row += gridDim.y * blockDim.y) {
        for (int col = blockIdx.x * blockDim.x + threadIdx.x; col < cols; col += gridDim.x * blockDim.x) {
            const float* m = M + static_cast<long>(row) * inner;
            const float* n = N + col;
            float sum = 0.0f;
            for (int k = 0; k < inner; ++k, n += cols) sum = fmaf(m[k], *n, sum);
            P[static_cast<long>(row) * cols + col] = sum;
        }
    }
}

void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(4, 4);  // deliberately too few blocks: the stride loops cover the rest
    matmul_naive_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
