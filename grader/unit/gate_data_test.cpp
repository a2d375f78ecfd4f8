// The performance gate's operands and digests (tilelab/gate_data.hpp): the checker verifies a result against its
// digest and samples it against float64 from the same operands, so both must be exact and sensitive.
#include <tilelab/gate_data.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

using namespace tilelab::gate;

namespace {

// @p count elements of operand @p which of set 0 drawn from @p seed: a result's stand-in.
std::vector<float> drawn(std::size_t count, std::uint64_t seed, Operand which) {
    std::vector<float> values(count);
    for (std::size_t i = 0; i < count; ++i) values[i] = operand_value(seed, 0, which, i, 64);
    return values;
}

// @p values with bit @p bit of element @p i flipped.
std::vector<float> with_bit_flipped(std::vector<float> values, std::size_t i, int bit) {
    std::uint32_t bits;
    std::memcpy(&bits, &values[i], sizeof bits);
    bits ^= 1u << bit;
    std::memcpy(&values[i], &bits, sizeof bits);
    return values;
}

}  // namespace

TEST_SUITE("gate_data") {
    TEST_CASE("operands are positive exact floats whose dropped bits make reduced precision show") {
        const std::uint64_t side = 64;
        int lowest = 99, highest = -99;
        for (std::uint64_t i = 0; i < side * side; ++i)
            for (const Operand which : {Operand::M, Operand::N}) {
                const float v = operand_value(42, 0, which, i, side);
                std::uint32_t bits;
                std::memcpy(&bits, &v, sizeof bits);
                CHECK(v > 0.0f);
                CHECK(std::isnormal(v));
                const std::uint32_t fraction = bits & 0x7FFFFFu;
                CHECK((fraction & ~(operand_random_fraction | operand_fixed_fraction | operand_check_fraction)) == 0u);  // 2^-1, 2^-2, 2^-8, 2^-11 clear
                CHECK((bits & operand_check_fraction) == operand_check_bits(bits & ~operand_check_fraction));
                CHECK((fraction & operand_fixed_fraction) == operand_fixed_fraction);
                const int exponent = static_cast<int>(bits >> 23) - 127;
                lowest = std::min(lowest, exponent);
                highest = std::max(highest, exponent);
                // M's column k and N's row k carry opposite exponents, so every product m·n is near 1.
                const std::uint64_t k = which == Operand::M ? i % side : i / side;
                CHECK(exponent == (which == Operand::M ? 1 : -1) * inner_exponent(42, 0, k));
            }
        CHECK(lowest <= -20);  // wider than FP16's range whatever the scale
        CHECK(highest >= 20);
        CHECK(operand_value(42, 0, Operand::M, 7, 64) != operand_value(43, 0, Operand::M, 7, 64));
        CHECK(operand_value(42, 0, Operand::M, 7, 64) != operand_value(42, 1, Operand::M, 7, 64));
        CHECK(operand_value(42, 0, Operand::M, 7, 64) != operand_value(42, 0, Operand::N, 7, 64));
        CHECK(operand_value(42, 0, Operand::M, 7, 64) == operand_value(42, 0, Operand::M, 7, 64));
    }

    TEST_CASE("the probe knows operands and second values by their bits, rounded to TF32 or not") {
        const auto bits_of = [](float v) { std::uint32_t b; std::memcpy(&b, &v, sizeof b); return b; };
        // TF32 as cvt.rna rounds: to nearest, ties away, 13 low bits dropped.
        const auto tf32 = [](std::uint32_t b) { return (b + 0x1000u) & 0xFFFFE000u; };
        const std::uint64_t seed = 99;
        int sums_taken = 0, other_seed_same = 0;
        for (std::uint64_t i = 0; i < 4096; ++i) {
            const float m = product_operand(7, Operand::M, i, 37, 53), n = product_operand(7, Operand::N, i, 37, 53);
            for (const float v : {m, n}) {
                const std::uint32_t b = bits_of(v);
                CHECK(probe_form(b) == ProbeForm::operand);
                CHECK(probe_form(tf32(b)) == ProbeForm::operand);
                const std::uint32_t second = probe_second_bits(seed, b);
                CHECK(probe_form(second) == ProbeForm::second);  // never replaced again
                CHECK(second != b);
                CHECK((second & 0xFF800000u) == (b & 0xFF800000u));  // the same sign and exponent
                // Converting, then replacing, is replacing, then converting.
                CHECK(probe_second_bits(seed, tf32(b)) == tf32(second));
                CHECK(probe_form(tf32(second)) == ProbeForm::second);
                other_seed_same += probe_second_bits(seed + 1, b) == second;  // the seed's, not a fixed map
            }
            // A product of two operands, and a dot product of eight, are no operand (but by the rarest chance).
            float dot = 0;
            for (std::uint64_t k = 0; k < 8; ++k)
                dot += product_operand(7, Operand::M, (i % 37) * 37 + k, 37, 53) *
                       product_operand(7, Operand::N, k * 53 + i % 53, 37, 53);
            sums_taken += probe_form(bits_of(m * n)) != ProbeForm::none;
            sums_taken += probe_form(bits_of(dot)) != ProbeForm::none;
        }
        CHECK(sums_taken <= 4);
        CHECK(other_seed_same < 8192 / 16);  // five random bits: one in 32 the same
        for (const float plain : {0.0f, 1.0f, -1.0f, 0.5f, 2.0f, -0.0f}) CHECK(probe_form(bits_of(plain)) == ProbeForm::none);
        CHECK(probe_second_value(seed, 1.0f) == 1.0f);
    }

    TEST_CASE("the technique check's operands share each inner position's exponent, as the gate's do") {
        const auto exponent = [](float v) { std::uint32_t b; std::memcpy(&b, &v, sizeof b); return int(b >> 23); };
        const std::uint64_t inner = 19, cols = 23;
        for (std::uint64_t k = 0; k < inner; ++k)
            for (std::uint64_t r = 0; r < 5; ++r)
                for (std::uint64_t c = 0; c < 5; ++c) {
                    const float m = product_operand(3, Operand::M, r * inner + k, inner, cols);
                    const float n = product_operand(3, Operand::N, k * cols + c, inner, cols);
                    CHECK(exponent(m) - 127 == -(exponent(n) - 127));
                }
        // On a square shape the draw is the gate's own (set 0).
        CHECK(product_operand(5, Operand::N, 77, 64, 64) == operand_value(5, 0, Operand::N, 77, 64));
    }

    TEST_CASE("the gate's tree compresses with SHA-256's compression function") {
        // FIPS 180-4's example: SHA-256("abc"), one padded block.
        std::uint32_t block[16] = {0x61626380u};
        block[15] = 24;
        std::uint32_t state[8];
        sha256_initial_state(state);
        sha256_compress(state, block);
        const std::uint32_t expected[8] = {0xba7816bfu, 0x8f01cfeau, 0x414140deu, 0x5dae2223u,
                                           0xb00361a3u, 0x96177a9cu, 0xb410ff61u, 0xf20015adu};
        for (int i = 0; i < 8; ++i) CHECK(state[i] == expected[i]);
    }

    TEST_CASE("the gate's digest changes with any one bit, with elements swapped and with the element count") {
        const std::vector<float> P = drawn(5000, 1, Operand::M);  // five leaves, the last one short
        const std::uint64_t digest_of_P = result_digest(P.data(), P.size());
        CHECK(result_digest(P.data(), P.size()) == digest_of_P);
        for (std::size_t i : {std::size_t{0}, std::size_t{1023}, std::size_t{1024}, std::size_t{4999}})
            for (int bit : {0, 13, 31}) {
                const std::vector<float> changed = with_bit_flipped(P, i, bit);
                CHECK(result_digest(changed.data(), changed.size()) != digest_of_P);
            }
        std::vector<float> swapped = P;
        std::swap(swapped[3], swapped[4]);
        CHECK(result_digest(swapped.data(), swapped.size()) != digest_of_P);
        std::vector<float> leaves_swapped = P;  // whole leaves in another order
        std::swap_ranges(leaves_swapped.begin(), leaves_swapped.begin() + 1024, leaves_swapped.begin() + 1024);
        CHECK(result_digest(leaves_swapped.data(), leaves_swapped.size()) != digest_of_P);
        std::vector<float> longer = P;
        longer.push_back(0.0f);
        CHECK(result_digest(longer.data(), longer.size()) != digest_of_P);
    }

    TEST_CASE("the gate's digest does not add up, so no result can be fitted to a digest sent before it") {
        // A digest that is a sum of one share per element: changing element i from a to a' shifts it by the same
        // amount whatever element j holds. That is what lets a program that sent a digest it made up fit a result
        // to it later, meeting in the middle over two elements' values (lab 04's record digest() is such a sum).
        const std::vector<float> P = drawn(4096, 2, Operand::N);
        auto with = [&](float a, float b, auto digest_of) {
            std::vector<float> changed = P;
            changed[10] = a;
            changed[3000] = b;
            return digest_of(changed.data(), changed.size());
        };
        auto shift = [&](auto digest_of, float b) { return with(0.5f, b, digest_of) - with(0.25f, b, digest_of); };
        const auto summed = [](const float* v, std::uint64_t n) { return digest(v, n); };
        const auto tree = [](const float* v, std::uint64_t n) { return result_digest(v, n); };
        CHECK(shift(summed, 0.125f) == shift(summed, -0.75f));  // the sum: the same shift, so it can be met
        CHECK(shift(tree, 0.125f) != shift(tree, -0.75f));
    }

    TEST_CASE("lab 04's record digest changes with any one bit of a result and with elements swapped") {
        const std::vector<float> P = drawn(1000, 1, Operand::M);
        const std::uint64_t digest_of_P = digest(P.data(), P.size());
        for (std::size_t i : {std::size_t{0}, std::size_t{517}, std::size_t{999}})
            for (int bit : {0, 13, 31}) {
                const std::vector<float> changed = with_bit_flipped(P, i, bit);
                CHECK(digest(changed.data(), changed.size()) != digest_of_P);
            }
        std::vector<float> swapped = P;
        std::swap(swapped[3], swapped[4]);
        CHECK(digest(swapped.data(), swapped.size()) != digest_of_P);
    }
}
