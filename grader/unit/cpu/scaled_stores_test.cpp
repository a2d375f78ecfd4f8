// The emulator's scaled shared stores (tilelab::cpu::scale_shared_stores), on which the shared-memory check's
// evidence rests (grader/src/tile_sources.hpp): every float stored into shared memory, by any path, is scaled;
// nothing else is.
#include "emulator_kernels.hpp"
#include "tile_sources.hpp"

#include <tilelab/cpu/emulator.hpp>
#include <tilelab/device_buffer.hpp>

#include <doctest/doctest.h>

#include <numeric>
#include <vector>

namespace {

// Scales shared stores by @p scale while it lives.
struct ScaledStores {
    explicit ScaledStores(float scale) { tilelab::cpu::scale_shared_stores(scale); }
    ~ScaledStores() { tilelab::cpu::scale_shared_stores(1.0f); }
    ScaledStores(const ScaledStores&) = delete;
    ScaledStores& operator=(const ScaledStores&) = delete;
};

std::vector<float> iota_floats(std::size_t count) {
    std::vector<float> values(count);
    std::iota(values.begin(), values.end(), 1.0f);
    return values;
}

}  // namespace

TEST_SUITE("cpu-emulator-scaled-stores") {
    TEST_CASE("scales floats assigned to shared elements, and only while asked") {
        const int blocks = 2, threads = 64;
        const std::vector<float> values = iota_floats(blocks * threads);
        for (const float scale : {2.0f, 1.0f}) {
            tilelab::DeviceBuffer<float> data(values.size());
            data.copy_from_host(values.data(), values.size());
            {
                ScaledStores scaled(scale);
                REQUIRE(reverse_blocks(data.data(), blocks, threads, true) == cudaSuccess);  // through shared memory once
            }
            std::vector<float> got(values.size());
            data.copy_to_host(got.data(), got.size());
            for (int b = 0; b < blocks; ++b)
                for (int i = 0; i < threads; ++i)
                    CHECK(got[b * threads + i] == scale * values[b * threads + threads - 1 - i]);
        }
    }

    TEST_CASE("a __device__ helper's pointer parameter scales its stores into shared memory, not into global") {
        const std::vector<float> values = iota_floats(64);
        tilelab::DeviceBuffer<float> in(64), global(64), staged(64);
        in.copy_from_host(values.data(), values.size());
        {
            ScaledStores scaled(2.0f);
            REQUIRE(helper_store(in.data(), global.data(), staged.data()) == cudaSuccess);
        }
        std::vector<float> got_global(64), got_staged(64);
        global.copy_to_host(got_global.data(), got_global.size());
        staged.copy_to_host(got_staged.data(), got_staged.size());
        for (int t = 0; t < 64; ++t) {
            CHECK(got_global[t] == values[t]);  // P written by a helper, as the CUDA Samples' matrixMul does
            CHECK(got_staged[t] == 2.0f * values[63 - t]);
        }
    }

    TEST_CASE("scales float4 stores into shared memory") {
        const int blocks = 2, count = blocks * 64 * 4;
        const std::vector<float> values = iota_floats(count + 4);
        tilelab::DeviceBuffer<float> in(values.size()), out(count);
        in.copy_from_host(values.data(), values.size());
        {
            ScaledStores scaled(2.0f);
            REQUIRE(vector_reverse(in.data(), out.data(), blocks, 4) == cudaSuccess);
        }
        std::vector<float> got(count);
        out.copy_to_host(got.data(), got.size());
        for (int b = 0; b < blocks; ++b)
            for (int t = 0; t < 64; ++t)
                for (int i = 0; i < 4; ++i)
                    CHECK(got[(b * 64 + t) * 4 + i] == 2.0f * values[4 + (b * 64 + 63 - t) * 4 + i]);
    }

    TEST_CASE("scales asynchronous copies as they land in shared memory") {
        const std::vector<float> values = iota_floats(12);
        tilelab::DeviceBuffer<float> in(values.size()), out(4);
        in.copy_from_host(values.data(), values.size());
        {
            ScaledStores scaled(2.0f);
            REQUIRE(async_vector(in.data(), out.data(), 8, 8) == cudaSuccess);  // floats 8, 9, then two zeros
        }
        std::vector<float> got(4);
        out.copy_to_host(got.data(), got.size());
        CHECK(got == std::vector<float>{2.0f * values[8], 2.0f * values[9], 0.0f, 0.0f});
    }

    TEST_CASE("leaves integers in shared memory alone") {
        std::vector<int> values(100);
        std::iota(values.begin(), values.end(), 1);
        tilelab::DeviceBuffer<int> device_values(values.size()), total(1);
        device_values.copy_from_host(values.data(), values.size());
        {
            ScaledStores scaled(2.0f);
            REQUIRE(dynamic_sum(device_values.data(), total.data(), 100) == cudaSuccess);
        }
        int got = 0;
        total.copy_to_host(&got, 1);
        CHECK(got == 5050);
    }

    TEST_CASE("tells s² P from s P and from P, within float32 rounding") {
        using tilelab::grader::scaled_fits;
        const double s = 1.0 + 1.0 / 128, expected = 0.75, magnitude = 8.0;
        const int inner = 32;
        CHECK(scaled_fits(static_cast<float>(s * s * expected), expected, magnitude, inner, s) == 4u);
        CHECK(scaled_fits(static_cast<float>(s * expected), expected, magnitude, inner, s) == 2u);
        CHECK(scaled_fits(static_cast<float>(expected), expected, magnitude, inner, s) == 1u);
        CHECK(scaled_fits(static_cast<float>(-expected), expected, magnitude, inner, s) == 0u);
        // A rounding error of inner * 2^-24 * magnitude (the worst a float32 sum makes) still fits s².
        CHECK(scaled_fits(static_cast<float>(s * s * expected + inner * magnitude / 16777216.0), expected, magnitude,
                          inner, s) == 4u);
    }
}
