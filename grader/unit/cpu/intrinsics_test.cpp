// The CPU backend's integer and float intrinsics at their edges (tilelab/cpu/device_functions.hpp): NaN, ±inf, ±0,
// values just past the integer range, shift counts 0, 31, 32, 33 and 64. Each expected value is what a GPU returns:
// the PTX instruction nvcc emits for the intrinsic (shf, cvt, prmt, ...) or the result CUDA's Math API documents.
// A difference is a "tell" a kernel could use to run one path on the emulator and another on a GPU.
#include "builtin_kernels.hpp"

#include <tilelab/cpu/device_functions.hpp>
#include <tilelab/device_buffer.hpp>

#include <doctest/doctest.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace {

const float nan_f = std::numeric_limits<float>::quiet_NaN();
const float inf_f = std::numeric_limits<float>::infinity();
const double nan_d = std::numeric_limits<double>::quiet_NaN();
const double inf_d = std::numeric_limits<double>::infinity();
const long long ll_min = LLONG_MIN;
const long long ll_max = LLONG_MAX;

// PTX `shf.{l,r}.{clamp,wrap}.b32 d, lo, hi, c`, as the PTX ISA writes it: n = clamp ? min(c, 32) : c & 31, then
// the high (l) or low (r) 32 bits of the 64-bit hi:lo shifted by n.
unsigned shf(bool left, bool clamp, unsigned lo, unsigned hi, unsigned c) {
    const unsigned n = clamp ? (c < 32 ? c : 32) : c & 31;
    const std::uint64_t both = (static_cast<std::uint64_t>(hi) << 32) | lo;
    return left ? static_cast<unsigned>((both << n) >> 32) : static_cast<unsigned>(both >> n);
}

unsigned bit_reversed(unsigned x) {
    unsigned r = 0;
    for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
    return r;
}

}  // namespace

TEST_SUITE("cpu-intrinsics") {
    TEST_CASE("__funnelshift_lc clamps the shift to 32, where the result is lo") {
        const unsigned lo = 0x89ABCDEFu, hi = 0x01234567u;
        CHECK(__funnelshift_lc(lo, hi, 0) == hi);
        CHECK(__funnelshift_lc(lo, hi, 4) == 0x12345678u);
        CHECK(__funnelshift_lc(lo, hi, 31) == 0xC4D5E6F7u);
        CHECK(__funnelshift_lc(lo, hi, 32) == lo);
        CHECK(__funnelshift_lc(lo, hi, 33) == lo);
        CHECK(__funnelshift_lc(lo, hi, 64) == lo);
        CHECK(__funnelshift_lc(lo, hi, 0xFFFFFFFFu) == lo);
        CHECK(__funnelshift_lc(0u, 256u, 32u) == 0u);  // red team 9's a2 test: 0 on a GPU
    }

    TEST_CASE("__funnelshift_rc clamps the shift to 32, where the result is hi") {
        const unsigned lo = 0x89ABCDEFu, hi = 0x01234567u;
        CHECK(__funnelshift_rc(lo, hi, 0) == lo);
        CHECK(__funnelshift_rc(lo, hi, 4) == 0x789ABCDEu);
        CHECK(__funnelshift_rc(lo, hi, 31) == 0x02468ACFu);
        CHECK(__funnelshift_rc(lo, hi, 32) == hi);
        CHECK(__funnelshift_rc(lo, hi, 33) == hi);
        CHECK(__funnelshift_rc(lo, hi, 64) == hi);
        CHECK(__funnelshift_rc(lo, hi, 0xFFFFFFFFu) == hi);
    }

    TEST_CASE("__funnelshift_l and __funnelshift_r wrap the shift to its low 5 bits") {
        const unsigned lo = 0x89ABCDEFu, hi = 0x01234567u;
        CHECK(__funnelshift_l(lo, hi, 32) == hi);
        CHECK(__funnelshift_l(lo, hi, 33) == __funnelshift_l(lo, hi, 1));
        CHECK(__funnelshift_l(lo, hi, 64) == hi);
        CHECK(__funnelshift_r(lo, hi, 32) == lo);
        CHECK(__funnelshift_r(lo, hi, 33) == __funnelshift_r(lo, hi, 1));
        CHECK(__funnelshift_r(lo, hi, 64) == lo);
    }

    TEST_CASE("every funnel shift matches PTX shf at shift counts 0 to 70") {
        const unsigned pairs[][2] = {{0x89ABCDEFu, 0x01234567u}, {0xFFFFFFFFu, 0u}, {0u, 0xFFFFFFFFu}, {1u, 0x80000000u}};
        for (const auto& pair : pairs) {
            for (unsigned c = 0; c <= 70; ++c) {
                CAPTURE(c);
                CHECK(__funnelshift_l(pair[0], pair[1], c) == shf(true, false, pair[0], pair[1], c));
                CHECK(__funnelshift_lc(pair[0], pair[1], c) == shf(true, true, pair[0], pair[1], c));
                CHECK(__funnelshift_r(pair[0], pair[1], c) == shf(false, false, pair[0], pair[1], c));
                CHECK(__funnelshift_rc(pair[0], pair[1], c) == shf(false, true, pair[0], pair[1], c));
            }
        }
    }

    TEST_CASE("__float2int_rn and the other float-to-int conversions saturate, and NaN gives 0") {
        CHECK(__float2int_rz(3e9f) == INT_MAX);  // red team 9's a4 test: positive on a GPU
        CHECK(__float2int_rn(2147483648.0f) == INT_MAX);  // 2^31, the first float past INT_MAX
        CHECK(__float2int_rn(2147483520.0f) == 2147483520);  // the last float below 2^31
        CHECK(__float2int_rn(-2147483648.0f) == INT_MIN);
        CHECK(__float2int_rn(-2147483904.0f) == INT_MIN);  // the first float past INT_MIN
        CHECK(__float2int_rn(inf_f) == INT_MAX);
        CHECK(__float2int_rn(-inf_f) == INT_MIN);
        CHECK(__float2int_rn(nan_f) == 0);
        CHECK(__float2int_rn(-nan_f) == 0);
        CHECK(__float2int_rn(0.0f) == 0);
        CHECK(__float2int_rn(-0.0f) == 0);
        CHECK(__float2int_rn(-2.5f) == -2);  // ties to even
        for (int (*convert)(float) : {__float2int_rn, __float2int_rz, __float2int_ru, __float2int_rd}) {
            CHECK(convert(3e9f) == INT_MAX);
            CHECK(convert(-3e9f) == INT_MIN);
            CHECK(convert(inf_f) == INT_MAX);
            CHECK(convert(-inf_f) == INT_MIN);
            CHECK(convert(nan_f) == 0);
        }
        CHECK(__float2int_ru(2147483520.0f) == 2147483520);
        CHECK(__float2int_rd(-0.5f) == -1);
        CHECK(__float2int_ru(-0.5f) == 0);
    }

    TEST_CASE("__float2uint_rn and the other float-to-unsigned conversions saturate to 0 and UINT_MAX") {
        for (unsigned (*convert)(float) : {__float2uint_rn, __float2uint_rz, __float2uint_ru, __float2uint_rd}) {
            CHECK(convert(4294967296.0f) == UINT_MAX);  // 2^32
            CHECK(convert(4294967040.0f) == 4294967040u);  // the last float below 2^32
            CHECK(convert(-1.0f) == 0u);
            CHECK(convert(-3e9f) == 0u);
            CHECK(convert(inf_f) == UINT_MAX);
            CHECK(convert(-inf_f) == 0u);
            CHECK(convert(nan_f) == 0u);
            CHECK(convert(-0.0f) == 0u);
        }
        CHECK(__float2uint_rn(-0.7f) == 0u);  // rounds to -1, then saturates
        CHECK(__float2uint_rd(-0.3f) == 0u);
        CHECK(__float2uint_ru(0.3f) == 1u);
    }

    TEST_CASE("__float2ll_rn and the other 64-bit conversions saturate, and NaN gives 0x8000000000000000") {
        for (long long (*convert)(float) : {__float2ll_rn, __float2ll_rz, __float2ll_ru, __float2ll_rd}) {
            CHECK(convert(9.3e18f) == ll_max);  // past 2^63
            CHECK(convert(-9.3e18f) == ll_min);
            CHECK(convert(-9223372036854775808.0f) == ll_min);  // -2^63, in range
            CHECK(convert(inf_f) == ll_max);
            CHECK(convert(-inf_f) == ll_min);
            CHECK(convert(nan_f) == ll_min);
            CHECK(convert(4611686018427387904.0f) == 4611686018427387904ll);  // 2^62
        }
        for (unsigned long long (*convert)(float) : {__float2ull_rn, __float2ull_rz, __float2ull_ru, __float2ull_rd}) {
            CHECK(convert(1.9e19f) == ULLONG_MAX);  // past 2^64
            CHECK(convert(-1.0f) == 0ull);
            CHECK(convert(inf_f) == ULLONG_MAX);
            CHECK(convert(-inf_f) == 0ull);
            CHECK(convert(nan_f) == 0x8000000000000000ull);
        }
        for (long long (*convert)(double) : {__double2ll_rn, __double2ll_rz, __double2ll_ru, __double2ll_rd}) {
            CHECK(convert(9.3e18) == ll_max);
            CHECK(convert(-inf_d) == ll_min);
            CHECK(convert(nan_d) == ll_min);
            CHECK(convert(-9223372036854775808.0) == ll_min);
        }
        for (unsigned long long (*convert)(double) : {__double2ull_rn, __double2ull_rz, __double2ull_ru, __double2ull_rd}) {
            CHECK(convert(1.9e19) == ULLONG_MAX);
            CHECK(convert(-0.9) == 0ull);
            CHECK(convert(nan_d) == 0x8000000000000000ull);
        }
    }

    TEST_CASE("__double2int_rn and the other double-to-int conversions saturate after rounding") {
        CHECK(__double2int_rn(2147483647.4) == INT_MAX);
        CHECK(__double2int_rn(2147483647.5) == INT_MAX);  // rounds to 2^31, then saturates
        CHECK(__double2int_rz(2147483647.9) == INT_MAX);
        CHECK(__double2int_rz(-2147483648.9) == INT_MIN);
        CHECK(__double2int_ru(-2147483648.5) == INT_MIN);
        CHECK(__double2int_rd(-2147483648.5) == INT_MIN);  // rounds to -2^31 - 1, then saturates
        CHECK(__double2int_rd(2147483646.5) == 2147483646);
        for (int (*convert)(double) : {__double2int_rn, __double2int_rz, __double2int_ru, __double2int_rd}) {
            CHECK(convert(1e10) == INT_MAX);
            CHECK(convert(-1e10) == INT_MIN);
            CHECK(convert(inf_d) == INT_MAX);
            CHECK(convert(-inf_d) == INT_MIN);
            CHECK(convert(nan_d) == 0);
            CHECK(convert(-0.0) == 0);
        }
        for (unsigned (*convert)(double) : {__double2uint_rn, __double2uint_rz, __double2uint_ru, __double2uint_rd}) {
            CHECK(convert(4294967296.0) == UINT_MAX);
            CHECK(convert(4294967295.0) == UINT_MAX);
            CHECK(convert(-1.0) == 0u);
            CHECK(convert(nan_d) == 0u);
        }
        CHECK(__double2uint_rn(4294967295.5) == UINT_MAX);
        CHECK(__double2uint_rz(4294967295.5) == UINT_MAX);
        CHECK(__double2uint_rd(-0.5) == 0u);
    }

    TEST_CASE("__int2float_rn and the other int-to-float conversions round as named at the edges") {
        CHECK(__int2float_rn(INT_MAX) == 2147483648.0f);
        CHECK(__int2float_rz(INT_MAX) == 2147483520.0f);
        CHECK(__int2float_rd(INT_MIN) == -2147483648.0f);
        CHECK(__uint2float_rn(UINT_MAX) == 4294967296.0f);
        CHECK(__uint2float_rz(UINT_MAX) == 4294967040.0f);
        CHECK(__uint2float_ru(16777217u) == 16777218.0f);
        CHECK(__double2float_rz(1e300) == std::numeric_limits<float>::max());  // rz never rounds to inf
        CHECK(__double2float_rn(1e300) == inf_f);
        CHECK(__double2float_rd(-1e-300) == -std::numeric_limits<float>::denorm_min());
        CHECK(std::signbit(__double2float_rn(-0.0)));
        CHECK(std::isnan(__double2float_rn(nan_d)));
        CHECK(std::fegetround() == FE_TONEAREST);
    }

    TEST_CASE("__fadd_rn and the other rounding-mode operations keep IEEE's special values") {
        CHECK(std::isnan(__fadd_rn(inf_f, -inf_f)));
        CHECK(std::isnan(__fmul_rz(0.0f, inf_f)));
        CHECK(std::isnan(__fmaf_rn(nan_f, 1.0f, 1.0f)));
        CHECK(__fadd_rd(1.0f, -1.0f) == 0.0f);
        CHECK(std::signbit(__fadd_rd(1.0f, -1.0f)));  // an exact zero sum is -0 rounding down, +0 otherwise
        CHECK(!std::signbit(__fadd_rn(1.0f, -1.0f)));
        CHECK(!std::signbit(__fadd_rn(-0.0f, 0.0f)));
        CHECK(std::signbit(__fadd_rn(-0.0f, -0.0f)));
        CHECK(__fmul_rz(3e38f, 3e38f) == std::numeric_limits<float>::max());
        CHECK(__fmul_rn(3e38f, 3e38f) == inf_f);
        CHECK(__fmul_ru(-3e38f, 3e38f) == -std::numeric_limits<float>::max());
        CHECK(__frcp_rn(0.0f) == inf_f);
        CHECK(__frcp_rn(-0.0f) == -inf_f);
        CHECK(std::signbit(__fsqrt_rn(-0.0f)));
        CHECK(std::isnan(__fsqrt_rn(-1.0f)));
        CHECK(__fdiv_rn(1.0f, -0.0f) == -inf_f);
        CHECK(__fmaf_rz(1e38f, 10.0f, -inf_f) == -inf_f);
        CHECK(__fma_rn(1.0 + 0x1p-27, 1.0 + 0x1p-27, -1.0) == 0x1p-26 + 0x1p-54);  // one rounding, not two
        CHECK(std::fegetround() == FE_TONEAREST);
    }

    TEST_CASE("__saturatef gives +0 for NaN, -0 and negatives, 1 at and past 1") {
        CHECK(__saturatef(nan_f) == 0.0f);
        CHECK(!std::signbit(__saturatef(nan_f)));
        CHECK(!std::signbit(__saturatef(-0.0f)));
        CHECK(!std::signbit(__saturatef(-1e-30f)));
        CHECK(__saturatef(-inf_f) == 0.0f);
        CHECK(__saturatef(inf_f) == 1.0f);
        CHECK(__saturatef(1.0f) == 1.0f);
        CHECK(__saturatef(std::nextafter(1.0f, 0.0f)) == std::nextafter(1.0f, 0.0f));
        CHECK(__saturatef(std::numeric_limits<float>::denorm_min()) == std::numeric_limits<float>::denorm_min());
    }

    TEST_CASE("__fdividef gives 0 for a divisor between 2^126 and 2^128, and NaN for an infinite dividend") {
        CHECK(__fdividef(1.0f, 1e38f) == 0.0f);  // correctly rounded it would be 1e-38
        CHECK(std::signbit(__fdividef(1.0f, -1e38f)));
        CHECK(std::signbit(__fdividef(-1e30f, 1e38f)));
        CHECK(std::isnan(__fdividef(inf_f, 2e38f)));
        CHECK(std::isnan(__fdividef(nan_f, 2e38f)));
        CHECK(__fdividef(1.0f, 0x1p126f) == 0x1p-126f);  // 2^126 itself is in range
        CHECK(__fdividef(6.0f, 3.0f) == 2.0f);
        CHECK(__fdividef(1.0f, 0.0f) == inf_f);
        CHECK(__fdividef(1.0f, inf_f) == 0.0f);
    }

    // A NaN's bits end the thread instead (its bits differ between a GPU and x86: the source check's rule on NaN bits).
    TEST_CASE("__float_as_int and the other reinterpretations keep every bit, -0 included") {
        CHECK(__float_as_uint(-0.0f) == 0x80000000u);
        CHECK(__float_as_int(inf_f) == 0x7F800000);
        CHECK(__int_as_float(1) == std::numeric_limits<float>::denorm_min());
        CHECK(__double_as_longlong(-0.0) == ll_min);
        CHECK(__longlong_as_double(0x7FF0000000000000ll) == inf_d);
    }

    TEST_CASE("__clz, __ffs and __popc at 0, the sign bit and all ones") {
        CHECK(__clz(0) == 32);
        CHECK(__clz(INT_MIN) == 0);
        CHECK(__clz(1) == 31);
        CHECK(__clzll(0) == 64);
        CHECK(__clzll(ll_min) == 0);
        CHECK(__clzll(1) == 63);
        CHECK(__ffs(0) == 0);
        CHECK(__ffs(1) == 1);
        CHECK(__ffs(INT_MIN) == 32);
        CHECK(__ffs(-1) == 1);
        CHECK(__ffsll(0) == 0);
        CHECK(__ffsll(ll_min) == 64);
        CHECK(__popc(0u) == 0);
        CHECK(__popc(~0u) == 32);
        CHECK(__popc(0x80000000u) == 1);
        CHECK(__popcll(0ull) == 0);
        CHECK(__popcll(0x8000000000000001ull) == 2);
    }

    TEST_CASE("__brev and __brevll reverse every bit") {
        CHECK(__brev(0u) == 0u);
        CHECK(__brev(~0u) == ~0u);
        CHECK(__brev(0x80000000u) == 1u);
        for (unsigned x : {0x12345678u, 0x89ABCDEFu, 0x00010000u, 0xF0000001u}) CHECK(__brev(x) == bit_reversed(x));
        CHECK(__brevll(0x0123456789ABCDEFull) == ((static_cast<unsigned long long>(bit_reversed(0x89ABCDEFu)) << 32) |
                                                  bit_reversed(0x01234567u)));
        CHECK(__brevll(1ull << 63) == 1ull);
    }

    TEST_CASE("__byte_perm uses 3 bits of each of the selector's low four nibbles") {
        const unsigned x = 0x33221100u, y = 0x77665544u;
        CHECK(__byte_perm(x, y, 0x3210u) == x);
        CHECK(__byte_perm(x, y, 0x7654u) == y);
        CHECK(__byte_perm(x, y, 0xFFFF3210u) == x);  // the high 16 bits are ignored
        CHECK(__byte_perm(x, y, 0xBA98u) == x);      // and each nibble's top bit (nvcc masks with 0x7777)
        CHECK(__byte_perm(x, y, 0x0000u) == 0x00000000u);
        CHECK(__byte_perm(x, y, 0x4444u) == 0x44444444u);
        CHECK(__byte_perm(x, y, 0x0123u) == 0x00112233u);
    }

    TEST_CASE("__mul24 and __umul24 multiply the low 24 bits and keep the low 32 bits of the product") {
        CHECK(__mul24(0x00800000, 0x00800000) == 0);  // (-2^23)^2 = 2^46: its low 32 bits
        CHECK(__mul24(0x007FFFFF, 0x007FFFFF) == -16777215);  // (2^23 - 1)^2 = 2^46 - 2^24 + 1
        CHECK(__mul24(0x00FFFFFF, 0x00FFFFFF) == 1);  // (-1)^2
        CHECK(__mul24(0x7F000003, 0x12000002) == 6);  // the high 8 bits are ignored
        CHECK(__mul24(-1, 5) == -5);
        CHECK(__umul24(0x00FFFFFFu, 0x00FFFFFFu) == 0xFE000001u);
        CHECK(__umul24(0xFF000000u, 7u) == 0u);
    }

    TEST_CASE("__mulhi, __umulhi, __mul64hi and __umul64hi at the extremes") {
        CHECK(__mulhi(INT_MIN, INT_MIN) == 0x40000000);
        CHECK(__mulhi(INT_MIN, -1) == 0);
        CHECK(__mulhi(INT_MIN, 1) == -1);
        CHECK(__mulhi(INT_MAX, INT_MAX) == 0x3FFFFFFF);
        CHECK(__umulhi(UINT_MAX, UINT_MAX) == 0xFFFFFFFEu);
        CHECK(__umulhi(0x80000000u, 2u) == 1u);
        CHECK(__mul64hi(ll_min, ll_min) == 0x4000000000000000ll);
        CHECK(__mul64hi(ll_min, -1) == 0);
        CHECK(__mul64hi(-1, 1) == -1);
        CHECK(__umul64hi(ULLONG_MAX, ULLONG_MAX) == ULLONG_MAX - 1);
    }

    TEST_CASE("__hadd, __rhadd, __uhadd and __urhadd never overflow, and round down and up") {
        CHECK(__hadd(INT_MAX, INT_MAX) == INT_MAX);
        CHECK(__hadd(INT_MIN, INT_MIN) == INT_MIN);
        CHECK(__hadd(INT_MAX, INT_MIN) == -1);  // floor(-0.5)
        CHECK(__hadd(-1, -2) == -2);
        CHECK(__rhadd(INT_MAX, INT_MAX) == INT_MAX);
        CHECK(__rhadd(INT_MIN, INT_MIN) == INT_MIN);
        CHECK(__rhadd(INT_MAX, INT_MIN) == 0);  // ceil(-0.5)
        CHECK(__rhadd(-1, -2) == -1);
        CHECK(__uhadd(UINT_MAX, UINT_MAX) == UINT_MAX);
        CHECK(__uhadd(UINT_MAX, 0u) == 0x7FFFFFFFu);
        CHECK(__urhadd(UINT_MAX, 0u) == 0x80000000u);
        CHECK(__urhadd(UINT_MAX, UINT_MAX) == UINT_MAX);
    }

    TEST_CASE("__sad and __usad take the absolute difference modulo 2^32, then add z modulo 2^32") {
        CHECK(__sad(INT_MAX, INT_MIN, 0u) == 0xFFFFFFFFu);
        CHECK(__sad(INT_MIN, INT_MAX, 1u) == 0u);
        CHECK(__sad(-5, 5, 0u) == 10u);
        CHECK(__sad(0, 0, UINT_MAX) == UINT_MAX);
        CHECK(__usad(0u, UINT_MAX, 1u) == 0u);
        CHECK(__usad(UINT_MAX, 1u, 0u) == 0xFFFFFFFEu);
    }

    TEST_CASE("a*b + c in device code is one fused multiply-add, as nvcc's default --fmad=true makes it") {
        // e = 1 + 2^-12: e·e = 1 + 2^-11 + 2^-24, whose last term only a fused multiply-add keeps.
        const float e = 1.0f + 0x1p-12f, c = -(1.0f + 0x1p-11f);
        tilelab::DeviceBuffer<float> out(32);
        REQUIRE(product_sum(e, c, out.data()) == cudaSuccess);
        std::vector<float> got(32);
        out.copy_to_host(got.data(), got.size());
#if TILELAB_CPU_CONTRACTS
        for (float value : got) CHECK(value == 0x1p-24f);
#else
        MESSAGE("this build compiles lab code without FMA contraction (cmake/TileLabRunner.cmake said why)");
        for (float value : got) CHECK(value == 0.0f);
#endif
    }
}
