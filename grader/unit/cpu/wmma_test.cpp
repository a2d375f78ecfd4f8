// The CPU backend's warp matrix functions (<mma.h>, TF32 m16n16k8): products against float64 references of the
// TF32-rounded inputs, layouts, element access, and what a GPU leaves undefined (divergence, races, CUDA's rules).
#include "wmma_kernels.hpp"

#include <tilelab/cpu/wmma.hpp>
#include <tilelab/device_buffer.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

std::string message_of(cudaError_t code) { return cudaGetErrorString(code); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// TF32 of @p x computed apart from the emulator's bit arithmetic: the significand cut to 11 bits (1 + 10) in
// float64, to nearest with ties away from zero (@p nearest), else toward zero (what a tensor core takes of a float
// not converted). For normal numbers, which the tests use.
double tf32_reference(double x, bool nearest) {
    if (x == 0.0) return x;
    int exponent = 0;
    const double significand = std::ldexp(std::frexp(x, &exponent), 11);  // |significand| in [1024, 2048)
    const double cut = nearest ? std::copysign(std::floor(std::fabs(significand) + 0.5), significand)
                               : std::trunc(significand);
    return std::ldexp(cut, exponent - 11);
}

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

// Element (row, column) of a rows x columns matrix stored row by row, or column by column when @p columns.
std::size_t at(int row, int column, int rows, int cols, bool columns) {
    return columns ? static_cast<std::size_t>(column * rows + row) : static_cast<std::size_t>(row * cols + column);
}

// A float whose TF32 rounding matters: ±(m + f / 8192) · 2^-10 · 2^s for an 11-bit m, f the 13 bits TF32 drops
// (4096: a tie); its TF32 value has the 11 bits m or m + 1.
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

struct MmaCase {
    std::vector<float> a, b, c;  // A 16 x 8, B 8 x 16, C 16 x 16, all row by row
};

// Inputs whose products and sums are exact in FP32 once A and B are TF32 (11 significant bits times a power of
// two, 8 of them plus a small integer: under 24 bits), so the emulator's FP32 result must equal the float64 one
// bit for bit, whatever the order of the additions. @p perturb_a: A's elements need rounding, B's are powers of
// two; else the reverse.
MmaCase exact_case(std::mt19937& random, bool perturb_a) {
    MmaCase m{std::vector<float>(128), std::vector<float>(128), std::vector<float>(256)};
    for (float& x : m.a) x = perturb_a ? perturbed(random) : simple(random);
    for (float& x : m.b) x = perturb_a ? simple(random) : perturbed(random);
    for (float& x : m.c) x = static_cast<float>(std::uniform_int_distribution<int>(-4, 4)(random));
    return m;
}

// D = A B + C in float64 from A and B taken to TF32 (@p nearest: rounded, else truncated).
std::vector<double> reference(const MmaCase& m, bool nearest) {
    std::vector<double> d(256);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            double sum = m.c[i * 16 + j];
            for (int k = 0; k < 8; ++k)
                sum += tf32_reference(m.a[i * 8 + k], nearest) * tf32_reference(m.b[k * 16 + j], nearest);
            d[i * 16 + j] = sum;
        }
    return d;
}

// Runs the one-warp mma kernel on @p m, A and B stored as the layouts say.
std::vector<float> run_mma(const MmaCase& m, bool a_columns, bool b_columns, bool convert) {
    std::vector<float> a(128), b(128);
    for (int i = 0; i < 16; ++i)
        for (int k = 0; k < 8; ++k) a[at(i, k, 16, 8, a_columns)] = m.a[i * 8 + k];
    for (int k = 0; k < 8; ++k)
        for (int j = 0; j < 16; ++j) b[at(k, j, 8, 16, b_columns)] = m.b[k * 16 + j];
    const auto da = upload(a), db = upload(b), dc = upload(m.c);
    tilelab::DeviceBuffer<float> dd(256);
    REQUIRE(wmma_mma(da.data(), a_columns, db.data(), b_columns, dc.data(), dd.data(), convert) == cudaSuccess);
    return download(dd);
}

// P = M N for n x n matrices as the documented arithmetic gives it: M and N rounded to TF32, the products (exact)
// added to an FP32 sum in order of k, each addition rounded.
std::vector<float> tf32_product_in_order(const std::vector<float>& M, const std::vector<float>& N, int n) {
    std::vector<float> P(static_cast<std::size_t>(n) * n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            float sum = 0.0f;
            for (int k = 0; k < n; ++k)
                sum += static_cast<float>(tf32_reference(M[i * n + k], true) * tf32_reference(N[k * n + j], true));
            P[i * n + j] = sum;
        }
    return P;
}

std::uint32_t bits(float value) {
    std::uint32_t b;
    std::memcpy(&b, &value, sizeof b);
    return b;
}

}  // namespace

TEST_SUITE("cpu-emulator-wmma") {
    TEST_CASE("__float_to_tf32 rounds to 10 mantissa bits, to nearest with ties away from zero") {
        std::mt19937 random(7);
        for (int i = 0; i < 2000; ++i) {
            const float x = perturbed(random);
            const float rounded = tilelab::cpu::detail::float_to_tf32(x);
            CHECK(static_cast<double>(rounded) == tf32_reference(x, true));
            CHECK((bits(rounded) & 0x1FFFu) == 0u);
            CHECK(static_cast<double>(tilelab::cpu::detail::tf32_operand(x)) == tf32_reference(x, false));
        }
        // A tie (the dropped bits exactly half of TF32's last place) goes away from zero, for either sign.
        const float tie = std::ldexp(1024.0f + 0.5f, -10);
        CHECK(tilelab::cpu::detail::float_to_tf32(tie) == std::ldexp(1025.0f, -10));
        CHECK(tilelab::cpu::detail::float_to_tf32(-tie) == -std::ldexp(1025.0f, -10));
        CHECK(std::isinf(tilelab::cpu::detail::float_to_tf32(std::numeric_limits<float>::max())));
        CHECK(std::isnan(tilelab::cpu::detail::float_to_tf32(std::nanf(""))));
        CHECK(std::isnan(tilelab::cpu::detail::tf32_operand(std::nanf(""))));
    }

    TEST_CASE("mma_sync: a 16x16x8 product equals float64's of the TF32-rounded inputs, in every layout") {
        std::mt19937 random(11);
        for (const bool perturb_a : {true, false})
            for (const bool a_columns : {false, true})
                for (const bool b_columns : {false, true}) {
                    CAPTURE(perturb_a);
                    CAPTURE(a_columns);
                    CAPTURE(b_columns);
                    const MmaCase m = exact_case(random, perturb_a);
                    const std::vector<double> expected = reference(m, true);
                    const std::vector<float> got = run_mma(m, a_columns, b_columns, true);
                    int wrong = 0;
                    for (int e = 0; e < 256; ++e) wrong += static_cast<double>(got[e]) != expected[e];
                    CHECK(wrong == 0);
                }
    }

    TEST_CASE("mma_sync: random inputs give the in-order FP32 sum of exact TF32 products, within float64's bound") {
        std::mt19937 random(13);
        std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
        MmaCase m{std::vector<float>(128), std::vector<float>(128), std::vector<float>(256)};
        for (float& x : m.a) x = uniform(random);
        for (float& x : m.b) x = uniform(random);
        for (float& x : m.c) x = uniform(random);
        const std::vector<float> got = run_mma(m, false, true, true);
        const std::vector<double> exact = reference(m, true);
        int wrong = 0, outside = 0;
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 16; ++j) {
                // The documented arithmetic: c, then the 8 products (exact in FP32) added in order of k.
                float sum = m.c[i * 16 + j];
                double magnitude = std::fabs(m.c[i * 16 + j]);
                for (int k = 0; k < 8; ++k) {
                    const double product = tf32_reference(m.a[i * 8 + k], true) * tf32_reference(m.b[k * 16 + j], true);
                    sum += static_cast<float>(product);
                    magnitude += std::fabs(product);
                }
                wrong += bits(got[i * 16 + j]) != bits(sum);
                // 8 roundings of partial sums, each within half an FP32 ulp (2^-24) of their magnitude.
                outside += std::fabs(got[i * 16 + j] - exact[i * 16 + j]) > 8.0 * std::ldexp(1.0, -24) * magnitude;
            }
        CHECK(wrong == 0);
        CHECK(outside == 0);
    }

    TEST_CASE("mma_sync takes the top 19 bits of operands not converted with __float_to_tf32") {
        std::mt19937 random(17);
        for (const bool perturb_a : {true, false}) {
            const MmaCase m = exact_case(random, perturb_a);
            const std::vector<double> truncated = reference(m, false);
            int differs = 0, wrong = 0;
            const std::vector<double> rounded = reference(m, true);
            const std::vector<float> got = run_mma(m, false, false, false);
            for (int e = 0; e < 256; ++e) {
                differs += truncated[e] != rounded[e];  // the case tells truncation from rounding
                wrong += static_cast<double>(got[e]) != truncated[e];
            }
            CHECK(differs > 100);
            CHECK(wrong == 0);
        }
    }

    TEST_CASE("mma_sync: a 64x64x64 product tiled over the four warps of a block, and 128 and 256 over a grid") {
        for (const int n : {64, 128, 256}) {
            CAPTURE(n);
            std::mt19937 random(static_cast<unsigned>(n));
            std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
            std::vector<float> M(static_cast<std::size_t>(n) * n), N(M.size());
            for (float& x : M) x = uniform(random);
            for (float& x : N) x = uniform(random);
            const auto dm = upload(M), dn = upload(N);
            tilelab::DeviceBuffer<float> dp(M.size());
            const auto start = std::chrono::steady_clock::now();
            REQUIRE(wmma_tiled(dm.data(), dn.data(), dp.data(), n, 0) == cudaSuccess);
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            MESSAGE("tiled TF32 product of " << n << "^3 on the CPU backend: " << seconds << " s");
            const std::vector<float> got = download(dp);
            // The kernel's accumulators add the k-steps in order: the in-order sum, bit for bit.
            const std::vector<float> expected = tf32_product_in_order(M, N, n);
            int wrong = 0;
            for (std::size_t e = 0; e < got.size(); ++e) wrong += bits(got[e]) != bits(expected[e]);
            CHECK(wrong == 0);
        }
    }

    TEST_CASE("load_matrix_sync and store_matrix_sync: row and column major, ldm above 16, the rest untouched") {
        const int ldm = 24;
        std::vector<float> in(16 * ldm);
        for (std::size_t e = 0; e < in.size(); ++e) in[e] = static_cast<float>(e) + 0.25f;
        const auto din = upload(in);
        const float untouched = -7.0f;
        for (const bool in_columns : {false, true})
            for (const bool out_columns : {false, true}) {
                CAPTURE(in_columns);
                CAPTURE(out_columns);
                auto dout = upload(std::vector<float>(in.size(), untouched));
                REQUIRE(wmma_layout(din.data(), dout.data(), ldm, in_columns, out_columns, false, 0.0f) == cudaSuccess);
                const std::vector<float> out = download(dout);
                int wrong = 0, touched = 0;
                for (int r = 0; r < 16; ++r)
                    for (int c = 0; c < ldm; ++c) {
                        // Element (r, c) of the tile lies at r ldm + c row by row, c ldm + r column by column.
                        const std::size_t to = out_columns ? static_cast<std::size_t>(c * ldm + r) : r * ldm + c;
                        if (c < 16)
                            wrong += out[to] != in[in_columns ? static_cast<std::size_t>(c * ldm + r) : r * ldm + c];
                        else
                            touched += out[r * ldm + c] != untouched;  // past the tile's 16 columns (rows)
                    }
                CHECK(wrong == 0);
                CHECK(touched == 0);
            }
    }

    TEST_CASE("fill_fragment, x[] and num_elements: element-wise code holds for any mapping, which is not row-major") {
        std::vector<float> in(256);
        for (std::size_t e = 0; e < in.size(); ++e) in[e] = static_cast<float>(e) - 100.0f;
        const auto din = upload(in);
        tilelab::DeviceBuffer<float> dout(256);
        REQUIRE(wmma_layout(din.data(), dout.data(), 16, false, false, true, 3.5f) == cudaSuccess);
        for (const float x : download(dout)) CHECK(x == 3.5f);
        REQUIRE(wmma_elements(din.data(), dout.data(), 3.0f, false, 0.0f) == cudaSuccess);
        std::vector<float> out = download(dout);
        for (std::size_t e = 0; e < in.size(); ++e) CHECK(out[e] == 3.0f * in[e]);
        // Lane 0's x[0] is one element of the tile, but not (0, 0): code assuming so writes elsewhere.
        REQUIRE(wmma_elements(din.data(), dout.data(), 1.0f, true, 1.0e6f) == cudaSuccess);
        out = download(dout);
        int marked = 0;
        for (std::size_t e = 0; e < in.size(); ++e) marked += out[e] == 1.0e6f;
        CHECK(marked == 1);
        CHECK(out[0] == in[0]);
    }

    TEST_CASE("mma_sync reached by half of a warp is warp divergence, naming the calls and their lines") {
        tilelab::DeviceBuffer<float> out(256);
        const cudaError_t code = wmma_divergent(out.data());
        REQUIRE(code == cudaErrorTileLabBarrierDivergence);
        const std::string message = message_of(code);
        CAPTURE(message);
        CHECK(contains(message, "warp divergence in divergent_kernel, block (0, 0, 0), warp 0: mma_sync at "
                                "cpu/wmma_kernels.cu:" + std::to_string(divergent_mma_line) +
                                    " is a warp matrix function, which all 32 lanes of the warp must call together"));
        CHECK(contains(message, "lanes 0-15 (thread (0, 0, 0) the first) waited there, but lanes 16-31 waited at "
                                "store_matrix_sync at cpu/wmma_kernels.cu:"));
        CHECK(contains(message, "Decide per warp, not per thread"));
    }

    TEST_CASE("load_matrix_sync given different pointers by the lanes of a warp is warp divergence") {
        const auto in = upload(std::vector<float>(512, 1.0f));
        tilelab::DeviceBuffer<float> out(256);
        const cudaError_t code = wmma_mismatch(in.data(), out.data());
        REQUIRE(code == cudaErrorTileLabBarrierDivergence);
        const std::string message = message_of(code);
        CAPTURE(message);
        CHECK(contains(message, "load_matrix_sync at cpu/wmma_kernels.cu:"));
        CHECK(contains(message, "but lane 0 of this thread's warp gave a pointer to float index 0 of a device buffer "
                                "of 512 floats with ldm 16 (row major) and lane 16 gave a pointer to float index 256"));
    }

    TEST_CASE("load_matrix_sync of a shared tile other threads stored with no barrier between is a race") {
        const int n = 64;
        const auto dm = upload(std::vector<float>(n * n, 1.0f)), dn = upload(std::vector<float>(n * n, 1.0f));
        tilelab::DeviceBuffer<float> dp(n * n);
        cudaError_t code = wmma_tiled(dm.data(), dn.data(), dp.data(), n, 1);
        REQUIRE(code == cudaErrorTileLabSharedMemoryRace);
        std::string message = message_of(code);
        CAPTURE(message);
        CHECK(contains(message, "(in its load_matrix_sync at cpu/wmma_kernels.cu:"));
        CHECK(contains(message, "A barrier is missing between loading the tiles and computing from them"));
        // The next phase's stores into tiles that other warps' fragments read in this one.
        code = wmma_tiled(dm.data(), dn.data(), dp.data(), n, 2);
        REQUIRE(code == cudaErrorTileLabSharedMemoryRace);
        message = message_of(code);
        CHECK(contains(message, "A barrier is missing between computing from the tiles and loading the next ones"));
        // store_matrix_sync's writes are seen too: warp 1 loads what warp 0 stored, with and without a barrier.
        tilelab::DeviceBuffer<float> out(256);
        code = wmma_exchange(out.data(), false);
        REQUIRE(code == cudaErrorTileLabSharedMemoryRace);
        message = message_of(code);
        CHECK(contains(message, "shared_tile["));
        CHECK(contains(message, "(in its load_matrix_sync at cpu/wmma_kernels.cu:"));
        REQUIRE(wmma_exchange(out.data(), true) == cudaSuccess);
        for (const float x : download(out)) CHECK(x == 2.0f);
    }

    TEST_CASE("load_matrix_sync: an ldm that is not a multiple of 4, a pointer off 32 bytes, a tile past the buffer") {
        {
            const auto in = upload(std::vector<float>(16 * 18, 1.0f));
            tilelab::DeviceBuffer<float> out(16 * 18);
            const cudaError_t code = wmma_layout(in.data(), out.data(), 18, false, false, false, 0.0f);
            REQUIRE(code == cudaErrorMisalignedAddress);
            CHECK(contains(message_of(code), "load_matrix_sync at cpu/wmma_kernels.cu:"));
            CHECK(contains(message_of(code), "was given ldm 18, which is not a multiple of 4"));
        }
        {
            const auto in = upload(std::vector<float>(300, 1.0f));
            tilelab::DeviceBuffer<float> out(256);
            const cudaError_t code = wmma_layout(in.data() + 4, out.data(), 16, false, false, false, 0.0f);
            REQUIRE(code == cudaErrorMisalignedAddress);
            CHECK(contains(message_of(code), "was given a pointer to float index 4 of a device buffer of 300 floats, "
                                             "which is 16 bytes past a 32-byte boundary"));
        }
        {
            const auto in = upload(std::vector<float>(200, 1.0f));
            tilelab::DeviceBuffer<float> out(256);
            const cudaError_t code = wmma_layout(in.data(), out.data(), 16, false, false, false, 0.0f);
            REQUIRE(code == cudaErrorIllegalAddress);
            CHECK(contains(message_of(code), "load_matrix_sync at cpu/wmma_kernels.cu:"));
            CHECK(contains(message_of(code), "reads the 16 x 16 tile starting at float index 0 (ldm 16, row major) of a "
                                             "device buffer of 200 floats, and its element (row "));
            CHECK(contains(message_of(code), "lies outside the buffer"));
        }
    }

    TEST_CASE("load_matrix_sync in a warp of fewer than 32 lanes is reported") {
        const auto in = upload(std::vector<float>(256, 1.0f));
        tilelab::DeviceBuffer<float> out(256);
        const cudaError_t code = wmma_partial_warp(in.data(), out.data());
        REQUIRE(code == cudaErrorTileLabBarrierDivergence);
        CHECK(contains(message_of(code), "was called by warp 1, which has only 16 lanes: the block has 48 threads"));
    }
}
