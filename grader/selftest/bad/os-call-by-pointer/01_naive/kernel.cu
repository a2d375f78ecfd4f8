// Bad submission: a C library function that opens files (fopen, declared by <cstdio>), reached through a pointer
// so that its name is never called as written, and hidden behind a parameter of the same name that makes the
// source check read `fopen` as the student's own variable. The build check's look at the objects (nm -u: the lab
// refers to fopen) must refuse it: lab code runs in the runner's process, and with files and descriptors it
// could serve the runner's channel to the checker itself (grader/selftest/cheats/serves-the-channel).
#include <tilelab/labs.hpp>

#include <cstdio>

__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows || col >= cols) return;
    float sum = 0.0f;
    for (int k = 0; k < inner; ++k) sum += M[row * inner + k] * N[k * cols + col];
    P[row * cols + col] = sum;
}

static bool unused(bool fopen) { return fopen; }

void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    auto open_file = fopen;
    if (std::FILE* f = open_file("/proc/self/cmdline", "rb")) std::fclose(f);
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_naive_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
    static_cast<void>(unused(false));
}
