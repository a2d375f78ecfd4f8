// Where warp-level calls meet (warp.cpp): which lanes of a block may go on, with which results, and the report
// when lanes named in a mask cannot arrive. Internal to the CPU backend; the scheduler owns the fibers.
#pragma once

#include <tilelab/cpu/warp.hpp>

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

namespace tilelab::cpu::detail {

/// One thread of the block as the warp rendezvous sees it.
struct WarpLane {
    enum class Where { running, at_warp_call, at_barrier, returned };
    Where where;           ///< What the thread is doing now.
    WarpCall* call;        ///< Its warp call, when at_warp_call; its result is written here on release.
    const char* file;      ///< The __syncthreads() it waits at, when at_barrier.
    int line;
    uint3 index;           ///< threadIdx, for messages.
    bool released;         ///< Set by release_warp_calls for the lanes that may go on.
    unsigned group = 0;    ///< With released: the lanes (bits, in its warp) that met at its call.
};

/// Releases, in every warp of the block (lanes 32·w … 32·w + 31 of @p lanes, in linear order), each group of
/// lanes waiting at one warp call whose mask's lanes (those that exist) all wait at that same call with the same
/// mask: computes their results and marks them released. Returns how many lanes were released.
unsigned release_warp_calls(std::vector<WarpLane>& lanes);

/// The message for lanes left waiting at a warp call that cannot complete (nothing else can run): which call
/// waits for which lanes, and where those lanes are instead.
std::string warp_divergence_message(const std::vector<WarpLane>& lanes, const std::string& kernel_and_block);

}  // namespace tilelab::cpu::detail
