// Cheat: registers atexit and at_quick_exit handlers that call _exit(0), so that however the program ends
// (the test framework returning "failed" from main, exit(1), quick_exit) its exit status says success.
// Stopped by: separate processes (the runner's exit status decides nothing).
#include <tilelab/labs.hpp>

#include <cstdlib>
#include <unistd.h>

namespace {
void force_success() { _exit(0); }

[[maybe_unused]] const bool registered = [] {
    std::atexit(force_success);
    std::at_quick_exit(force_success);
    return true;
}();
}  // namespace

__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {}

void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(1, 1);
    matmul_naive_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
