/// @file past_end.hpp
/// @brief The bits the CPU backend keeps next to every device buffer, shared by the emulator, which writes them, and
/// the grader, which recognises them in a wrong result. No dependencies: the GPU backend's grader includes it too.
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

}  // namespace tilelab::cpu
