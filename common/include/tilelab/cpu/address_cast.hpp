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
///
/// Pointer-to-pointer casts in device code, `(float*)x`, `reinterpret_cast<float*>(x)`, `static_cast<float*>(x)` and
/// `const_cast<float*>(x)`, become CastPointer<float>: a plain T* would read a shared array's elements past the race
/// checks and past what the technique check counts (a tile read through `(const float*)&tile[0][0]` would not be a
/// shared-memory read, a read of M through `const_cast<float*>(M)` no global read).
#pragma once

#include <tilelab/cpu/output_reads.hpp>
#include <tilelab/cpu/shared_pointer.hpp>
#include <tilelab/cpu/shared_view.hpp>
#include <tilelab/cpu/vector_access.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace tilelab::cpu {

bool is_block_shared_address(const void* address) noexcept;
/// Ends the running CUDA thread: a pointer into shared memory was cast to a type the CPU backend cannot follow.
[[noreturn]] void untracked_shared_cast();

/// A rewritten pointer cast in device code to a type whose accesses the CPU backend does not follow through shared
/// memory (a struct, int4): the plain pointer, or the kernel's failure where the address is in the block's shared
/// memory or in P (output_reads.hpp), whose accesses must stay seen. Converts to S* as the cast's result would.
template <class S>
class ForeignPointer {
public:
    /// The null pointer.
    explicit ForeignPointer(std::nullptr_t) noexcept : pointer_(nullptr) {}
    /// From any pointer.
    template <class U>
    explicit ForeignPointer(U* any) : pointer_(checked(static_cast<const void*>(any))) {}
    /// From a `__device__` function's pointer parameter.
    template <class U>
    explicit ForeignPointer(DevicePointer<U> any) : pointer_(checked(static_cast<const void*>(any.element()))) {}
    /// From a vector pointer.
    template <class V>
    explicit ForeignPointer(VectorPointer<V> any) : pointer_(checked(any.address())) {}
    /// From an integer holding an address.
    template <class I, class = std::enable_if_t<std::is_integral_v<I>>>
    explicit ForeignPointer(I address)
        : pointer_(checked(reinterpret_cast<const void*>(static_cast<std::uintptr_t>(address)))) {}

    operator S*() const noexcept { return pointer_; }  // NOLINT: the cast's result
    S* operator->() const noexcept { return pointer_; }

private:
    static S* checked(const void* address) {
        if (is_block_shared_address(address)) untracked_shared_cast();
        if (detail::output_tracked && detail::is_followed_output(address)) detail::unfollowed_output_cast();
        return static_cast<S*>(const_cast<void*>(address));
    }
    S* pointer_;
};

/// The type a rewritten cast to `S*` makes: a checked DevicePointer for a scalar; for an array of scalars or vectors
/// (`float (*)[T]`, `Tile*`), a pointer to the same array of Shared<T>, whose elements are shared memory's own
/// (shared_view.hpp); else (a struct, int4, a volatile scalar) a ForeignPointer.
template <class S>
using CastPointer = std::conditional_t<std::is_arithmetic_v<std::remove_cv_t<S>> && !std::is_volatile_v<S>,
                                       DevicePointer<S>,
                                       std::conditional_t<is_viewed_array_v<S>, SharedArray<S>*, ForeignPointer<S>>>;

namespace detail {
/// Whether @p X is a pointer to data, `__restrict__` ones included (decltype of a restrict parameter, for which
/// std::is_pointer is false).
template <class X>
constexpr bool is_data_pointer_v =
    std::is_pointer_v<X> ||
    (!std::is_class_v<X> && !std::is_null_pointer_v<X> && std::is_convertible_v<X, const volatile void*>);
/// The address @p pointer holds (to a volatile or const object too).
template <class P>
const void* address_of(P pointer) noexcept {
    return const_cast<const void*>(reinterpret_cast<const volatile void*>(pointer));
}
/// Fails the kernel where @p address, a cast's result whose accesses are not followed, is in the block's shared memory
/// or in P, whose accesses must stay seen (race checks, technique checks, output_reads.hpp).
inline void refuse_unfollowed_address(const void* address) {
    if (is_block_shared_address(address)) untracked_shared_cast();
    if (output_tracked && is_followed_output(address)) unfollowed_output_cast();
}
/// @p value, a cast's result: refused as refuse_unfollowed_address says where it is a pointer.
template <class I>
I checked_result(I value) {
    if constexpr (is_data_pointer_v<I>) refuse_unfollowed_address(address_of(value));
    return value;
}
}  // namespace detail

/// A rewritten `reinterpret_cast<X>(operand)` in device code whose target the rewrite cannot read as a type it
/// checks (a typedef's or a template parameter's name, decltype(...), a reference): that cast, but a pointer or
/// reference it makes may not point into shared memory or P, whose accesses must stay seen.
template <class X, class U>
X checked_reinterpret(U&& operand) {
    X result = reinterpret_cast<X>(operand);
    if constexpr (detail::is_data_pointer_v<X>) detail::refuse_unfollowed_address(detail::address_of(result));
    if constexpr (std::is_reference_v<X>) detail::refuse_unfollowed_address(detail::address_of(&result));
    return static_cast<X>(result);
}
/// ... `const_cast<X>(operand)` likewise (to an alias's pointer type; a cast of a checked pointer does not compile).
template <class X, class U>
X checked_const(U&& operand) {
    X result = const_cast<X>(operand);
    if constexpr (detail::is_data_pointer_v<X>) detail::refuse_unfollowed_address(detail::address_of(result));
    if constexpr (std::is_reference_v<X>) detail::refuse_unfollowed_address(detail::address_of(&result));
    return static_cast<X>(result);
}
/// ... `static_cast<X>(operand)` likewise (a `void*` made a pointer of an alias's type); a cast to a value is that cast.
template <class X, class U>
constexpr X checked_static(U&& operand) {
    if constexpr (detail::is_data_pointer_v<X>) {
        X result = static_cast<X>(std::forward<U>(operand));
        detail::refuse_unfollowed_address(detail::address_of(result));
        return result;
    } else {
        return static_cast<X>(std::forward<U>(operand));
    }
}

/// The result of a rewritten C-style or functional cast in device code to a type named by an alias, a template
/// parameter or decltype (`(fptr)address`), where it is a pointer: the cast's pointer, which may not point into
/// shared memory or P (refuse_unfollowed_address). Converts to @p X as the cast's result would.
template <class X>
class CheckedPointerCast {
public:
    /// The cast of @p operand (a checked pointer, which converts to no plain pointer, does not compile).
    template <class U>
    explicit CheckedPointerCast(const U& operand) : pointer_(detail::checked_result((X)(operand))) {}
    operator X() const noexcept { return pointer_; }  // NOLINT: the cast's result

private:
    X pointer_;
};
/// The type such a cast is rewritten to: CheckedPointerCast for a pointer, @p X itself for anything else.
template <class X>
using CheckedCast = std::conditional_t<detail::is_data_pointer_v<X>, CheckedPointerCast<X>, X>;

/// A rewritten `reinterpret_cast<I>(pointer)` of a plain pointer: that cast (to an alias of a pointer type, `fptr`,
/// a pointer that may not point into shared memory or P: refuse_unfollowed_address).
template <class I, class T>
I address_cast(T* pointer) {
    return detail::checked_result(reinterpret_cast<I>(pointer));
}
/// ... of a `__device__` function's pointer parameter: the address it holds.
template <class I, class T>
I address_cast(DevicePointer<T> pointer) {
    return detail::checked_result(reinterpret_cast<I>(pointer.element()));
}
/// ... of a vector pointer: the address it holds.
template <class I, class V>
I address_cast(VectorPointer<V> pointer) {
    return detail::checked_result(reinterpret_cast<I>(pointer.address()));
}
/// ... of an integer (to its own type, the one such cast C++ allows).
template <class I, class T, class = std::enable_if_t<std::is_integral_v<T> || std::is_enum_v<T>>>
I address_cast(T value) {
    return detail::checked_result(reinterpret_cast<I>(value));
}

}  // namespace tilelab::cpu
