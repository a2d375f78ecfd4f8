// Cheat: ends the program with status 0 from a global initializer, before main (and any test) runs. Where the
// checking program held the student's code, exiting 0 before a single check had run read as "all passed".
// Stopped by: separate processes (the runner ends before answering; the checker fails the check).
#include <tilelab/labs.hpp>

#include <cstdlib>

namespace {
[[maybe_unused]] const int leave_early = (std::_Exit(0), 0);
}  // namespace

__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {}

void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(1, 1);
    matmul_naive_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
