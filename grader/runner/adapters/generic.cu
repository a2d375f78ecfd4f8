// A lab in its runner: the student's launcher, and the kit's own launch of the student's kernel. One source for every
// lab whose launch the registry (grader/labs.json) describes, compiled once per lab and backend
// (cmake/TileLabRunner.cmake) with the lab's names: TILELAB_ADAPTER_LAUNCHER and TILELAB_ADAPTER_KERNEL; and, for a lab
// with a configuration of its own (common/include/tilelab/labs.hpp, which does not depend on TILE_WIDTH),
// TILELAB_ADAPTER_BLOCK_TILE and TILELAB_ADAPTER_THREADS. CUDA on the GPU, rewritten C++ on the CPU backend, as the
// lab's files are.
#include "runner_lab.hpp"

#include <tilelab/labs.hpp>

#if !defined(TILELAB_ADAPTER_LAUNCHER) || !defined(TILELAB_ADAPTER_KERNEL)
#error "TILELAB_ADAPTER_LAUNCHER and TILELAB_ADAPTER_KERNEL name the lab's launcher and kernel (TileLabRunner.cmake)"
#endif

namespace {
void contract_launch(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    using namespace tilelab::runner;
#ifdef TILELAB_ADAPTER_BLOCK_TILE
    const dim3 grid = block_tile_grid(rows, cols, TILELAB_ADAPTER_BLOCK_TILE);
    TILELAB_ADAPTER_KERNEL<<<grid, TILELAB_ADAPTER_THREADS>>>(M, N, P, rows, inner, cols);
#else
    const dim3 grid = contract_grid(rows, cols, contract_tile_width()), block = contract_block(contract_tile_width());
    TILELAB_ADAPTER_KERNEL<<<grid, block>>>(M, N, P, rows, inner, cols);
#endif
}
}  // namespace

const tilelab::runner::RunnerLab& tilelab::runner::runner_lab() {
    static const RunnerLab lab{&::TILELAB_ADAPTER_LAUNCHER, &contract_launch,
                               reinterpret_cast<const void*>(&::TILELAB_ADAPTER_KERNEL), nullptr};
    return lab;
}
