/// @file gate_data.hpp
/// @brief The performance gate's operands and its digest of a result, computed the same way on the device (by the
/// kit's code in the program that times a kernel) and on the host (by the checker, which verifies).
///
/// Each timed request of the gate multiplies operands drawn afresh from a seed the checker picks after the last
/// reply, so no program can know a request's result before it has computed it; the reply carries a digest of every
/// bit of each result, which the checker recomputes from a result it downloads afterwards. Plain integer
/// arithmetic only, so both sides agree bit for bit.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
/// The gate's data functions run on the host and on the device alike (nvcc builds them for both).
#define TILELAB_GATE_HD __host__ __device__
#else
/// The gate's data functions, host only where nvcc does not compile them.
#define TILELAB_GATE_HD
#endif

namespace tilelab::gate {

/// Which operand of an operand set an element belongs to.
enum class Operand : std::uint32_t { M = 1, N = 2 };

/// A 64-bit mixer (splitmix64's finaliser): every input bit changes about half the output bits.
TILELAB_GATE_HD inline std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

/// Element @p index (row-major) of operand @p which of operand set @p set drawn from @p seed: a multiple of 2⁻²³
/// in [-1, 1), exact in float, so the checker's float64 reference sees the very values the kernel multiplied.
TILELAB_GATE_HD inline float operand_value(std::uint64_t seed, std::uint32_t set, Operand which, std::uint64_t index) {
    const std::uint64_t h = mix(seed ^ mix((static_cast<std::uint64_t>(set) << 34) ^
                                           (static_cast<std::uint64_t>(which) << 32) ^ mix(index)));
    return static_cast<float>(static_cast<std::int32_t>(h >> 40) - (1 << 23)) * (1.0f / 8388608.0f);
}

/// One element's share of a result's digest: its bits and its place, mixed. The digest is the wrapping sum of the
/// shares, so its order does not matter (the device adds them in any order) and a changed bit anywhere changes it.
TILELAB_GATE_HD inline std::uint64_t digest_share(std::uint32_t bits, std::uint64_t index) {
    return mix((index << 32) ^ bits ^ 0x9e3779b97f4a7c15ULL);
}

/// The digest of @p count floats on the host (the checker's side of gate_device.cu's).
inline std::uint64_t digest(const float* values, std::uint64_t count) {
    std::uint64_t sum = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
        std::uint32_t bits;
        std::memcpy(&bits, values + i, sizeof bits);
        sum += digest_share(bits, i);
    }
    return sum;
}

}  // namespace tilelab::gate
