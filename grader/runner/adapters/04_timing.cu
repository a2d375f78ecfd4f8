// Lab 04 in its runner: the student's matmul_timed, and the kit's own lab 03 kernel (grader/runner/lab04, the
// model answer recording its launches), which matmul_timed times and the kit times too.
// Compiled once per backend, as the lab's files are (CUDA on the GPU, rewritten C++ on the CPU backend).
#include "lab04/lab04_record.hpp"
#include "runner_lab.hpp"

#include <tilelab/labs.hpp>

namespace {
void contract_launch(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    using namespace tilelab::runner;
    const dim3 grid = contract_grid(rows, cols, contract_tile_width()), block = contract_block(contract_tile_width());
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
}  // namespace

const tilelab::runner::RunnerLab& tilelab::runner::runner_lab() {
    static const RunnerLab lab{&::matmul_tiled_boundary,
                               &contract_launch,
                               reinterpret_cast<const void*>(&::matmul_tiled_boundary_kernel),
                               &::matmul_timed,
                               &tilelab::runner::reset_lab04_record,
                               &tilelab::runner::read_lab04_record};
    return lab;
}
