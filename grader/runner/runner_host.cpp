// The runner host: the runner's harness with no lab linked in, which loads each lab's module (a shared object of the
// lab's files, its adapter and module_entry.cpp) when the checker asks (--module, wire::Op::load_lab). One host
// answers for every lab of a submission at a tile width, so the GPU creates one CUDA context for all of them, not one
// per lab: in a class, creating contexts (one at a time, in the driver) was most of a submission's GPU time. The
// modules share the host's CUDA runtime (the shared libcudart), so a launch error in a lab's code is the host's
// cudaGetLastError too. A lab's module runs in the host's process as a lab runs in its own runner: the sandbox is the
// process, around the submission's code, not around each lab.
#include "runner_lab.hpp"

#include <dlfcn.h>

#include <string>

namespace {

using tilelab::runner::RunnerLab;

// What the host answers with before any module loaded: no launcher, which runner_main.cpp refuses with the reason.
const RunnerLab no_lab{nullptr, nullptr, nullptr, nullptr};
const RunnerLab* loaded = &no_lab;

// module_entry.cpp's entry point, by its C name.
using ModuleEntry = const RunnerLab* (*)(int tile_width);

std::string load(const std::string& path, int tile_width) {
    // RTLD_LOCAL: each module's names stay its own, so labs that define the same helper do not meet. A module loaded
    // before stays loaded (its kernels registered with the runtime); a host serves a handful of labs.
    void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (module == nullptr) {
        const char* why = dlerror();
        loaded = &no_lab;
        return "cannot load " + path + ": " + (why != nullptr ? why : "dlopen failed");
    }
    const auto entry = reinterpret_cast<ModuleEntry>(dlsym(module, "tilelab_runner_module"));
    if (entry == nullptr) {
        loaded = &no_lab;
        return path + " is not a lab's module (no tilelab_runner_module)";
    }
    loaded = entry(tile_width);
    if (loaded == nullptr || loaded->launcher == nullptr) {
        loaded = &no_lab;
        return path + " gave no lab";
    }
    return {};
}

// Installs the loader before main reads --module.
[[maybe_unused]] const bool installed = (tilelab::runner::load_lab_module = &load, true);

}  // namespace

const RunnerLab& tilelab::runner::runner_lab() { return *loaded; }
