/// @file output_reads.hpp
/// @brief A kernel reads only what it computed: the CPU backend follows every kernel access to P.
///
/// No matrix multiply needs to read an element of P that its own thread did not store first: a sum is kept in a
/// register and stored once. A kernel that reads P otherwise reads the kit's poison (nothing stored it yet),
/// another block's result (blocks run in no order a kernel may count on), or an element another thread of its
/// block stored with no barrier between them (a race); on a GPU each gives what the timing of that run gives, and a
/// kernel can steer by it. The kit's runner follows P in every multiply it asks for; the first such access fails
/// the launch with cudaErrorTileLabOutputAccess and a message that names it. The build gives each non-const
/// pointer parameter of a kernel a checked pointer (KernelPointer, tools/tilelab_cuda_to_cpp), so that every
/// access through it is seen; it converts to no plain pointer, and a cast of it to a pointer whose accesses are not
/// followed (a struct's, a volatile float's) fails the launch. Called only by the kit's runner
/// (grader/runner/runner_main.cpp); student code may not name these functions.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tilelab::cpu {

/// From now on, until stop_tracking_output(), every kernel launch follows its accesses to the @p rows × @p cols
/// matrix of floats at @p first, whose every element holds @p unwritten_bits (the kit's poison) now.
void track_output(const float* first, std::size_t rows, std::size_t cols, std::uint32_t unwritten_bits);

/// Stops following P.
void stop_tracking_output() noexcept;

namespace detail {
/// True while P is followed: read inline on the emulator's paths, written only between launches.
extern bool output_tracked;
/// How a kernel touched memory.
enum class OutputAccess : std::uint8_t { read, write, atomic };
/// A kernel's access of @p bytes at @p address (anywhere: only P's elements are followed).
void note_output_access(const void* address, std::size_t bytes, OutputAccess access) noexcept;
/// True while P is followed and @p address is in it.
bool is_followed_output(const void* address) noexcept;
/// Fails the running kernel: a cast made a pointer into P whose accesses are not followed (address_cast.hpp).
[[noreturn]] void unfollowed_output_cast();
/// A launch starts: what the host or earlier launches stored in P may be read, the poison not.
void output_launch_begins();
}  // namespace detail

}  // namespace tilelab::cpu
