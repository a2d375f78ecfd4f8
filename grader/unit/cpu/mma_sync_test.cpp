// The CPU backend's tensor-core wrappers (tilelab/mma.hpp: mma.sync m16n8k8 TF32, cvt.rna.tf32, ldmatrix): products
// against float64 references with the PTX ISA's lane-to-element mapping, kernels that assume another mapping
// getting other results, the loads' mapping, and what a GPU leaves undefined (divergence, races, addresses).
#include "mma_sync_kernels.hpp"

#include <tilelab/cpu/mma_sync.hpp>
#include <tilelab/device_buffer.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

std::string message_of(cudaError_t code) { return cudaGetErrorString(code); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<float> download(const tilelab::DeviceBuffer<float>& buffer) {
    std::vector<float> values(buffer.size());
    buffer.copy_to_host(values.data(), values.size());
    return values;
}

tilelab::DeviceBuffer<float> upload(const std::vector<float>& values) {
    tilelab::DeviceBuffer<float> buffer(values.size());
    buffer.copy_from_host(values.data(), values.size());
    return buffer;
}

// TF32 of @p x computed apart from the emulator's bit arithmetic: the significand cut to 11 bits in float64, to
// nearest with ties away from zero (@p nearest), else toward zero. For normal numbers, which the tests use.
double tf32_reference(double x, bool nearest) {
    if (x == 0.0) return x;
    int exponent = 0;
    const double significand = std::ldexp(std::frexp(x, &exponent), 11);  // |significand| in [1024, 2048)
    const double cut = nearest ? std::copysign(std::floor(std::fabs(significand) + 0.5), significand)
                               : std::trunc(significand);
    return std::ldexp(cut, exponent - 11);
}

// A float whose TF32 rounding matters: ±(m + f / 8192) · 2^-10 · 2^s, f the 13 bits TF32 drops (4096: a tie).
float perturbed(std::mt19937& random) {
    const int m = std::uniform_int_distribution<int>(1024, 2047)(random);
    const int f = std::uniform_int_distribution<int>(0, 4)(random) == 0 ? 4096
                                                                        : std::uniform_int_distribution<int>(1, 8191)(random);
    const int s = std::uniform_int_distribution<int>(-1, 0)(random);
    const float value = std::ldexp(static_cast<float>(m) + static_cast<float>(f) / 8192.0f, s - 10);
    return std::uniform_int_distribution<int>(0, 1)(random) ? value : -value;
}

// A float TF32 holds exactly and with few bits: ±2^e, e in -2..1.
float simple(std::mt19937& random) {
    const float value = std::ldexp(1.0f, std::uniform_int_distribution<int>(-2, 1)(random));
    return std::uniform_int_distribution<int>(0, 1)(random) ? value : -value;
}

struct Case {
    std::vector<float> a, b, c;  // A 16 x 8, B 8 x 8 (rows k), C 16 x 8, all row by row
};

// Inputs whose products and sums are exact in FP32 once A and B are TF32 (11 significant bits times a power of two,
// 8 of them plus a small integer: under 24 bits), so the emulator's result must equal float64's bit for bit.
// @p perturb_a: A's elements need rounding, B's are powers of two; else the reverse.
Case exact_case(std::mt19937& random, bool perturb_a) {
    Case m{std::vector<float>(128), std::vector<float>(64), std::vector<float>(128)};
    for (float& x : m.a) x = perturb_a ? perturbed(random) : simple(random);
    for (float& x : m.b) x = perturb_a ? simple(random) : perturbed(random);
    for (float& x : m.c) x = static_cast<float>(std::uniform_int_distribution<int>(-4, 4)(random));
    return m;
}

// D = A B + C in float64 from A and B taken to TF32 (@p nearest: rounded, else truncated).
std::vector<double> reference(const Case& m, bool nearest) {
    std::vector<double> d(128);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 8; ++j) {
            double sum = m.c[i * 8 + j];
            for (int k = 0; k < 8; ++k)
                sum += tf32_reference(m.a[i * 8 + k], nearest) * tf32_reference(m.b[k * 8 + j], nearest);
            d[i * 8 + j] = sum;
        }
    return d;
}

std::vector<float> run_one(const Case& m, bool convert, FragmentLayout layout) {
    const auto da = upload(m.a), db = upload(m.b), dc = upload(m.c);
    tilelab::DeviceBuffer<float> dd(128);
    REQUIRE(mma_sync_one(da.data(), db.data(), dc.data(), dd.data(), convert, layout) == cudaSuccess);
    return download(dd);
}

int differences(const std::vector<float>& got, const std::vector<double>& expected) {
    int wrong = 0;
    for (std::size_t e = 0; e < got.size(); ++e) wrong += static_cast<double>(got[e]) != expected[e];
    return wrong;
}

std::uint32_t bits(float value) {
    std::uint32_t b;
    std::memcpy(&b, &value, sizeof b);
    return b;
}

}  // namespace

TEST_SUITE("cpu-emulator-mma-sync") {
    TEST_CASE("tilelab::mma_m16n8k8_tf32: D = A B + C equals float64's of the TF32 inputs, by the ISA's mapping") {
        std::mt19937 random(23);
        for (const bool perturb_a : {true, false}) {
            CAPTURE(perturb_a);
            const Case m = exact_case(random, perturb_a);
            CHECK(differences(run_one(m, true, FragmentLayout::documented), reference(m, true)) == 0);
        }
    }

    TEST_CASE("tilelab::mma_m16n8k8_tf32 takes the top 19 bits of operands not converted with to_tf32") {
        std::mt19937 random(29);
        for (const bool perturb_a : {true, false}) {
            const Case m = exact_case(random, perturb_a);
            const std::vector<double> truncated = reference(m, false), rounded = reference(m, true);
            int differs = 0;
            for (std::size_t e = 0; e < truncated.size(); ++e) differs += truncated[e] != rounded[e];
            CHECK(differs > 50);  // the case tells truncation from rounding
            CHECK(differences(run_one(m, false, FragmentLayout::documented), truncated) == 0);
        }
    }

    TEST_CASE("tilelab::mma_m16n8k8_tf32 with fragments in another layout gives another product") {
        std::mt19937 random(31);
        const Case m = exact_case(random, true);
        const std::vector<double> expected = reference(m, true);
        // A's a[1] and a[2] exchanged: rows 8-15 of k 0-3 and rows 0-7 of k 4-7 trade places, most of D changes.
        CHECK(differences(run_one(m, true, FragmentLayout::a_swapped), expected) > 64);
        // B read with k and n exchanged: D = A · (8 x 8 block of B transposed) + C.
        const std::vector<float> got = run_one(m, true, FragmentLayout::b_transposed);
        CHECK(differences(got, expected) > 64);
        Case transposed = m;
        for (int k = 0; k < 8; ++k)
            for (int n = 0; n < 8; ++n) transposed.b[k * 8 + n] = m.b[n * 8 + k];
        CHECK(differences(got, reference(transposed, true)) == 0);
    }

    TEST_CASE("tilelab::to_tf32 rounds to 10 mantissa bits, to nearest with ties away from zero") {
        std::mt19937 random(37);
        std::vector<float> in(32);
        for (float& x : in) x = perturbed(random);
        in[0] = std::ldexp(1024.0f + 0.5f, -10);  // a tie: away from zero, either sign
        in[1] = -in[0];
        const auto din = upload(in);
        tilelab::DeviceBuffer<float> dout(32);
        REQUIRE(mma_sync_to_tf32(din.data(), dout.data()) == cudaSuccess);
        const std::vector<float> out = download(dout);
        for (int i = 0; i < 32; ++i) {
            CHECK(static_cast<double>(out[i]) == tf32_reference(in[i], true));
            CHECK((bits(out[i]) & 0x1FFFu) == 0u);
        }
        CHECK(out[0] == std::ldexp(1025.0f, -10));
        CHECK(out[1] == -std::ldexp(1025.0f, -10));
    }

    TEST_CASE("tilelab::ldmatrix_x4 gives lane l element (l / 4, l % 4) of each 8 x 4 matrix: a whole A fragment") {
        std::vector<float> in(128);
        for (int e = 0; e < 128; ++e) in[e] = static_cast<float>(e);
        const auto din = upload(in);
        tilelab::DeviceBuffer<float> dout(128);
        REQUIRE(mma_sync_ldmatrix(din.data(), dout.data(), 4, true, 0, false) == cudaSuccess);
        const std::vector<float> out = download(dout);
        int wrong = 0;
        for (int lane = 0; lane < 32; ++lane) {
            const int g = lane / 4, t = lane % 4;
            // The A fragment of the 16 x 8 tile: A(g, t), A(g + 8, t), A(g, t + 4), A(g + 8, t + 4).
            const float expected[4] = {in[g * 8 + t], in[(g + 8) * 8 + t], in[g * 8 + t + 4], in[(g + 8) * 8 + t + 4]};
            for (int j = 0; j < 4; ++j) wrong += out[4 * lane + j] != expected[j];
        }
        CHECK(wrong == 0);
        // ldmatrix_x2: the rows of lanes 0-15 only; lane l gets row l / 4, columns l % 4 and 4 + l % 4 of rows 0-7.
        REQUIRE(mma_sync_ldmatrix(din.data(), dout.data(), 2, true, 0, false) == cudaSuccess);
        const std::vector<float> out2 = download(dout);
        wrong = 0;
        for (int lane = 0; lane < 32; ++lane) {
            const int g = lane / 4, t = lane % 4;
            wrong += out2[4 * lane] != in[g * 8 + t];
            wrong += out2[4 * lane + 1] != in[g * 8 + t + 4];
        }
        CHECK(wrong == 0);
    }

    TEST_CASE("tilelab::ldmatrix_x4 of a tile the warp's lanes stored with no __syncwarp() between is a race") {
        const auto din = upload(std::vector<float>(128, 1.0f));
        tilelab::DeviceBuffer<float> dout(128);
        const cudaError_t code = mma_sync_ldmatrix(din.data(), dout.data(), 4, false, 0, false);
        REQUIRE(code == cudaErrorTileLabSharedMemoryRace);
        const std::string message = message_of(code);
        CAPTURE(message);
        CHECK(contains(message, "shared-memory race in ldmatrix_kernel"));
        CHECK(contains(message, "(in its tilelab::ldmatrix_x4 at cpu/mma_sync_kernels.cu:"));
        CHECK(contains(message, "nor a __syncwarp() naming both lanes of their warp"));
    }

    TEST_CASE("tilelab::ldmatrix_x4: a row off 16 bytes is misaligned, an address outside shared memory illegal") {
        const auto din = upload(std::vector<float>(128, 1.0f));
        tilelab::DeviceBuffer<float> dout(128);
        cudaError_t code = mma_sync_ldmatrix(din.data(), dout.data(), 4, true, 1, false);
        REQUIRE(code == cudaErrorMisalignedAddress);
        std::string message = message_of(code);
        CAPTURE(message);
        CHECK(contains(message, "tilelab::ldmatrix_x4 at cpu/mma_sync_kernels.cu:"));
        CHECK(contains(message, "lane 0 of its warp gave tile[0][1], which is 4 bytes past a 16-byte boundary"));
        code = mma_sync_ldmatrix(din.data(), dout.data(), 4, true, 0, true);
        REQUIRE(code == cudaErrorIllegalAddress);
        message = message_of(code);
        CHECK(contains(message, "lane 0 of its warp gave float index 0 of a device buffer of 128 floats, "
                                "which is not 16 bytes of shared memory"));
    }

    TEST_CASE("tilelab::mma_m16n8k8_tf32 tiled with ldmatrix_x4: P = M N, the multiply-adds counted, races seen") {
        const int n = 64;
        std::mt19937 random(41);
        std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
        std::vector<float> M(n * n), N(n * n);
        for (float& x : M) x = uniform(random);
        for (float& x : N) x = uniform(random);
        const auto dm = upload(M), dn = upload(N);
        tilelab::DeviceBuffer<float> dp(n * n);
        const unsigned long long before = tilelab::cpu::mma_sync_multiply_adds();
        REQUIRE(mma_sync_tiled(dm.data(), dn.data(), dp.data(), n, 0) == cudaSuccess);
        CHECK(tilelab::cpu::mma_sync_multiply_adds() - before == static_cast<unsigned long long>(n) * n * n);
        const std::vector<float> got = download(dp);
        int wrong = 0;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                double sum = 0.0, magnitude = 0.0;
                for (int k = 0; k < n; ++k) {
                    const double product = tf32_reference(M[i * n + k], true) * tf32_reference(N[k * n + j], true);
                    sum += product;
                    magnitude += std::fabs(product);
                }
                wrong += std::fabs(got[i * n + j] - sum) > n * std::ldexp(1.0, -24) * magnitude;
            }
        CHECK(wrong == 0);
        cudaError_t code = mma_sync_tiled(dm.data(), dn.data(), dp.data(), n, 1);
        REQUIRE(code == cudaErrorTileLabSharedMemoryRace);
        CHECK(contains(message_of(code), "A barrier is missing between loading the tiles and computing from them"));
        code = mma_sync_tiled(dm.data(), dn.data(), dp.data(), n, 2);
        REQUIRE(code == cudaErrorTileLabSharedMemoryRace);
        CHECK(contains(message_of(code), "A barrier is missing between computing from the tiles and loading the next"));
    }

    TEST_CASE("tilelab::mma_m16n8k8_tf32 reached by half of a warp is warp divergence, naming the calls") {
        tilelab::DeviceBuffer<float> out(128);
        const cudaError_t code = mma_sync_divergent(out.data());
        REQUIRE(code == cudaErrorTileLabBarrierDivergence);
        const std::string message = message_of(code);
        CAPTURE(message);
        CHECK(contains(message, "warp divergence in divergent_kernel, block (0, 0, 0), warp 0: "
                                "tilelab::mma_m16n8k8_tf32 at cpu/mma_sync_kernels.cu:" +
                                    std::to_string(mma_sync_divergent_line)));
        CHECK(contains(message, "lanes 0-15 (thread (0, 0, 0) the first) waited there, but lanes 16-31 waited at "
                                "__syncwarp at cpu/mma_sync_kernels.cu:"));
        CHECK(contains(message, "are mma.sync and ldmatrix, which work on the whole warp's fragments at once"));
        tilelab::DeviceBuffer<float> out48(48);
        const cudaError_t partial = mma_sync_partial_warp(out48.data());
        REQUIRE(partial == cudaErrorTileLabBarrierDivergence);
        CHECK(contains(message_of(partial), "was called by warp 1, which has only 16 lanes: the block has 48 threads"));
    }
}
