// Lab 02 in its runner: the student's launcher, and the kit's own launch of the student's kernel.
// Compiled once per backend, as the lab's files are (CUDA on the GPU, rewritten C++ on the CPU backend).
#include "runner_lab.hpp"

#include <tilelab/labs.hpp>

namespace {
void contract_launch(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    using namespace tilelab::runner;
    const dim3 grid = contract_grid(rows, cols, contract_tile_width()), block = contract_block(contract_tile_width());
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
}  // namespace

const tilelab::runner::RunnerLab& tilelab::runner::runner_lab() {
    static const RunnerLab lab{&::matmul_tiled, &contract_launch, reinterpret_cast<const void*>(&::matmul_tiled_kernel),
                               nullptr};
    return lab;
}
