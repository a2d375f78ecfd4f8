// Lab 05 in its runner: the student's launcher, and the kit's own launch of the student's kernel with the lab's
// configuration (common/include/tilelab/labs.hpp), which does not depend on TILE_WIDTH.
// Compiled once per backend, as the lab's files are (CUDA on the GPU, rewritten C++ on the CPU backend).
#include "runner_lab.hpp"

#include <tilelab/labs.hpp>

namespace {
void contract_launch(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 grid = tilelab::runner::block_tile_grid(rows, cols, COARSENED_BLOCK_TILE);
    matmul_coarsened_kernel<<<grid, COARSENED_THREADS>>>(M, N, P, rows, inner, cols);
}
}  // namespace

const tilelab::runner::RunnerLab& tilelab::runner::runner_lab() {
    static const RunnerLab lab{&::matmul_coarsened, &contract_launch,
                               reinterpret_cast<const void*>(&::matmul_coarsened_kernel), nullptr};
    return lab;
}
