/// @file address_cast.hpp
/// @brief Pointer-to-integer casts on the CPU backend: the alignment test of a kernel that takes a 16-byte path
/// where the address allows it, `reinterpret_cast<uintptr_t>(p) % 16 == 0` or `(size_t)p % 16 == 0`, whatever `p`
/// is there: a plain pointer (a kernel's parameter: global memory), a shared array's element (Shared<T>*), a
/// `__device__` function's pointer parameter (DevicePointer) or a vector pointer (VectorPointer).
///
/// The build rewrites `reinterpret_cast<I>` to a type that is no pointer or reference (an integer, in CUDA) into
/// address_cast<I> (tools/tilelab_cuda_to_cpp); a C-style or functional cast of a DevicePointer or VectorPointer to
/// an integer goes through their explicit conversion (shared_pointer.hpp, vector_access.hpp). The integer is the
/// address the emulator uses, whose alignment is what a GPU's would be: a device buffer starts 256-byte aligned, as
/// cudaMalloc's does, and each shared declaration keeps its alignment from the start of the block's shared memory.
#pragma once

#include <tilelab/cpu/shared_pointer.hpp>
#include <tilelab/cpu/vector_access.hpp>

#include <type_traits>

namespace tilelab::cpu {

/// A rewritten `reinterpret_cast<I>(pointer)` of a plain pointer: that cast.
template <class I, class T>
I address_cast(T* pointer) noexcept {
    return reinterpret_cast<I>(pointer);
}
/// ... of a `__device__` function's pointer parameter: the address it holds.
template <class I, class T>
I address_cast(DevicePointer<T> pointer) noexcept {
    return reinterpret_cast<I>(pointer.element());
}
/// ... of a vector pointer: the address it holds.
template <class I, class V>
I address_cast(VectorPointer<V> pointer) noexcept {
    return reinterpret_cast<I>(pointer.address());
}
/// ... of an integer (to its own type, the one such cast C++ allows).
template <class I, class T, class = std::enable_if_t<std::is_integral_v<T> || std::is_enum_v<T>>>
I address_cast(T value) noexcept {
    return reinterpret_cast<I>(value);
}

}  // namespace tilelab::cpu
