/// @file sass_evidence.hpp
/// @brief The GPU backend's evidence that a tiled kernel computes from its tiles: its machine code (SASS).
///
/// On a GPU nothing counts a kernel's shared-memory reads, and its attributes show only what it declares. What the
/// compiler made of the inner product does show it: an honestly tiled kernel's multiply-adds (FFMA) sit in a loop
/// with the shared-memory loads (LDS) that feed them, two tile elements per multiply-add; a kernel whose tiles are
/// declared (or filled) but not computed from has a loop of FFMAs fed by global loads (LDG) instead.
#pragma once

#include <string>
#include <vector>

namespace tilelab::grader {

/// One loop of a kernel's machine code (a backward branch and the instructions it jumps back over).
struct SassLoop {
    unsigned long first = 0, last = 0;  ///< Addresses of its first instruction and of the branch back.
    int multiply_adds = 0;              ///< FFMA (and FMUL/FADD pairs are not counted).
    int shared_elements = 0;            ///< 4-byte elements loaded from shared memory (LDS.128 counts 4).
    int global_elements = 0;            ///< 4-byte elements loaded from global memory (LDG, LDG.128 ...).
    int copied_bytes = 0;               ///< Bytes of the asynchronous copies it issues (LDGSTS, LDGSTS.E.BYPASS.128 16).
    int stored_bytes = 0;               ///< Bytes of its ordinary stores into shared memory (STS, STS.128 16).
    int waits = 0;                      ///< Waits for asynchronous copies (DEPBAR: __pipeline_wait_prior).
    /// Some copy it issues is followed, going round the loop, by a multiply-add before any wait: the copies run
    /// ahead of the multiply-adds (the next phase is copied while this one is multiplied).
    bool copies_ahead = false;
};

/// The machine code of one compiled version (architecture) of one kernel.
struct SassListing {
    std::string architecture;  ///< "sm_90".
    std::vector<SassLoop> loops;
};

/// The listings of the kernel whose mangled name starts with @p mangled_prefix in `cuobjdump -sass` output @p text,
/// one per architecture the program carries.
std::vector<SassListing> parse_sass(const std::string& text, const std::string& mangled_prefix);

/// The loop that shows the tiles in use, if any: one with multiply-adds and at least two shared-memory elements
/// loaded per multiply-add (both operands from the tiles, as the CPU backend's count of tile reads demands).
/// Null when there is none.
const SassLoop* tiled_inner_product(const SassListing& listing);

/// The loop that shows copies running ahead of the multiply-adds (the pipeline check's), if any: one with at least half
/// the multiply-adds of the busiest loop (an outer loop counts those of the loops inside it), whose tiles arrive by
/// asynchronous copies more than by stores (copied_bytes > stored_bytes) and whose copies run ahead
/// (SassLoop::copies_ahead). Null when there is none.
const SassLoop* pipelined_loop(const SassListing& listing);

/// "_Z19matmul_tiled_kernel": the start of the mangled name of a global-namespace function @p name.
std::string mangled_prefix(const std::string& name);

/// Runs @p cuobjdump -sass on @p program and returns its output; throws std::runtime_error when it cannot.
std::string disassemble(const std::string& cuobjdump, const std::string& program);

}  // namespace tilelab::grader
