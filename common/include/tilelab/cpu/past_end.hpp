/// @file past_end.hpp
/// @brief The bits the CPU backend keeps next to every device buffer and in memory nobody wrote yet, shared by the
/// emulator, which writes them, and the grader, which recognises them in a wrong result. No dependencies: the GPU
/// backend's grader includes it too.
#pragma once

#include <cstdint>

namespace tilelab::cpu {

/// The bits of every whole float between the end of a device buffer and the inaccessible page after it (less than
/// 256 bytes, as buffers start 256-byte aligned) and before its start: a signalling NaN, so that a kernel reading
/// past the end computes NaN (quieted by arithmetic to 0x7FE5A5A5, the same payload; not the kit's unwritten_bits or guard bits); a write there is reported
/// as an illegal memory access when the kernel ends.
inline constexpr std::uint32_t past_end_poison_bits = 0x7FA5A5A5u;

/// True when @p bits are past_end_poison_bits, quieted or not, of either sign: a value read past the end of a
/// device buffer on the CPU backend, or computed from one.
constexpr bool is_past_end_poison(std::uint32_t bits) noexcept {
    return (bits & 0x7FBFFFFFu) == past_end_poison_bits;
}

/// The byte the CPU backend fills fresh memory with: every block's shared memory before its threads store to it, and
/// a new cudaMalloc buffer. A float read from it is a NaN with all bits set (fresh_memory_bits), which arithmetic on
/// the CPU keeps as it is, so the grader can tell a tile element read before any thread stored it.
inline constexpr unsigned char fresh_memory_byte = 0xFF;

/// A float of fresh_memory_byte's: a quiet NaN, negative, every payload bit set (never a GPU's canonical NaN).
inline constexpr std::uint32_t fresh_memory_bits = 0xFFFFFFFFu;

}  // namespace tilelab::cpu
