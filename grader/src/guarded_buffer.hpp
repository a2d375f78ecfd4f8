/// @file guarded_buffer.hpp
/// @brief Guard zones around the buffers a kernel gets, to catch out-of-bounds writes and reads: the runner lays
/// the buffers out as the checker says, and the checker reads the zones back and judges them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tilelab::grader {

/// Bit pattern of the guard zones: a quiet NaN, so that a kernel reading past an input gets NaN
/// (which poisons the sum it feeds) and a write into a guard zone shows as changed bits.
inline constexpr std::uint32_t guard_bits = 0x7FC0BEEFu;

/// What a kernel did to the guard zones around an array.
struct GuardDamage {
    std::size_t changed = 0;  ///< Guard elements whose bits changed.
    /// Offset, relative to the payload's first element, of the first changed guard element
    /// (negative: before the payload; count or more: after it). Meaningful when changed > 0.
    std::ptrdiff_t first_offset = 0;
};

/// A device buffer as [guard][payload][guard, where guard_after]. On the CPU backend there is no zone after the
/// payload: the runner pads the zone before it so that the buffer ends against the emulator's inaccessible page
/// wherever the payload's size is a multiple of 4 floats (and at most 3 floats before it otherwise, which read as
/// NaN), so the first element past the end already faults, reads included (which a guard zone only turns into NaN).
struct GuardLayout {
    std::size_t count;  ///< Payload elements.
    std::size_t guard;  ///< Guard elements before (and after) the payload.
    bool guard_after;   ///< Whether there is a zone after the payload.

    /// Elements of the whole buffer.
    std::size_t total() const noexcept { return guard + count + (guard_after ? guard : 0); }
};

/// Whether this backend puts a guard zone after a buffer (see GuardLayout).
bool guard_zone_after() noexcept;

/// Reads both guard zones of @p buffer (laid out as @p layout) and reports what changed.
GuardDamage check_guards(const std::vector<float>& buffer, const GuardLayout& layout);

}  // namespace tilelab::grader
