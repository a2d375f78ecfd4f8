/// @file guarded_buffer.hpp
/// @brief Device arrays with guard zones before and after, to catch out-of-bounds writes and reads.
#pragma once

#include <tilelab/device_buffer.hpp>

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

/// A float array in device memory with @p guard elements of guard_bits on each side. On the CPU backend there is
/// no guard zone after the payload: the emulator's cudaMalloc ends every buffer against an inaccessible page, so
/// the first element past the end already faults, reads included (which a guard zone only turns into NaN).
class GuardedDeviceArray {
public:
    /// Copies @p count floats from @p values into the middle of a new guarded device array.
    GuardedDeviceArray(const float* values, std::size_t count, std::size_t guard);

    /// The first element of the payload (what the kernel is given).
    float* data() const noexcept { return buffer_.data() + guard_; }

    /// Copies the payload back into @p values (count floats).
    void download(float* values) const;

    /// Reads both guard zones back and reports what changed.
    GuardDamage check_guards() const;

private:

    std::size_t count_;
    std::size_t guard_;
    std::size_t guard_after_;
    DeviceBuffer<float> buffer_;
};

}  // namespace tilelab::grader
