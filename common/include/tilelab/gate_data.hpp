/// @file gate_data.hpp
/// @brief The performance gate's operands and its digest of a result, computed the same way on the device (by the
/// kit's code in the program that times a kernel) and on the host (by the checker, which verifies).
///
/// Each timed request of the gate multiplies operands drawn afresh from a seed the checker picks after the last
/// reply, so no program can know a request's result before it has computed it; the reply carries a digest of every
/// bit of each result (result_digest), which the checker recomputes from a result it reads back afterwards. Plain
/// integer arithmetic only, so both sides agree bit for bit.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

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

/// The bits of a float (memcpy on the host, the intrinsic on the device: both exact).
TILELAB_GATE_HD inline float float_from_bits(std::uint32_t bits) {
#if defined(__CUDA_ARCH__)
    return __uint_as_float(bits);
#else
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
#endif
}

/// @name The gate's operands: chosen so that a reduced-precision path shows
/// The gate's timed results are checked against float64 at the lab's precision (grader/gate/gate_audit.hpp), so the
/// operands make every rounding below that precision err in one direction, by a known share of each term:
/// - every element is positive, 2^e × (1 + f), f < 1/4 (the top two bits of the fraction clear), so Σ|m·n| is
///   the product itself and no term's error cancels another's;
/// - fraction bits 2^-8..2^-10 (kept by TF32 and FP16, dropped by BF16) are 0, 1, 1: what BF16 drops lies in
///   [0.859, 0.875) of its half-step, so BF16, rounded to nearest or truncated, always rounds down, by more than
///   0.68 × 2^-8 of the element;
/// - fraction bits 2^-11..2^-14 (dropped by TF32 and FP16) are 0, 1, 1, 1: what TF32 drops lies in [0.875, 1) of
///   its half-step, so TF32 (cvt.rna, or the tensor cores' truncation of an unconverted float) and FP16 always
///   round down, by more than 0.7 × 2^-11 of the element (and by less than 2^-11, TF32's unit roundoff, so a TF32
///   lab's tolerance holds);
/// - fraction bits 2^-3..2^-7 are random, and 2^-15..2^-23 a check of all the others (operand_check_bits), so that
///   the CPU backend's probe knows an operand from a value a kernel computed (tilelab/cpu/operand_probe.hpp): with
///   the fixed bits, one computed float in 2^17 passes for an operand by chance;
/// - the exponent e is s_k for M's column k and -s_k for N's row k, s_k drawn in [-24, 24] for each inner
///   position k (inner_exponent): every product m·n is 1 × (1 + f)(1 + f') whatever k, while M and N span 49
///   binades, more than FP16 holds (30 normal, 40 with subnormals), so FP16 inputs overflow or flush for some k
///   whatever one scale is applied to each operand. Every value is exact in float32 and float64 (no subnormals).
/// @{

/// The exponent s_k of inner position @p k of operand set @p set drawn from @p seed: M's column k is scaled by
/// 2^s_k, N's row k by 2^-s_k.
TILELAB_GATE_HD inline int inner_exponent(std::uint64_t seed, std::uint32_t set, std::uint64_t k) {
    const std::uint64_t h = mix(seed ^ mix((static_cast<std::uint64_t>(set) << 34) ^ (std::uint64_t{3} << 32) ^ mix(k)));
    return static_cast<int>((h >> 20) % 49) - 24;
}

/// The fraction bits every gate operand has set (bits 2^-9, 2^-10, 2^-12, 2^-13, 2^-14 of the 23: see above).
constexpr std::uint32_t operand_fixed_fraction = (1u << 14) | (1u << 13) | (1u << 11) | (1u << 10) | (1u << 9);
/// The fraction bits drawn at random (2^-3..2^-7).
constexpr std::uint32_t operand_random_fraction = 0x1Fu << 16;
/// The fraction bits that check the others (2^-15..2^-23: operand_check_bits).
constexpr std::uint32_t operand_check_fraction = 0x1FFu;

/// The check bits (operand_check_fraction) of an operand, or of a probe's second value, whose other bits are
/// @p upper: a fixed function of them.
TILELAB_GATE_HD inline std::uint32_t operand_check_bits(std::uint32_t upper) {
    return static_cast<std::uint32_t>(mix(upper ^ 0xc2b2ae3d27d4eb4fULL) >> 55);
}

/// Element @p index (row-major) of operand @p which of operand set @p set drawn from @p seed, for the gate's
/// @p side × @p side operands: 2^(±s_k) × (1 + f) as described above, exact in float.
TILELAB_GATE_HD inline float operand_value(std::uint64_t seed, std::uint32_t set, Operand which, std::uint64_t index,
                                           std::uint64_t side) {
    const std::uint64_t h = mix(seed ^ mix((static_cast<std::uint64_t>(set) << 34) ^
                                           (static_cast<std::uint64_t>(which) << 32) ^ mix(index)));
    const std::uint64_t k = which == Operand::M ? index % side : index / side;
    const int s = inner_exponent(seed, set, k);
    const int exponent = which == Operand::M ? s : -s;
    const std::uint32_t fraction = (static_cast<std::uint32_t>(h >> 32) & operand_random_fraction) | operand_fixed_fraction;
    const std::uint32_t upper = (static_cast<std::uint32_t>(127 + exponent) << 23) | fraction;
    return float_from_bits(upper | operand_check_bits(upper));
}

/// Element @p index (row major) of operand @p which of an M (rows × @p inner) by N (@p inner × @p cols) product,
/// drawn from @p seed as the gate draws its square operands (operand_value of set 0, with M's column k and N's row k
/// sharing s_k): the technique check's evidence runs on operands no kernel can tell from the gate's.
TILELAB_GATE_HD inline float product_operand(std::uint64_t seed, Operand which, std::uint64_t index, std::uint64_t inner,
                                             std::uint64_t cols) {
    return operand_value(seed, 0, which, index, which == Operand::M ? inner : cols);
}

/// @}

/// @name The technique check's second values
/// The CPU backend's operand probe (tilelab/cpu/operand_probe.hpp) replaces an operand, where the lab's technique
/// says it must pass, by its second value: the operand's exponent, random bits drawn from a seed and the operand's
/// bits, the operand's fixed bits, the marker bit 2^-8, which no operand has (so that a second value is never
/// replaced again), and check bits. Both are known by their bits alone, so the probe needs no table however large
/// the shape, and repeats among the operands (the gate's 2048² elements have them) cost nothing: the second value is
/// a function of the value. An operand rounded to TF32 (a kernel that converts while staging) is known too, and its
/// second value is the second value rounded to TF32: the bits TF32 keeps of a second value depend only on the bits
/// TF32 keeps of its operand, and its low bits have the operands' pattern, which TF32 rounds down.
/// @{

/// What a float is to the probe: an operand, the second value of one, or neither (a sum, a constant, zero).
enum class ProbeForm { none, operand, second };

/// The bit that marks a second value (2^-8, clear in every operand).
constexpr std::uint32_t probe_second_marker = 1u << 15;

/// The form of a float with bits @p bits: an operand (or an operand rounded to TF32), a second value (or one
/// rounded to TF32), or neither.
TILELAB_GATE_HD inline ProbeForm probe_form(std::uint32_t bits) {
    const std::uint32_t biased = bits >> 23;  // the sign bit set puts it past every operand's exponent
    if (biased < 127 - 24 || biased > 127 + 24) return ProbeForm::none;
    const bool whole = (bits & 0x00607E00u) == operand_fixed_fraction &&  // bits 22, 21, 14..9
                       (bits & operand_check_fraction) == operand_check_bits(bits & ~operand_check_fraction);
    const bool tf32 = (bits & 0x1FFFu) == 0 && (bits & 0x00606000u) == (operand_fixed_fraction & 0x6000u);
    if (!whole && !tf32) return ProbeForm::none;
    return (bits & probe_second_marker) != 0 ? ProbeForm::second : ProbeForm::operand;
}

/// The second value, for the probe seeded @p seed, of an operand (or an operand rounded to TF32) with bits @p bits.
TILELAB_GATE_HD inline std::uint32_t probe_second_bits(std::uint64_t seed, std::uint32_t bits) {
    const std::uint32_t kept = bits & 0xFFFFE000u;  // what TF32 keeps
    const std::uint64_t high = mix(seed ^ mix(kept ^ (std::uint64_t{5} << 32)));
    std::uint32_t second = (bits & 0xFF800000u) | (static_cast<std::uint32_t>(high >> 32) & operand_random_fraction) |
                           (operand_fixed_fraction & 0x6000u) | probe_second_marker;
    if ((bits & 0x1FFFu) != 0) {  // a whole operand: low bits as an operand's
        second |= operand_fixed_fraction & 0x1FFFu;
        second |= operand_check_bits(second);
    }
    return second;
}

/// Operand @p value's second value for the probe seeded @p seed (the value itself when it is not an operand).
inline float probe_second_value(std::uint64_t seed, float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return probe_form(bits) == ProbeForm::operand ? float_from_bits(probe_second_bits(seed, bits)) : value;
}

/// @}

/// One element's share of digest(): its bits and its place, mixed. The digest is the wrapping sum of the shares, so
/// its order does not matter and a changed bit anywhere changes it.
TILELAB_GATE_HD inline std::uint64_t digest_share(std::uint32_t bits, std::uint64_t index) {
    return mix((index << 32) ^ bits ^ 0x9e3779b97f4a7c15ULL);
}

/// A 64-bit sum of @p count floats' shares (digest_share): lab 04's records name the operands and result a launch
/// saw with it (timed_evidence.hpp). Not for the gate: a sum lets a program that sent a digest it made up fit a result
/// to it afterwards by changing a few elements (a meet in the middle, about 2^32 tries for two), and the gate samples
/// only some elements; result_digest does not add up.
inline std::uint64_t digest(const float* values, std::uint64_t count) {
    std::uint64_t sum = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
        std::uint32_t bits;
        std::memcpy(&bits, values + i, sizeof bits);
        sum += digest_share(bits, i);
    }
    return sum;
}

/// @name The gate's digest of a result: a tree that does not add up
/// A result's elements fall in leaves of result_leaf_elements; each leaf is four 64-bit sums of its elements' shares
/// (each with its own mixer, the element's place in the whole result mixed in); the leaves, four at a time, and then
/// those nodes, four at a time, are compressed with SHA-256's compression function up to one root, compressed once
/// more with the element count. A program that sent a digest before it had the result cannot fit a result to it
/// afterwards: a root it made up needs a preimage of SHA-256's compression, and each leaf it made up needs at least
/// 128 of its elements changed to reach 256 bits of sums (a generalized birthday search, 2^39 steps a leaf), so that
/// faking a twentieth of the leaves leaves one element in 160 wrong, which the gate's 4096 samples find. On the
/// device, the leaves and then each level's nodes are computed in parallel.
/// @{

/// Elements per leaf (the last leaf may hold fewer).
constexpr std::uint64_t result_leaf_elements = 1024;

/// Children per node of the tree: 4 × 8 words, two blocks of the compression function.
constexpr std::uint64_t result_tree_arity = 4;

/// The leaves of a result of @p count elements (one, of zeros, for none).
TILELAB_GATE_HD inline std::uint64_t result_leaves(std::uint64_t count) {
    return count == 0 ? 1 : (count + result_leaf_elements - 1) / result_leaf_elements;
}

/// The nodes of the level above a level of @p nodes.
TILELAB_GATE_HD inline std::uint64_t tree_parents(std::uint64_t nodes) {
    return (nodes + result_tree_arity - 1) / result_tree_arity;
}

/// The children of node @p parent of the level above a level of @p nodes (fewer than four at the level's end).
TILELAB_GATE_HD inline int tree_children(std::uint64_t nodes, std::uint64_t parent) {
    const std::uint64_t left = nodes - parent * result_tree_arity;
    return static_cast<int>(left < result_tree_arity ? left : result_tree_arity);
}

/// SHA-256's initial state (FIPS 180-4), the state every node's compression starts from.
TILELAB_GATE_HD inline void sha256_initial_state(std::uint32_t state[8]) {
    const std::uint32_t initial[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                      0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
    for (int i = 0; i < 8; ++i) state[i] = initial[i];
}

/// SHA-256's compression function (FIPS 180-4): @p state absorbs the 16 words of @p block.
TILELAB_GATE_HD inline void sha256_compress(std::uint32_t state[8], const std::uint32_t block[16]) {
    const std::uint32_t k[64] = {
        0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
        0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
        0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
        0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
        0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
        0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
        0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
        0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u};
    auto rotr = [](std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
    std::uint32_t w[64];
    for (int i = 0; i < 16; ++i) w[i] = block[i];
    for (int i = 16; i < 64; ++i) {
        const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
        const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4], f = state[5], g = state[6],
                  h = state[7];
    for (int i = 0; i < 64; ++i) {
        const std::uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
        const std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    state[0] += a, state[1] += b, state[2] += c, state[3] += d, state[4] += e, state[5] += f, state[6] += g,
        state[7] += h;
}

/// One element's share of its leaf, four 64-bit lanes: the element's bits and place mixed once, then mixed again
/// with each lane's constant (mixed, not multiplied or added: lanes that were affine functions of one value would
/// be 64 bits of sums, not 256).
TILELAB_GATE_HD inline void leaf_share(std::uint32_t bits, std::uint64_t index, std::uint64_t lanes[4]) {
    const std::uint64_t element = mix((index << 32) ^ bits ^ 0x9e3779b97f4a7c15ULL);
    lanes[0] = mix(element ^ 0xd1b54a32d192ed03ULL);
    lanes[1] = mix(element ^ 0xaf251af3b0f025b5ULL);
    lanes[2] = mix(element ^ 0x8cb92ba72f3d8dd7ULL);
    lanes[3] = mix(element ^ 0xdb4f0b9175ae2165ULL);
}

/// A node of the tree: the compression, from SHA-256's initial state, of its four children's 8 words each (a
/// missing child, past the end of a level, is zeros).
TILELAB_GATE_HD inline void tree_node(const std::uint32_t* children, int count, std::uint32_t out[8]) {
    std::uint32_t block[16];
    sha256_initial_state(out);
    for (int half = 0; half < 2; ++half) {
        for (int word = 0; word < 16; ++word) {
            const int child = half * 2 + word / 8;
            block[word] = child < count ? children[child * 8 + word % 8] : 0u;
        }
        sha256_compress(out, block);
    }
}

/// The digest: the root's words and the element count, compressed once more, its first 64 bits.
TILELAB_GATE_HD inline std::uint64_t tree_digest(const std::uint32_t root[8], std::uint64_t count) {
    std::uint32_t block[16] = {};
    for (int word = 0; word < 8; ++word) block[word] = root[word];
    block[8] = static_cast<std::uint32_t>(count >> 32);
    block[9] = static_cast<std::uint32_t>(count);
    block[10] = 0x7453474bu;  // a tag: this block ends the tree
    std::uint32_t state[8];
    sha256_initial_state(state);
    sha256_compress(state, block);
    return (static_cast<std::uint64_t>(state[0]) << 32) | state[1];
}

/// The gate's digest of @p count floats on the host (the checker's side of gate_device.cu's gate_digests).
inline std::uint64_t result_digest(const float* values, std::uint64_t count) {
    const std::uint64_t leaves = result_leaves(count);
    std::vector<std::uint32_t> level(leaves * 8, 0u);
    for (std::uint64_t leaf = 0; leaf < leaves; ++leaf) {
        std::uint64_t sums[4] = {0, 0, 0, 0};
        const std::uint64_t end = std::min(count, (leaf + 1) * result_leaf_elements);
        for (std::uint64_t i = leaf * result_leaf_elements; i < end; ++i) {
            std::uint32_t bits;
            std::memcpy(&bits, values + i, sizeof bits);
            std::uint64_t lanes[4];
            leaf_share(bits, i, lanes);
            for (int lane = 0; lane < 4; ++lane) sums[lane] += lanes[lane];
        }
        for (int lane = 0; lane < 4; ++lane) {
            level[leaf * 8 + 2 * lane] = static_cast<std::uint32_t>(sums[lane] >> 32);
            level[leaf * 8 + 2 * lane + 1] = static_cast<std::uint32_t>(sums[lane]);
        }
    }
    std::uint64_t nodes = leaves;
    do {
        const std::uint64_t parents = tree_parents(nodes);
        std::vector<std::uint32_t> next(parents * 8);
        for (std::uint64_t p = 0; p < parents; ++p)
            tree_node(&level[p * result_tree_arity * 8], tree_children(nodes, p), &next[p * 8]);
        level.swap(next);
        nodes = parents;
    } while (nodes > 1);
    return tree_digest(level.data(), count);
}

/// @}

}  // namespace tilelab::gate
