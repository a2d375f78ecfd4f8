// The performance gate: the lab's tiled kernel must beat the model naive kernel at the same TILE_WIDTH, timed
// in this one process, interleaved, after warm-up, as the median of many runs on a working set larger than L2.
#include "lab_under_test.hpp"
#include "reference_naive.hpp"

#include <tilelab/compare.hpp>
#include <tilelab/device_buffer.hpp>
#include <tilelab/random.hpp>
#include <tilelab/timing.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace tilelab::grader {
namespace {

double env_number(const char* name, double fallback) {
    const char* text = std::getenv(name);
    return text != nullptr && *text != '\0' ? std::strtod(text, nullptr) : fallback;
}

std::vector<float> download(const DeviceBuffer<float>& buffer) {
    std::vector<float> values(buffer.size());
    buffer.copy_to_host(values.data(), values.size());
    return values;
}

}  // namespace

TEST_SUITE("perf") {
    TEST_CASE("the tiled kernel beats the reference naive kernel") {
        const LabUnderTest& lab = lab_under_test();
        const int n = static_cast<int>(env_number("TILELAB_PERF_SIZE", 4096));
        const double required = env_number("TILELAB_MIN_SPEEDUP", 1.25);
        const int repeats = static_cast<int>(env_number("TILELAB_PERF_REPEATS", 15));
        const std::size_t count = static_cast<std::size_t>(n) * n;

        HostMatrix M(n, n), N(n, n);
        fill_uniform(M, derive_seed(base_seed(), "perf M"));
        fill_uniform(N, derive_seed(base_seed(), "perf N"));
        DeviceBuffer<float> device_M(count), device_N(count), naive_P(count), tiled_P(count);
        device_M.copy_from_host(M.data(), count);
        device_N.copy_from_host(N.data(), count);

        auto naive = [&] { tilelab_reference_matmul_naive(device_M.data(), device_N.data(), naive_P.data(), n, n, n); };
        auto tiled = [&] { lab.launch(device_M.data(), device_N.data(), tiled_P.data(), n, n, n); };
        for (int i = 0; i < 2; ++i) {  // warm-up: module loading and clocks stay out of the numbers
            time_ms(naive);
            time_ms(tiled);
        }
        std::vector<float> naive_ms, tiled_ms;
        for (int i = 0; i < repeats; ++i) {  // interleaved, so drifting clocks affect both alike
            naive_ms.push_back(time_ms(naive));
            tiled_ms.push_back(time_ms(tiled));
        }

        // A fast wrong kernel must not pass: the tiled result must match the naive one, within the float32 error
        // bound (taken from the naive kernel run on |M| and |N|, which gives Σ|m·n|).
        const std::vector<float> naive_result = download(naive_P);
        const std::vector<float> tiled_result = download(tiled_P);
        for (float* values : {M.data(), N.data()})
            std::transform(values, values + count, values, [](float x) { return std::fabs(x); });
        device_M.copy_from_host(M.data(), count);
        device_N.copy_from_host(N.data(), count);
        time_ms(naive);
        const std::vector<float> magnitude = download(naive_P);
        std::size_t disagree = 0;
        for (std::size_t i = 0; i < count; ++i)
            if (!(std::fabs(tiled_result[i] - naive_result[i]) <= 2 * tolerance(n, magnitude[i]))) ++disagree;

        const float naive_median = median(naive_ms);
        const float tiled_median = median(tiled_ms);
        const double speedup = naive_median / tiled_median;
        char line[512];
        std::snprintf(line, sizeof line,
                      "%s at TILE_WIDTH %d, %dx%dx%d, %d interleaved runs after warm-up: reference naive median %.3f ms "
                      "(%.3f..%.3f), tiled median %.3f ms (%.3f..%.3f), speedup %.2fx, required %.2fx",
                      lab.name, lab.tile_width, n, n, n, repeats, naive_median,
                      *std::min_element(naive_ms.begin(), naive_ms.end()),
                      *std::max_element(naive_ms.begin(), naive_ms.end()), tiled_median,
                      *std::min_element(tiled_ms.begin(), tiled_ms.end()),
                      *std::max_element(tiled_ms.begin(), tiled_ms.end()), speedup, required);
        std::printf("%s\n", line);
        if (disagree > 0)
            FAIL_CHECK((std::to_string(disagree) + " elements of the tiled result differ from the reference naive "
                        "kernel's at this size: fix correctness first"));
        if (speedup < required)
            FAIL_CHECK((std::string(line) + "\n  the tiled kernel is not fast enough: is every phase reading its "
                        "operands from the shared tiles, and is the grid one block per tile?"));
    }
}

}  // namespace tilelab::grader
