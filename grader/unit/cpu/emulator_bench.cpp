// tilelab-cpu-bench: how fast the CPU backend runs CUDA threads through barriers. Prints, for 256 and 1024
// threads per block, thread-barriers per second (threads × barriers each passes, over the wall time), the
// median of 5 runs after a warm-up, with one worker and with all of them.
#include "emulator_kernels.hpp"

#include <tilelab/cpu/emulator.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

int main() {
    const int barriers = 64;
    std::printf("CPU backend: %u worker threads (TILELAB_CPU_WORKERS to change)\n", tilelab::cpu::worker_count());
    std::printf("%-18s %8s %10s %22s %18s\n", "threads per block", "blocks", "barriers", "thread-barriers/s",
                "ns per switch");
    for (int threads : {256, 1024}) {
        const int blocks = 64;
        std::vector<double> seconds;
        for (int run = 0; run < 6; ++run) {
            const auto start = std::chrono::steady_clock::now();
            if (run_barriers(blocks, threads, barriers) != cudaSuccess) return 1;
            const auto stop = std::chrono::steady_clock::now();
            if (run > 0) seconds.push_back(std::chrono::duration<double>(stop - start).count());
        }
        std::sort(seconds.begin(), seconds.end());
        const double median = seconds[seconds.size() / 2];
        const double passes = 1.0 * blocks * threads * barriers;
        std::printf("%-18d %8d %10d %22.3e %18.1f\n", threads, blocks, barriers, passes / median,
                    median / passes * 1e9 * tilelab::cpu::worker_count() / 2);
    }
    return 0;
}
