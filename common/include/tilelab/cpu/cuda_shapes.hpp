/// @file cuda_shapes.hpp
/// @brief What the CPU backend's <cuda/pipeline> and <cooperative_groups/memcpy_async.h> share: libcu++'s thread
/// scopes and cuda::aligned_size_t, the size of a copy that promises its alignment.
#pragma once

#include <cstddef>

namespace cuda {

/// The threads a synchronisation object coordinates (libcu++'s values).
enum thread_scope {
    thread_scope_system = 0,  ///< Every thread of the system, host included.
    thread_scope_device = 1,  ///< Every thread of the device.
    thread_scope_block = 2,   ///< The threads of one block.
    thread_scope_thread = 3   ///< The calling thread alone.
};

/// A copy's size of @p Alignment-aligned bytes: the source, the destination and the size are all multiples of
/// Alignment (a promise the CPU backend checks, as a GPU's cp.async faults where it is broken).
template <std::size_t Alignment>
struct aligned_size_t {
    static constexpr std::size_t align = Alignment;  ///< The promised alignment.
    std::size_t value;                               ///< The size in bytes.
    /// A size of @p size bytes.
    constexpr explicit aligned_size_t(std::size_t size) noexcept : value(size) {}
    /// The size in bytes.
    constexpr operator std::size_t() const noexcept { return value; }
};

}  // namespace cuda

namespace tilelab::cpu {

/// The alignment a copy's size promises: none (1) for a plain size.
template <class Shape>
constexpr std::size_t promised_alignment(const Shape&) noexcept {
    return 1;
}
/// cuda::aligned_size_t<N> promises N.
template <std::size_t N>
constexpr std::size_t promised_alignment(const cuda::aligned_size_t<N>&) noexcept {
    return N;
}

}  // namespace tilelab::cpu
