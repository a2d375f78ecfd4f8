// A lab in its runner: the student's launcher, and the kit's own launch of the student's kernel. One source for
// every lab whose launch the registry describes (grader/labs.json), compiled once per lab and backend
// (cmake/TileLab.cmake) with the lab's names: TILELAB_LAUNCHER, TILELAB_KERNEL, and for a lab with a configuration
// of its own (common/include/tilelab/labs.hpp), which does not depend on TILE_WIDTH, TILELAB_BLOCK_TILE and
// TILELAB_THREADS. CUDA on the GPU, rewritten C++ on the CPU backend, as the lab's files are.
#include "runner_lab.hpp"

#include <tilelab/labs.hpp>

#if !defined(TILELAB_LAUNCHER) || !defined(TILELAB_KERNEL)
#error "TILELAB_LAUNCHER and TILELAB_KERNEL name the lab's launcher and kernel (cmake/TileLab.cmake)"
#endif

namespace {
void contract_launch(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    using namespace tilelab::runner;
#ifdef TILELAB_BLOCK_TILE
    const dim3 grid = block_tile_grid(rows, cols, TILELAB_BLOCK_TILE);
    TILELAB_KERNEL<<<grid, TILELAB_THREADS>>>(M, N, P, rows, inner, cols);
#else
    const dim3 grid = contract_grid(rows, cols, contract_tile_width()), block = contract_block(contract_tile_width());
    TILELAB_KERNEL<<<grid, block>>>(M, N, P, rows, inner, cols);
#endif
}
}  // namespace

const tilelab::runner::RunnerLab& tilelab::runner::runner_lab() {
    static const RunnerLab lab{&::TILELAB_LAUNCHER, &contract_launch, reinterpret_cast<const void*>(&::TILELAB_KERNEL),
                               nullptr};
    return lab;
}
