/// @file warp.hpp
/// @brief CUDA's warp-level functions on the CPU backend: `__syncwarp`, the shuffles (`__shfl_sync`,
/// `__shfl_up_sync`, `__shfl_down_sync`, `__shfl_xor_sync`), the votes (`__ballot_sync`, `__all_sync`,
/// `__any_sync`), `__activemask`, and the integer reductions of sm_80 (`__reduce_add_sync`, ...).
///
/// The threads of a block run one after another as fibers (emulator.hpp), so a warp-level function is a
/// rendezvous: the calling thread waits there until every lane its mask names (lanes are threads
/// 32·w … 32·w + 31 of the block in linear order, as on a GPU) has reached the same call with the same mask;
/// then each gets its result (the value of the lane it reads, the vote) and runs on. A lane named in a mask that
/// returns from the kernel, waits at a __syncthreads(), or waits at another warp call instead is reported as
/// barrier divergence, with where each lane was. Lanes past the end of the block (a block of 48 threads has a
/// second warp of 16) are left out of every mask, as a GPU has no such lanes. A lane that reads a lane which did
/// not take part gets its own value back.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace tilelab::cpu {

/// What a warp-level call does with the values of the lanes that meet there.
enum class WarpOp : std::uint8_t {
    sync,        ///< nothing: a barrier for the lanes named
    shfl,        ///< read lane (argument mod width) of the caller's segment of width lanes
    shfl_up,     ///< read lane − argument, within the segment (own value below it)
    shfl_down,   ///< read lane + argument, within the segment (own value past it)
    shfl_xor,    ///< read lane XOR argument (own value past the segment)
    ballot,      ///< the mask of lanes whose value is non-zero
    all,         ///< 1 when every lane's value is non-zero
    any,         ///< 1 when some lane's value is non-zero
    reduce_add,  ///< sum of the lanes' (unsigned) values
    reduce_min,  ///< smallest (signed when is_signed)
    reduce_max,  ///< largest
    reduce_and,  ///< bitwise and
    reduce_or,   ///< bitwise or
    reduce_xor,  ///< bitwise xor
    matrix,      ///< a warp matrix function (<mma.h>): all 32 lanes, with equal keys; see WarpCollective
};

/// A lane's part in a warp-collective operation (WarpOp::matrix: the warp matrix functions of <mma.h>): what every
/// lane must give alike, and the work the warp does once all its lanes are there.
struct WarpCollective {
    std::uint64_t key[3];                  ///< What the lanes must agree on (an address, a leading dimension, a kind).
    void* lane;                            ///< This lane's own operands (its fragments), for run.
    void (*run)(void* const lanes[32]);    ///< Called once, with every lane's `lane`, when the keys agree (may be null).
    int first = -1;                        ///< Set at the meeting when keys differ: the lowest lane ...
    int differs = -1;                      ///< ... and the first lane whose key differs from that lane's (-1: none).
    std::uint64_t first_key[3] = {};       ///< The key of lane `first`.
    std::uint64_t differs_key[3] = {};     ///< The key of lane `differs`.
};

/// One lane's part in a warp-level call.
struct WarpCall {
    const char* file;     ///< Where it is called (for the divergence report and to match lanes' calls).
    int line;
    const char* name;     ///< The CUDA function, e.g. "__shfl_down_sync".
    unsigned mask;        ///< The lanes named.
    WarpOp op;
    bool is_signed;       ///< For reduce_min/max: compare as int.
    std::uint64_t value;  ///< This lane's value (bits).
    int argument;         ///< Source lane, delta or lane mask.
    int width;            ///< Segment width for shuffles (a power of two up to 32).
    std::uint64_t result; ///< Filled in when the lanes meet.
    WarpCollective* collective = nullptr;  ///< For WarpOp::matrix: the lane's operands and the warp's work.
};

/// The running thread's part in a warp-level call: waits until the lanes meet (scheduler.cpp) and returns the
/// call's result bits. Outside a kernel it returns the caller's own value.
std::uint64_t warp_call(WarpCall call);

/// The lanes of the running thread's warp that exist (all 32 but in a block's last, partial warp).
unsigned active_lanes() noexcept;

namespace detail {
template <class T>
std::uint64_t to_bits(T value) noexcept {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "a warp shuffle moves a value of at most 8 bytes");
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    return bits;
}
template <class T>
T from_bits(std::uint64_t bits) noexcept {
    T value;
    std::memcpy(&value, &bits, sizeof(T));
    return value;
}
template <class T>
T shuffle(const char* name, WarpOp op, unsigned mask, T var, int argument, int width, const char* file, int line) {
    return from_bits<T>(warp_call(WarpCall{file, line, name, mask, op, false, to_bits(var), argument, width, 0}));
}
inline unsigned vote(const char* name, WarpOp op, unsigned mask, std::uint64_t value, bool is_signed,
                     const char* file, int line) {
    return static_cast<unsigned>(warp_call(WarpCall{file, line, name, mask, op, is_signed, value, 0, 32, 0}));
}
}  // namespace detail

}  // namespace tilelab::cpu

// The caller's file and line come in as default arguments (__builtin_FILE, which GCC and Clang have), so that
// cooperative groups' member functions report their caller too.

/// Waits until every lane in @p mask has reached this __syncwarp().
inline void __syncwarp(unsigned mask = 0xFFFFFFFFu, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    ::tilelab::cpu::warp_call(::tilelab::cpu::WarpCall{file, line, "__syncwarp", mask, ::tilelab::cpu::WarpOp::sync,
                                                       false, 0, 0, 32, 0});
}
template <class T>
inline T __shfl_sync(unsigned mask, T var, int src_lane, int width = 32, const char* file = __builtin_FILE(),
                     int line = __builtin_LINE()) {
    return ::tilelab::cpu::detail::shuffle("__shfl_sync", ::tilelab::cpu::WarpOp::shfl, mask, var, src_lane, width, file, line);
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32, const char* file = __builtin_FILE(),
                        int line = __builtin_LINE()) {
    return ::tilelab::cpu::detail::shuffle("__shfl_up_sync", ::tilelab::cpu::WarpOp::shfl_up, mask, var,
                                           static_cast<int>(delta), width, file, line);
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32, const char* file = __builtin_FILE(),
                          int line = __builtin_LINE()) {
    return ::tilelab::cpu::detail::shuffle("__shfl_down_sync", ::tilelab::cpu::WarpOp::shfl_down, mask, var,
                                           static_cast<int>(delta), width, file, line);
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32, const char* file = __builtin_FILE(),
                         int line = __builtin_LINE()) {
    return ::tilelab::cpu::detail::shuffle("__shfl_xor_sync", ::tilelab::cpu::WarpOp::shfl_xor, mask, var, lane_mask,
                                           width, file, line);
}
inline unsigned __ballot_sync(unsigned mask, int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return ::tilelab::cpu::detail::vote("__ballot_sync", ::tilelab::cpu::WarpOp::ballot, mask, predicate != 0, false, file, line);
}
inline int __all_sync(unsigned mask, int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return static_cast<int>(::tilelab::cpu::detail::vote("__all_sync", ::tilelab::cpu::WarpOp::all, mask, predicate != 0, false, file, line));
}
inline int __any_sync(unsigned mask, int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return static_cast<int>(::tilelab::cpu::detail::vote("__any_sync", ::tilelab::cpu::WarpOp::any, mask, predicate != 0, false, file, line));
}
/// The lanes of the caller's warp that are running: here every lane of the warp that exists (the emulator
/// does not track divergence inside a warp between rendezvous).
inline unsigned __activemask() { return ::tilelab::cpu::active_lanes(); }

#define TILELAB_CPU_REDUCE(name, op, type, is_signed)                                                          \
    inline type name(unsigned mask, type value, const char* file = __builtin_FILE(), int line = __builtin_LINE()) { \
        return static_cast<type>(::tilelab::cpu::detail::vote(#name, ::tilelab::cpu::WarpOp::op, mask,         \
                                                              static_cast<std::uint64_t>(static_cast<std::int64_t>(value)), \
                                                              is_signed, file, line));                          \
    }
TILELAB_CPU_REDUCE(__reduce_add_sync, reduce_add, unsigned, false)
TILELAB_CPU_REDUCE(__reduce_add_sync, reduce_add, int, true)
TILELAB_CPU_REDUCE(__reduce_min_sync, reduce_min, unsigned, false)
TILELAB_CPU_REDUCE(__reduce_min_sync, reduce_min, int, true)
TILELAB_CPU_REDUCE(__reduce_max_sync, reduce_max, unsigned, false)
TILELAB_CPU_REDUCE(__reduce_max_sync, reduce_max, int, true)
TILELAB_CPU_REDUCE(__reduce_and_sync, reduce_and, unsigned, false)
TILELAB_CPU_REDUCE(__reduce_or_sync, reduce_or, unsigned, false)
TILELAB_CPU_REDUCE(__reduce_xor_sync, reduce_xor, unsigned, false)
#undef TILELAB_CPU_REDUCE
