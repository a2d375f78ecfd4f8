// The performance gate: the lab's kernel, launched by the kit with the contract's grid and block, must beat the
// previous stage's model kernel (labs 02 and 03: the naive one at the same TILE_WIDTH; lab 05: the tiled one;
// lab 06: the coarsened one; lab 07: the register-tiled one; lab 08: the vectorised one), by the lab's own
// margin (LabUnderTest::min_speedup). The lab's program times both in one process, interleaved, after
// warm-up, on a working set larger than L2; this checker takes the medians, decides, and checks the result.
#include "gpu_lease.hpp"
#include "lab_runner.hpp"
#include "lab_under_test.hpp"

#include <tilelab/compare.hpp>
#include <tilelab/random.hpp>
#include <tilelab/timing.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace tilelab::grader {
namespace {

double env_number(const char* name, double fallback) {
    const char* text = std::getenv(name);
    return text != nullptr && *text != '\0' ? std::strtod(text, nullptr) : fallback;
}

// Elements of P checked against the float64 reference: enough to see any wrong kernel, cheap at 4096³.
constexpr int sampled_elements = 4096;

// How many sampled elements of @p P (n × n) are outside tolerance of M · N.
int wrong_samples(const HostMatrix& M, const HostMatrix& N, const std::vector<float>& P, int n) {
    std::mt19937_64 pick(derive_seed(base_seed(), "perf sample"));
    std::uniform_int_distribution<int> index(0, n - 1);
    int wrong = 0;
    for (int s = 0; s < sampled_elements; ++s) {
        const int r = index(pick), c = index(pick);
        double sum = 0, magnitude = 0;
        for (int k = 0; k < n; ++k) {
            const double term = static_cast<double>(M.at(r, k)) * N.at(k, c);
            sum += term;
            magnitude += std::fabs(term);
        }
        if (!(std::fabs(P[static_cast<std::size_t>(r) * n + c] - sum) <= tolerance(n, magnitude))) ++wrong;
    }
    return wrong;
}

}  // namespace

TEST_SUITE("perf") {
    TEST_CASE("the tiled kernel beats the reference naive kernel") {
        const LabUnderTest& lab = lab_under_test();
        const int n = static_cast<int>(env_number("TILELAB_PERF_SIZE", 4096));
        const double required = env_number("TILELAB_MIN_SPEEDUP", lab.min_speedup);
        const int repeats = static_cast<int>(env_number("TILELAB_PERF_REPEATS", 15));

        HostMatrix M(n, n), N(n, n);
        fill_uniform(M, derive_seed(base_seed(), "perf M"));
        fill_uniform(N, derive_seed(base_seed(), "perf N"));
        // The operands travel and both kernels warm up while the GPU is shared; it is held alone for the timed
        // runs only, and the result comes back after (in a batch, others wait for the measuring part alone).
        wire::Writer load, time, result;
        load.put(wire::Op::perf_load).put<std::int32_t>(n).put_floats(M.data(), M.size()).put_floats(N.data(), N.size());
        time.put(wire::Op::perf).put<std::int32_t>(repeats);
        result.put(wire::Op::perf_result);
        std::vector<float> naive_ms, tiled_ms, P;
        try {
            require_ok(ask_runner(load, "loading the operands to time the kernels", GpuUse::shared),
                       "the kit's launch of the kernel");
            const Reply timings = ask_runner(time, "timing the kernels", GpuUse::timing);
            gpu_lease().release();
            require_ok(timings, "the kit's launch of the kernel");
            wire::Reader in = body(timings);
            naive_ms = in.get_floats();
            tiled_ms = in.get_floats();
            require_complete(in, "timing the kernels");
            const Reply product = ask_runner(result, "reading back the result of the timed runs", GpuUse::shared);
            require_ok(product, "reading back the result");
            wire::Reader out = body(product);
            P = out.get_floats();
            require_complete(out, "reading back the result of the timed runs");
        } catch (const std::exception& error) {
            gpu_lease().release();
            FAIL(std::string(error.what()));
        }
        REQUIRE_MESSAGE((naive_ms.size() == static_cast<std::size_t>(repeats) && tiled_ms.size() == naive_ms.size() &&
                         P.size() == M.size()),
                        "the lab's program sent back timings or a result of the wrong size");

        const float naive_median = median(naive_ms);
        const float tiled_median = median(tiled_ms);
        const double speedup = naive_median / tiled_median;
        char line[512];
        std::snprintf(line, sizeof line,
                      "%s at TILE_WIDTH %d, %dx%dx%d, %d interleaved runs after warm-up: reference (%s) median %.3f ms "
                      "(%.3f..%.3f), the lab's kernel median %.3f ms (%.3f..%.3f), speedup %.2fx, required %.2fx",
                      lab.name, lab.tile_width, n, n, n, repeats, lab.reference, naive_median,
                      *std::min_element(naive_ms.begin(), naive_ms.end()),
                      *std::max_element(naive_ms.begin(), naive_ms.end()), tiled_median,
                      *std::min_element(tiled_ms.begin(), tiled_ms.end()),
                      *std::max_element(tiled_ms.begin(), tiled_ms.end()), speedup, required);
        std::printf("%s\n", line);
        const char* flags = std::getenv("TILELAB_GATE_CUDA_FLAGS");
        if (flags != nullptr && *flags != '\0')
            std::printf("both kernels built with %s: global loads are cached in L2 only, so a kernel is fast here "
                        "through what it reuses from shared memory, not through the L1 cache\n", flags);
        // A fast wrong kernel must not pass: sampled elements of its result against the float64 reference.
        const int wrong = wrong_samples(M, N, P, n);
        if (wrong > 0)
            FAIL_CHECK((std::to_string(wrong) + " of " + std::to_string(sampled_elements) +
                        " sampled elements of the tiled result are wrong at this size: fix correctness first"));
        else  // the rate of a right result, for Gradescope's leaderboard (report.cmake reads this line)
            std::printf("leaderboard: %.1f GFLOP/s (%s, %dx%dx%d, median of %d runs)\n",
                        2.0 * n * n * static_cast<double>(n) / (tiled_median * 1e6), lab.name, n, n, n, repeats);
        if (!(speedup >= required) && lab.block_tile > 0)
            FAIL_CHECK((std::string(line) + "\n  the kernel is not fast enough: it runs no faster than " +
                        lab.reference + ", whose design this lab improves on. Keep each thread's outputs in "
                        "registers, reuse every value read from shared memory for all the outputs it serves, load the "
                        "tiles with consecutive threads on consecutive elements, and unroll the loops over the "
                        "outputs (with constant bounds, so the sums stay in registers). (TILELAB_MIN_SPEEDUP sets the "
                        "speedup required.)"));
        else if (!(speedup >= required))
            FAIL_CHECK((std::string(line) + "\n  the tiled kernel is not fast enough: it runs like a kernel that "
                        "reads its operands from global memory. Each phase should load each tile element once, wait, "
                        "then compute only from the shared tiles (both operands), and wait again before the next "
                        "loads; the grid is one block per tile of P. The kit measures with global loads cached in L2 "
                        "only, so caches do not hide a kernel that does not reuse its tiles. "
                        "(TILELAB_MIN_SPEEDUP sets the speedup required.)"));
    }
}

}  // namespace tilelab::grader
