// A gate program: the runner's harness around one model kernel (TILELAB_GATE_MODEL, a model launcher as
// gate_model_kernels.hpp names it) and no student code. The performance gate's checker sends it the same requests
// as the lab's runner and times both alike (grader/checks/perf_check.cpp), so a model is measured where no
// student code can reach it: as the lab's reference, or as the lab's own model when the checker calibrates the gate's
// requirement on this GPU. Its "contract launch" is the model's own launcher, grid and block as the model answer has
// them.
#include "gate_model_kernels.hpp"
#include "runner_lab.hpp"

#ifndef TILELAB_GATE_MODEL
#error "TILELAB_GATE_MODEL names the model's launcher, tilelab_model_<launcher> (grader/CMakeLists.txt)"
#endif

TILELAB_DECLARE_MODEL_LAUNCHER(TILELAB_GATE_MODEL);

const tilelab::runner::RunnerLab& tilelab::runner::runner_lab() {
    static const RunnerLab lab{&::TILELAB_GATE_MODEL, &::TILELAB_GATE_MODEL, nullptr, nullptr};
    return lab;
}
