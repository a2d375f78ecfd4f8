/// @file atomics.hpp
/// @brief CUDA's atomic functions on the CPU backend (`atomicAdd`, `atomicSub`, `atomicExch`, `atomicMin`,
/// `atomicMax`, `atomicInc`, `atomicDec`, `atomicCAS`, `atomicAnd`, `atomicOr`, `atomicXor`, and their
/// `_block`/`_system` forms), each returning the old value as CUDA's do.
///
/// On global memory they are real atomic operations: the blocks of a kernel run on several worker threads at
/// once. On a shared-memory element (a `__shared__` array's element, type Shared<T>) the block's threads run one
/// at a time, so the operation itself needs no hardware atomic, but it goes through the race tracking as an
/// atomic access: atomics on one element by several threads in one barrier interval are not a race; a plain read
/// or write of it by another thread in the same interval is (its value depends on the threads' order).
#pragma once

#include <tilelab/cpu/emulator.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace tilelab::cpu {

template <class T>
class Shared;
template <class T>
class DevicePointer;

/// True when @p address lies in the running block's shared memory (scheduler.cpp): a DevicePointer may hold
/// either kind of address, and only global memory needs a hardware atomic.
bool is_block_shared_address(const void* address) noexcept;

/// Records an atomic read-modify-write of @p bytes of shared memory at @p address by the running thread and
/// reports a race when another thread read or wrote it non-atomically since the last barrier (race_check.cpp).
void note_shared_atomic(const void* address, std::size_t bytes) noexcept;

namespace detail {

/// Before an atomic through a pointer: a device buffer's element inside it (or shared memory) goes on; anything else
/// (a static or global variable, a local one) ends the thread with cudaErrorIllegalAddress, saying why.
void check_global_atomic(const void* address, std::size_t bytes);
/// While the technique checks' probe runs: lets the block's other threads run before this one goes on (after a
/// shared-memory atomic), so that the block's threads interleave there as a GPU's warps do.
void yield_to_block();

/// An atomic read-modify-write of the object at @p address: new value = @p update(old), returns the old value.
/// A compare-and-swap loop on the object's bits, which works for floats and doubles as well as integers.
template <class T, class Update>
T atomic_update(T* address, Update update) {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "CUDA's atomics act on 4- or 8-byte values");
    check_global_atomic(address, sizeof(T));
    using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    Bits* word = reinterpret_cast<Bits*>(address);
    Bits expected = __atomic_load_n(word, __ATOMIC_RELAXED);
    for (;;) {
        T old;
        std::memcpy(&old, &expected, sizeof(T));
        const T next = update(old);
        Bits desired;
        std::memcpy(&desired, &next, sizeof(T));
        if (__atomic_compare_exchange_n(word, &expected, desired, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) return old;
    }
}

/// The same on a shared-memory element: one block's threads never run at once, so no hardware atomic is needed.
template <class T, class Update>
T atomic_update(Shared<T>* element, Update update) {
    // An element through a kernel's checked pointer parameter (KernelPointer) is global memory: other blocks' threads
    // run at once, so it takes the hardware atomic.
    if (!is_block_shared_address(element)) return atomic_update(reinterpret_cast<T*>(element), update);
    note_shared_atomic(element, sizeof(T));
    // The old value is a read of shared memory like any other: the technique checks' probe counts it.
    if (operand_probe_on) probe_shared_read(element, sizeof(T));
    T* value = reinterpret_cast<T*>(element);  // Shared<T> holds exactly one T
    const T old = *value;
    *value = scaled_for_shared(static_cast<T>(update(old)));
    // The emulator runs a block's threads one at a time between barriers, which a count of shared atomics would
    // show (one thread's where a GPU's warp gives 32): under the probe, the other threads run in between.
    if (operand_probe_on) yield_to_block();
    return old;
}

}  // namespace detail
}  // namespace tilelab::cpu

// Every atomic takes a global pointer (T*) or a shared element (Shared<T>*); @p P is either.
#define TILELAB_CPU_ATOMIC(name, update)                                                                     \
    template <class T, class V>                                                                              \
    inline T name(T* address, const V& operand) {                                                                   \
        const T value = static_cast<T>(operand);                                                             \
        return ::tilelab::cpu::detail::atomic_update(address, [value](T old) -> T { return update; });       \
    }                                                                                                        \
    template <class T, class V>                                                                              \
    inline T name(::tilelab::cpu::Shared<T>* address, const V& operand) {                                           \
        const T value = static_cast<T>(operand);                                                             \
        return ::tilelab::cpu::detail::atomic_update(address, [value](T old) -> T { return update; });       \
    }                                                                                                        \
    template <class T, class V>                                                                              \
    inline T name(::tilelab::cpu::DevicePointer<T> address, const V& operand) {                                     \
        auto* element = address.element();                                                                  \
        if (::tilelab::cpu::is_block_shared_address(element)) return name(element, operand);                \
        return name(reinterpret_cast<T*>(element), operand);                                                 \
    }                                                                                                        \
    template <class T, class V>                                                                              \
    inline auto name##_block(T address, const V& operand) {                                                            \
        return name(address, operand);                                                                       \
    }                                                                                                        \
    template <class T, class V>                                                                              \
    inline auto name##_system(T address, const V& operand) {                                                        \
        return name(address, operand);                                                                       \
    }

TILELAB_CPU_ATOMIC(atomicAdd, static_cast<T>(old + value))
TILELAB_CPU_ATOMIC(atomicSub, static_cast<T>(old - value))
TILELAB_CPU_ATOMIC(atomicExch, value)
TILELAB_CPU_ATOMIC(atomicMin, value < old ? value : old)
TILELAB_CPU_ATOMIC(atomicMax, old < value ? value : old)
TILELAB_CPU_ATOMIC(atomicAnd, static_cast<T>(old & value))
TILELAB_CPU_ATOMIC(atomicOr, static_cast<T>(old | value))
TILELAB_CPU_ATOMIC(atomicXor, static_cast<T>(old ^ value))
/// atomicInc: ((old >= value) ? 0 : old + 1); atomicDec: ((old == 0 || old > value) ? value : old - 1).
TILELAB_CPU_ATOMIC(atomicInc, static_cast<T>(old >= value ? 0 : old + 1))
TILELAB_CPU_ATOMIC(atomicDec, static_cast<T>((old == 0 || old > value) ? value : old - 1))
#undef TILELAB_CPU_ATOMIC

/// atomicCAS: stores @p value where the old value equals @p compare; returns the old value.
template <class T, class C, class V>
inline T atomicCAS(T* address, const C& compare, const V& value) {
    const T c = static_cast<T>(compare), v = static_cast<T>(value);
    return ::tilelab::cpu::detail::atomic_update(address, [c, v](T old) -> T { return old == c ? v : old; });
}
template <class T, class C, class V>
inline T atomicCAS(::tilelab::cpu::Shared<T>* address, const C& compare, const V& value) {
    const T c = static_cast<T>(compare), v = static_cast<T>(value);
    return ::tilelab::cpu::detail::atomic_update(address, [c, v](T old) -> T { return old == c ? v : old; });
}
template <class T, class C, class V>
inline T atomicCAS(::tilelab::cpu::DevicePointer<T> address, const C& compare, const V& value) {
    auto* element = address.element();
    if (::tilelab::cpu::is_block_shared_address(element)) return atomicCAS(element, compare, value);
    return atomicCAS(reinterpret_cast<T*>(element), compare, value);
}
template <class T, class C, class V>
inline auto atomicCAS_block(T address, const C& compare, const V& value) {
    return atomicCAS(address, compare, value);
}
template <class T, class C, class V>
inline auto atomicCAS_system(T address, const C& compare, const V& value) {
    return atomicCAS(address, compare, value);
}
