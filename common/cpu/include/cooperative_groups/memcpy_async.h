/// @file memcpy_async.h
/// @brief The CPU backend's stand-in for <cooperative_groups/memcpy_async.h>: a block's collective copies.
///
/// `cooperative_groups::memcpy_async(block, dst, src, bytes)` (bytes a count or `cuda::aligned_size_t<N>`) is
/// called by every thread of the block with the same arguments: the copy is cut into pieces of up to 16 bytes and
/// each thread issues its share (pieces thread_rank(), thread_rank() + size(), ...), checked and pending as
/// `__pipeline_memcpy_async`'s copies are, then closes a batch, as a GPU's does. `cooperative_groups::wait(block)`
/// lands all of the thread's batches and `wait_prior<N>(block)` all but the last N, then syncs the block (a
/// __syncthreads(), checked as one): after it every thread may read what the block copied. Copies by a tile
/// (thread_block_tile) are not emulated.
#pragma once

#include <cooperative_groups.h>
#include <tilelab/cpu/async_copy.hpp>
#include <tilelab/cpu/cuda_shapes.hpp>

#include <cstddef>
#include <type_traits>

namespace cooperative_groups {

/// The block's collective copy of @p size bytes from @p source to @p destination: this thread's share of it.
template <class Group, class Destination, class Source, class Shape>
void memcpy_async(const Group&, Destination destination, Source source, Shape size,
                  const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    static_assert(std::is_same_v<Group, thread_block>,
                  "the CPU backend emulates cooperative_groups::memcpy_async over the thread block "
                  "(this_thread_block()), not over a tile: the GPU backend grades this kernel");
    static constexpr ::tilelab::cpu::AsyncCopyApi api{
        "cooperative_groups::memcpy_async", "cooperative_groups::wait(block) (or wait_prior) for that copy"};
    ::tilelab::cpu::async_copy(file, line, static_cast<void*>(::tilelab::cpu::copy_address(destination)),
                               static_cast<const void*>(::tilelab::cpu::copy_address(source)),
                               static_cast<std::size_t>(size), ::tilelab::cpu::promised_alignment(size),
                               static_cast<std::size_t>(thread_block::thread_rank()),
                               static_cast<std::size_t>(thread_block::size()), api);
    ::tilelab::cpu::pipeline_commit();
}

/// Lands every copy of the block's but the last @p Prior memcpy_async calls, then syncs the block.
template <unsigned Prior, class Group>
void wait_prior(const Group& group, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    static_assert(std::is_same_v<Group, thread_block>,
                  "the CPU backend emulates cooperative_groups::wait_prior over the thread block, not over a tile: "
                  "the GPU backend grades this kernel");
    ::tilelab::cpu::pipeline_wait_prior(file, line, Prior);
    group.sync(file, line);
}

/// Lands every copy of the block's memcpy_async calls, then syncs the block.
template <class Group>
void wait(const Group& group, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    wait_prior<0>(group, file, line);
}

}  // namespace cooperative_groups
