// The performance gate's operands and digests (tilelab/gate_data.hpp): the checker verifies a result against its
// digest and samples it against float64 from the same operands, so both must be exact and sensitive.
#include <tilelab/gate_data.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

using namespace tilelab::gate;

TEST_SUITE("gate_data") {
    TEST_CASE("operands are exact floats in [-1, 1) that depend on the seed, the set, the operand and the place") {
        int negative = 0;
        for (std::uint64_t i = 0; i < 4096; ++i) {
            const float v = operand_value(42, 0, Operand::M, i);
            CHECK(v >= -1.0f);
            CHECK(v < 1.0f);
            const double scaled = static_cast<double>(v) * 8388608.0;
            CHECK(scaled == std::floor(scaled));  // a multiple of 2^-23: float64 products see the same values
            negative += v < 0;
        }
        CHECK(negative > 1800);
        CHECK(negative < 2300);
        CHECK(operand_value(42, 0, Operand::M, 7) != operand_value(43, 0, Operand::M, 7));
        CHECK(operand_value(42, 0, Operand::M, 7) != operand_value(42, 1, Operand::M, 7));
        CHECK(operand_value(42, 0, Operand::M, 7) != operand_value(42, 0, Operand::N, 7));
        CHECK(operand_value(42, 0, Operand::M, 7) == operand_value(42, 0, Operand::M, 7));
    }

    TEST_CASE("a digest changes with any one bit of a result and with elements swapped") {
        std::vector<float> P(1000);
        for (std::size_t i = 0; i < P.size(); ++i) P[i] = operand_value(1, 0, Operand::M, i);
        const std::uint64_t digest_of_P = digest(P.data(), P.size());
        for (std::size_t i : {std::size_t{0}, std::size_t{517}, std::size_t{999}})
            for (int bit : {0, 13, 31}) {
                std::vector<float> changed = P;
                std::uint32_t bits;
                std::memcpy(&bits, &changed[i], sizeof bits);
                bits ^= 1u << bit;
                std::memcpy(&changed[i], &bits, sizeof bits);
                CHECK(digest(changed.data(), changed.size()) != digest_of_P);
            }
        std::vector<float> swapped = P;
        std::swap(swapped[3], swapped[4]);
        CHECK(digest(swapped.data(), swapped.size()) != digest_of_P);
    }
}
