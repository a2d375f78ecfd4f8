// Lab 03 in its runner: the student's launcher, and the kit's own launch of the student's kernel.
// Compiled as the lab's files are (CUDA on the GPU backend, rewritten C++ on the CPU backend).
#include "reference_naive.hpp"
#include "runner_lab.hpp"

#include <tilelab/labs.hpp>

namespace {
void contract_launch(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    using namespace tilelab::runner;
    matmul_tiled_boundary_kernel<<<contract_grid(rows, cols, TILE_WIDTH), contract_block(TILE_WIDTH)>>>(M, N, P, rows, inner, cols);
}
}  // namespace

const tilelab::runner::RunnerLab& tilelab::runner::runner_lab() {
    static const RunnerLab lab{&::matmul_tiled_boundary, &contract_launch, reinterpret_cast<const void*>(&::matmul_tiled_boundary_kernel), nullptr,
                               TILELAB_REFERENCE_NAIVE, TILE_WIDTH};
    return lab;
}
