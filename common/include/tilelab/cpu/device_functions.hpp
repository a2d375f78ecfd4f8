/// @file device_functions.hpp
/// @brief CUDA's device built-ins that need no scheduling, on the CPU backend: the read-only and cache-hinted
/// loads (`__ldg`, `__ldcg`, ...), the rounding-mode and fast-math intrinsics (`__fmaf_rn`, `__fdividef`,
/// `__expf`, ...), conversions and reinterpretations (`__float2int_rn`, `__float_as_int`, ...), the bit
/// intrinsics (`__popc`, `__clz`, `__ffs`, `__brev`, ...) and memory fences (`__threadfence`).
///
/// Each gives the result CUDA documents for it. A fast-math intrinsic (`__expf`, `__fdividef`, ...) returns the
/// correctly rounded result here where a GPU returns an approximation within its documented error: a kernel that
/// passes the grader's tolerance on a GPU passes it here too. Rounding modes other than to-nearest are applied
/// with the C floating-point environment around one operation.
#pragma once

#include <tilelab/cpu/vector_access.hpp>

#include <math.h>

#include <atomic>
#include <cfenv>
#include <cstdint>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

namespace tilelab::cpu {
template <class T>
class Shared;
}  // namespace tilelab::cpu

/// @name Loads through the read-only (or another) cache: on the CPU backend an ordinary load.
/// @{
/// `__ldg(&p[i])`: the value at @p p (any type: float, float2, float4, int, ...).
template <class T>
inline T __ldg(const T* p) {
    return *p;
}
/// `__ldg(&M[i])` through a checked pointer (a kernel's or a `__device__` function's parameter): the element, read
/// as every access through it is (seen, and checked where it is shared memory).
template <class T>
inline T __ldg(const ::tilelab::cpu::Shared<T>* p) {
    return static_cast<T>(*p);
}
/// `__ldg` of a vector pointer the build rewrote into a checked one (`__ldg(reinterpret_cast<const float4*>(p))`).
template <class V>
inline std::remove_const_t<V> __ldg(::tilelab::cpu::VectorPointer<V> p) {
    return static_cast<std::remove_const_t<V>>(p[0]);
}
#define TILELAB_CPU_LOAD_ALIAS(name)                                                   \
    template <class T>                                                                 \
    inline auto name(T p) -> decltype(__ldg(p)) {                                      \
        return __ldg(p);                                                               \
    }
TILELAB_CPU_LOAD_ALIAS(__ldcg)
TILELAB_CPU_LOAD_ALIAS(__ldca)
TILELAB_CPU_LOAD_ALIAS(__ldcs)
TILELAB_CPU_LOAD_ALIAS(__ldlu)
TILELAB_CPU_LOAD_ALIAS(__ldcv)
#undef TILELAB_CPU_LOAD_ALIAS
/// Stores with a cache hint (`__stcg(&p[i], v)`): an ordinary store.
#define TILELAB_CPU_STORE_ALIAS(name)                 \
    template <class T>                                \
    inline void name(T* p, T value) {                 \
        *p = value;                                   \
    }
TILELAB_CPU_STORE_ALIAS(__stcg)
TILELAB_CPU_STORE_ALIAS(__stwb)
TILELAB_CPU_STORE_ALIAS(__stcs)
TILELAB_CPU_STORE_ALIAS(__stwt)
#undef TILELAB_CPU_STORE_ALIAS
/// @}

namespace tilelab::cpu::detail {
/// Runs @p op (one arithmetic operation on its volatile operands) under the rounding mode @p mode (FE_TONEAREST,
/// FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD), restoring the caller's mode after. Volatile operands keep the
/// compiler from folding or moving the operation out of the mode's scope.
template <class Op>
inline auto with_rounding(int mode, Op op) {
    const int saved = std::fegetround();
    std::fesetround(mode);
    volatile auto result = op();
    std::fesetround(saved);
    return result;
}

/// PTX `cvt.{rni,rzi,rpi,rmi}.{s32,u32,s64,u64}.{f32,f64}`, which every float-to-integer intrinsic is: @p x rounded
/// to an integer under @p mode, then clamped to I's range (`cvt` saturates float-to-integer conversions by default;
/// x86's conversions give 0x80...0 instead, and C++'s are undefined out of range). NaN gives 0 for a 32-bit result
/// and 0x8000000000000000 for a 64-bit one, signed or not, as the PTX ISA and cuda_fp16.hpp's `__half2ll_rz` and
/// `__half2ull_rz` say (CUDA's Math API calls out-of-range conversions undefined; this is what the hardware gives).
template <class I, class F>
inline I to_integer(int mode, F value) {
    static_assert(std::is_integral_v<I> && std::is_floating_point_v<F>);
    if (value != value) return sizeof(I) == 8 ? static_cast<I>(1ull << 63) : I{0};
    volatile F x = value;
    const F rounded = with_rounding(mode, [&] { return std::nearbyint(static_cast<F>(x)); });
    const F past_max = std::ldexp(F{1}, std::numeric_limits<I>::digits);  // 2^31, 2^32, 2^63 or 2^64: exact
    if (rounded >= past_max) return std::numeric_limits<I>::max();
    if (std::is_signed_v<I> ? rounded <= -past_max : rounded <= F{0}) return std::numeric_limits<I>::min();
    return static_cast<I>(rounded);
}
}  // namespace tilelab::cpu::detail

/// @name Single- and double-precision arithmetic with a rounding mode: _rn nearest, _rz toward zero, _ru up,
/// _rd down. They are never contracted into a fused multiply-add, as in CUDA. The conversions to an integer
/// (`__float2int_rn`, `__double2ull_rz`, ...) saturate, NaN giving 0 (0x8000000000000000 for 64 bits), as PTX's
/// `cvt` does (detail::to_integer).
/// @{
#define TILELAB_CPU_ROUNDED(suffix, mode)                                                                          \
    inline float __fadd_##suffix(float a, float b) {                                                               \
        volatile float x = a, y = b;                                                                               \
        return ::tilelab::cpu::detail::with_rounding(mode, [&] { return x + y; });                                 \
    }                                                                                                              \
    inline float __fsub_##suffix(float a, float b) {                                                               \
        volatile float x = a, y = b;                                                                               \
        return ::tilelab::cpu::detail::with_rounding(mode, [&] { return x - y; });                                 \
    }                                                                                                              \
    inline float __fmul_##suffix(float a, float b) {                                                               \
        volatile float x = a, y = b;                                                                               \
        return ::tilelab::cpu::detail::with_rounding(mode, [&] { return x * y; });                                 \
    }                                                                                                              \
    inline float __fdiv_##suffix(float a, float b) {                                                               \
        volatile float x = a, y = b;                                                                               \
        return ::tilelab::cpu::detail::with_rounding(mode, [&] { return x / y; });                                 \
    }                                                                                                              \
    inline float __fmaf_##suffix(float a, float b, float c) {                                                      \
        volatile float x = a, y = b, z = c;                                                                        \
        return ::tilelab::cpu::detail::with_rounding(mode, [&] { return ::fmaf(x, y, z); });                       \
    }                                                                                                              \
    inline float __frcp_##suffix(float a) {                                                                        \
        volatile float x = a;                                                                                      \
        return ::tilelab::cpu::detail::with_rounding(mode, [&] { return 1.0f / x; });                              \
    }                                                                                                              \
    inline float __fsqrt_##suffix(float a) {                                                                       \
        volatile float x = a;                                                                                      \
        return ::tilelab::cpu::detail::with_rounding(mode, [&] { return ::sqrtf(x); });                            \
    }                                                                                                              \
    inline double __dadd_##suffix(double a, double b) {                                                            \
        volatile double x = a, y = b;                                                                              \
        return ::tilelab::cpu::detail::with_rounding(mode, [&] { return x + y; });                                 \
    }                                                                                                              \
    inline double __dsub_##suffix(double a, double b) {                                                            \
        volatile double x = a, y = b;                                                                              \
        return ::tilelab::cpu::detail::with_rounding(mode, [&] { return x - y; });                                 \
    }                                                                                                              \
    inline double __dmul_##suffix(double a, double b) {                                                            \
        volatile double x = a, y = b;                                                                              \
        return ::tilelab::cpu::detail::with_rounding(mode, [&] { return x * y; });                                 \
    }                                                                                                              \
    inline double __ddiv_##suffix(double a, double b) {                                                            \
        volatile double x = a, y = b;                                                                              \
        return ::tilelab::cpu::detail::with_rounding(mode, [&] { return x / y; });                                 \
    }                                                                                                              \
    inline double __fma_##suffix(double a, double b, double c) {                                                   \
        volatile double x = a, y = b, z = c;                                                                       \
        return ::tilelab::cpu::detail::with_rounding(mode, [&] { return ::fma(x, y, z); });                        \
    }                                                                                                              \
    inline int __float2int_##suffix(float a) { return ::tilelab::cpu::detail::to_integer<int>(mode, a); }        \
    inline unsigned __float2uint_##suffix(float a) {                                                               \
        return ::tilelab::cpu::detail::to_integer<unsigned>(mode, a);                                              \
    }                                                                                                              \
    inline long long __float2ll_##suffix(float a) { return ::tilelab::cpu::detail::to_integer<long long>(mode, a); } \
    inline unsigned long long __float2ull_##suffix(float a) {                                                      \
        return ::tilelab::cpu::detail::to_integer<unsigned long long>(mode, a);                                    \
    }                                                                                                              \
    inline int __double2int_##suffix(double a) { return ::tilelab::cpu::detail::to_integer<int>(mode, a); }      \
    inline unsigned __double2uint_##suffix(double a) {                                                             \
        return ::tilelab::cpu::detail::to_integer<unsigned>(mode, a);                                              \
    }                                                                                                              \
    inline long long __double2ll_##suffix(double a) {                                                              \
        return ::tilelab::cpu::detail::to_integer<long long>(mode, a);                                             \
    }                                                                                                              \
    inline unsigned long long __double2ull_##suffix(double a) {                                                    \
        return ::tilelab::cpu::detail::to_integer<unsigned long long>(mode, a);                                    \
    }                                                                                                              \
    inline float __int2float_##suffix(int a) {                                                                     \
        volatile int x = a;                                                                                        \
        return ::tilelab::cpu::detail::with_rounding(mode, [&] { return static_cast<float>(x); });                 \
    }                                                                                                              \
    inline float __uint2float_##suffix(unsigned a) {                                                               \
        volatile unsigned x = a;                                                                                   \
        return ::tilelab::cpu::detail::with_rounding(mode, [&] { return static_cast<float>(x); });                 \
    }                                                                                                              \
    inline float __double2float_##suffix(double a) {                                                               \
        volatile double x = a;                                                                                     \
        return ::tilelab::cpu::detail::with_rounding(mode, [&] { return static_cast<float>(x); });                 \
    }
TILELAB_CPU_ROUNDED(rn, FE_TONEAREST)
TILELAB_CPU_ROUNDED(rz, FE_TOWARDZERO)
TILELAB_CPU_ROUNDED(ru, FE_UPWARD)
TILELAB_CPU_ROUNDED(rd, FE_DOWNWARD)
#undef TILELAB_CPU_ROUNDED
/// @}

/// @name Fast-math intrinsics: correctly rounded here (a GPU's are approximations within a documented error).
/// @{
/// PTX `div.approx.f32`, x times the approximate reciprocal of y, whose documented edges are kept: for
/// 2^126 < |y| < 2^128 the reciprocal is 0 (a signed zero), so a finite x gives a signed 0 and an infinite one NaN.
inline float __fdividef(float a, float b) {
    const float magnitude = ::fabsf(b);
    if (magnitude > 0x1p126f && magnitude < 0x1p127f * 2.0f) return a * ::copysignf(0.0f, b);
    return a / b;
}
inline float __expf(float x) { return ::expf(x); }
inline float __exp10f(float x) { return ::powf(10.0f, x); }
inline float __logf(float x) { return ::logf(x); }
inline float __log2f(float x) { return ::log2f(x); }
inline float __log10f(float x) { return ::log10f(x); }
inline float __sinf(float x) { return ::sinf(x); }
inline float __cosf(float x) { return ::cosf(x); }
inline float __tanf(float x) { return ::tanf(x); }
inline void __sincosf(float x, float* s, float* c) { *s = ::sinf(x); *c = ::cosf(x); }
inline float __powf(float x, float y) { return ::powf(x, y); }
/// Clamps to [+0, 1]: +0 for x <= 0 (-0 included) and for NaN, as CUDA's Math API says.
inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }
inline float rsqrtf(float x) { return 1.0f / ::sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / ::sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / ::cbrtf(x); }
inline float fdividef(float a, float b) { return a / b; }
inline float saturatef(float x) { return __saturatef(x); }
/// @}

namespace tilelab::cpu {
/// Ends the running CUDA thread: @p intrinsic was given a NaN, whose bits (sign and payload) a GPU and x86 give
/// differently (a GPU's arithmetic makes 0x7FFFFFFF, x86's 0xFFC00000), so that no answer would be a GPU's.
[[noreturn]] void nan_bits_read(const char* intrinsic);
}  // namespace tilelab::cpu

/// @name Reinterpretations: the same bits as another type. A NaN's bits are the kernel's failure: a GPU's arithmetic
/// makes another NaN than x86's, and a matrix product never reads one's bits.
/// @{
inline int __float_as_int(float x) {
    if (x != x) ::tilelab::cpu::nan_bits_read("__float_as_int");
    int r;
    std::memcpy(&r, &x, 4);
    return r;
}
inline unsigned __float_as_uint(float x) {
    if (x != x) ::tilelab::cpu::nan_bits_read("__float_as_uint");
    unsigned r;
    std::memcpy(&r, &x, 4);
    return r;
}
inline float __int_as_float(int x) { float r; std::memcpy(&r, &x, 4); return r; }
inline float __uint_as_float(unsigned x) { float r; std::memcpy(&r, &x, 4); return r; }
inline long long __double_as_longlong(double x) {
    if (x != x) ::tilelab::cpu::nan_bits_read("__double_as_longlong");
    long long r;
    std::memcpy(&r, &x, 8);
    return r;
}
inline double __longlong_as_double(long long x) { double r; std::memcpy(&r, &x, 8); return r; }
/// @}

/// @name Bit intrinsics, with CUDA's results at the edges (__clz(0) is 32, __ffs(0) is 0), checked against PTX and
/// libdevice in grader/unit/cpu/intrinsics_test.cpp.
/// @{
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
    return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x) {
    return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) | __brev(static_cast<unsigned>(x >> 32));
}
/// Byte @p s's low four nibbles select bytes of {y, x} (8 bytes, x the low four), 3 bits each: nvcc masks the
/// selector with 0x7777 before PTX `prmt`, so a nibble's top bit never sign-replicates.
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
    const unsigned long long bytes = (static_cast<unsigned long long>(y) << 32) | x;
    unsigned result = 0;
    for (int i = 0; i < 4; ++i) result |= static_cast<unsigned>((bytes >> (8 * ((s >> (4 * i)) & 7))) & 0xFF) << (8 * i);
    return result;
}
/// PTX `shf.l.wrap.b32`: the high 32 bits of hi:lo shifted left by shift & 31.
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
    const unsigned long long both = (static_cast<unsigned long long>(hi) << 32) | lo;
    return static_cast<unsigned>((both << (shift & 31)) >> 32);
}
/// PTX `shf.r.wrap.b32`: the low 32 bits of hi:lo shifted right by shift & 31.
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
    const unsigned long long both = (static_cast<unsigned long long>(hi) << 32) | lo;
    return static_cast<unsigned>(both >> (shift & 31));
}
/// PTX `shf.l.clamp.b32`: the high 32 bits of hi:lo shifted left by min(shift, 32), so lo from 32 on.
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) { return shift >= 32 ? lo : __funnelshift_l(lo, hi, shift); }
/// PTX `shf.r.clamp.b32`: the low 32 bits of hi:lo shifted right by min(shift, 32), so hi from 32 on.
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) { return shift >= 32 ? hi : __funnelshift_r(lo, hi, shift); }
/// The low 24 bits of each operand, sign-extended, multiplied; the product's low 32 bits (libdevice's __nv_mul24,
/// on a GPU's 32-bit multiply: (-2^23)^2 wraps to 0, never C++'s signed overflow).
inline int __mul24(int x, int y) {
    const long long a = static_cast<int>(static_cast<unsigned>(x) << 8) >> 8, b = static_cast<int>(static_cast<unsigned>(y) << 8) >> 8;
    return static_cast<int>(static_cast<unsigned>(static_cast<unsigned long long>(a * b)));
}
inline unsigned __umul24(unsigned x, unsigned y) { return (x & 0xFFFFFFu) * (y & 0xFFFFFFu); }
inline int __mulhi(int x, int y) { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
inline unsigned __umulhi(unsigned x, unsigned y) { return static_cast<unsigned>((static_cast<unsigned long long>(x) * y) >> 32); }
inline long long __mul64hi(long long x, long long y) { return static_cast<long long>((static_cast<__int128>(x) * y) >> 64); }
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
    return static_cast<unsigned long long>((static_cast<unsigned __int128>(x) * y) >> 64);
}
inline int __hadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
inline int __rhadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1); }
inline unsigned __uhadd(unsigned x, unsigned y) { return static_cast<unsigned>((static_cast<unsigned long long>(x) + y) >> 1); }
inline unsigned __urhadd(unsigned x, unsigned y) { return static_cast<unsigned>((static_cast<unsigned long long>(x) + y + 1) >> 1); }
/// PTX `sad.s32`: |x - y| + z modulo 2^32 (|INT_MAX - INT_MIN| is 0xFFFFFFFF), without C++'s signed overflow.
inline unsigned __sad(int x, int y, unsigned z) {
    const unsigned a = static_cast<unsigned>(x), b = static_cast<unsigned>(y);
    return (x > y ? a - b : b - a) + z;
}
inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }
/// @}

/// @name Memory fences: blocks run on several worker threads at once, so a fence is a real one.
/// @{
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }
/// @}
