// The entry point of a lab's module, which the runner host (runner_host.cpp) loads: the lab as its adapter defines
// it, at the tile width the host is told. The module keeps its own contract_tile_width(), which its adapter's
// launch reads; the module is linked -Bsymbolic, so its names resolve inside it, never to the host's.
#include "runner_lab.hpp"

namespace {
int told_tile_width = 16;
}  // namespace

int tilelab::runner::contract_tile_width() { return told_tile_width; }

/// The lab this module holds, at @p tile_width (the checker's --tile-width). C linkage: the host finds it by name.
extern "C" __attribute__((visibility("default"))) const tilelab::runner::RunnerLab* tilelab_runner_module(int tile_width) {
    told_tile_width = tile_width;
    return &tilelab::runner::runner_lab();
}
