/// @file device_memcpy.hpp
/// @brief `memcpy` in device code on the CPU backend: the build rewrites `memcpy`, `std::memcpy` and
/// `__builtin_memcpy` inside `__global__` and `__device__` functions into device_memcpy (tools/tilelab_cuda_to_cpp),
/// which moves the bytes that lie in the block's shared memory as the reads and stores of its elements they are: a
/// plain memcpy would move tile data past the race checks and past what the technique check sees.
#pragma once

#include <tilelab/cpu/kernel_language.hpp>
#include <tilelab/cpu/output_reads.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace tilelab::cpu {

/// Fails the kernel where a pointer-sized word that a device-code memcpy wrote (the aligned words around
/// @p destination's @p bytes) holds an address in P: the bytes of P's address copied into a plain pointer (`auto q = M;
/// memcpy(&q, &address, 8);`) would read P unseen. A matrix's values never form such a word (its upper half would be
/// a denormal float).
inline void refuse_copied_output_address(const void* destination, std::size_t bytes) {
    const auto begin = reinterpret_cast<std::uintptr_t>(destination) & ~(sizeof(void*) - 1);
    const auto end = reinterpret_cast<std::uintptr_t>(destination) + bytes;
    for (std::uintptr_t word = begin; word < end; word += sizeof(void*)) {
        std::uintptr_t value;
        std::memcpy(&value, reinterpret_cast<const void*>(word), sizeof value);
        if (detail::is_followed_output(reinterpret_cast<const void*>(value))) detail::unfollowed_output_cast();
    }
}

/// A rewritten device-code `memcpy(destination, source, bytes)`: word by word (then byte by byte) through Shared<T>
/// where either side is in the block's shared memory, a plain copy elsewhere; bytes of P are the reads and stores
/// of P that they are (output_reads.hpp follows P). Returns @p destination.
inline void* device_memcpy(void* destination, const void* source, std::size_t bytes) {
    if (detail::output_tracked) {
        detail::note_output_access(source, bytes, detail::OutputAccess::read);
        detail::note_output_access(destination, bytes, detail::OutputAccess::write);
    }
    auto* to = static_cast<unsigned char*>(destination);
    const auto* from = static_cast<const unsigned char*>(source);
    std::size_t at = 0;
    const auto copy = [&](auto element, std::size_t size) {
        using T = decltype(element);
        const bool from_shared = is_block_shared_address(from + at), to_shared = is_block_shared_address(to + at);
        T value;
        if (from_shared) value = *reinterpret_cast<const Shared<T>*>(from + at);  // a counted, race-checked read
        else std::memcpy(&value, from + at, size);
        if (to_shared) *reinterpret_cast<Shared<T>*>(to + at) = value;  // a store the checks see
        else std::memcpy(to + at, &value, size);
    };
    for (; at + sizeof(float) <= bytes; at += sizeof(float)) copy(float{}, sizeof(float));
    for (; at < bytes; ++at) copy(static_cast<unsigned char>(0), 1);
    if (detail::output_tracked) refuse_copied_output_address(destination, bytes);
    return destination;
}

}  // namespace tilelab::cpu
