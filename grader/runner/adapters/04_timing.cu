// Lab 04 in its runner: matmul_timed, and lab 03's kernel, which matmul_timed times and the kit times too.
// Compiled as the lab's files are (CUDA on the GPU backend, rewritten C++ on the CPU backend).
#include "runner_lab.hpp"

#include <tilelab/labs.hpp>

namespace {
void contract_launch(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    using namespace tilelab::runner;
    matmul_tiled_boundary_kernel<<<contract_grid(rows, cols, TILE_WIDTH), contract_block(TILE_WIDTH)>>>(
        M, N, P, rows, inner, cols);
}
}  // namespace

const tilelab::runner::RunnerLab& tilelab::runner::runner_lab() {
    static const RunnerLab lab{&::matmul_tiled_boundary, &contract_launch,
                               reinterpret_cast<const void*>(&::matmul_tiled_boundary_kernel), &::matmul_timed,
                               nullptr, TILE_WIDTH};
    return lab;
}
