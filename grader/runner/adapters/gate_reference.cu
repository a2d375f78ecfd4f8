// The gate's reference program: the runner's harness around one model kernel (TILELAB_GATE_REFERENCE, a launcher
// from reference_kernels.hpp) and no student code. The performance gate's checker sends it the same requests as
// the lab's runner and times both alike (grader/src/perf_test.cpp), so the reference is measured where no student
// code can reach it. Its "contract launch" is the model's own launcher, grid and block as the model answer has them.
#include "reference_kernels.hpp"
#include "runner_lab.hpp"

#ifndef TILELAB_GATE_REFERENCE
#error "TILELAB_GATE_REFERENCE names the reference launcher (grader/CMakeLists.txt)"
#endif

const tilelab::runner::RunnerLab& tilelab::runner::runner_lab() {
    static const RunnerLab lab{&::TILELAB_GATE_REFERENCE, &::TILELAB_GATE_REFERENCE, nullptr, nullptr};
    return lab;
}
