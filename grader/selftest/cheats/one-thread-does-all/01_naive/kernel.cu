// Cheat: thread (0, 0) of block (0, 0) loops over all of P and every other thread returns. The answer is right
// under any launch (the student's or the kit's), so where the grader only checked P it earned the correctness
// points of a lab whose whole point is one thread per element (and on a GPU it is thousands of times slower).
// Stopped by: the work-spread check inside the correctness checks (CPU backend: the emulator watches which thread
// writes each element of P; grader/src/work_spread.hpp); on a GPU, see docs/grading.md.
#include <tilelab/labs.hpp>

__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    if (blockIdx.x != 0 || blockIdx.y != 0 || threadIdx.x != 0 || threadIdx.y != 0) return;
    for (int row = 0; row < rows; ++row)
        for (int col = 0; col < cols; ++col) {
            float sum = 0.0f;
            for (int k = 0; k < inner; ++k) sum += M[row * inner + k] * N[k * cols + col];
            P[row * cols + col] = sum;
        }
}

void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_naive_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
