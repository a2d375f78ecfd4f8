// Cheat: defines the kit's own comparator (and tolerance), so that, linked into the program that checks the
// result, the strong definitions here replace the kit's: every result "passes", whatever the kernel wrote.
// Stopped by: the build check (a lab may not define the kit's names; and the runner has no comparator).
#include <tilelab/compare.hpp>
#include <tilelab/labs.hpp>

namespace tilelab {

Comparison compare(const float* /*got*/, const ReferenceProduct& reference, std::size_t /*keep*/) {
    Comparison everything_fine;
    everything_fine.status.assign(reference.value.size(), ElementStatus::correct);
    return everything_fine;
}

double tolerance(int /*inner*/, double /*magnitude*/) { return 1e300; }

}  // namespace tilelab

__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {}

void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(1, 1);
    matmul_naive_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
