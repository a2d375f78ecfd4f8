// What a kernel that never ends does to a GPU's other users, and how long its process takes to end once killed
// (docs/benchmarks.md#class_two_gpus): a gate that times its kernels while another program's kernel spins is
// disturbed, and a killed program's kernel runs until the driver has torn its context down.
//   nvcc -arch=sm_90 -Icommon/include -o hung scripts/hung-kernel-teardown.cu common/src/cuda_check.cpp
//   [WALL=1] [BLOCKS=65536] ./hung
// WALL: time by the host's clock from launch to the end, as the gate does; BLOCKS: the spinning grid's size.
#include <tilelab/cuda_check.hpp>

#include <cuda_runtime.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using Clock = std::chrono::steady_clock;

__global__ void spin(const volatile int* stop) {
    while (*stop == 0) {
    }
}

// Fixed work on every SM: the "gate's" kernel.
__global__ void work(float* out, int rounds) {
    float x = threadIdx.x;
    for (int i = 0; i < rounds; ++i) x = x * 0.999f + 1.0f;
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

bool wall = false;  // the host's clock from launch to the end, not the events'

double median_ms(float* out, int rounds) {
    std::vector<double> times;
    for (int run = 0; run < 7; ++run) {
        cudaEvent_t start, stop;
        TILELAB_CUDA_CHECK(cudaEventCreate(&start));
        TILELAB_CUDA_CHECK(cudaEventCreate(&stop));
        const auto began = Clock::now();
        TILELAB_CUDA_CHECK(cudaEventRecord(start));
        work<<<132 * 8, 256>>>(out, rounds);
        TILELAB_CUDA_CHECK(cudaGetLastError());
        TILELAB_CUDA_CHECK(cudaEventRecord(stop));
        TILELAB_CUDA_CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        TILELAB_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        times.push_back(wall ? std::chrono::duration<double, std::milli>(Clock::now() - began).count() : ms);
        TILELAB_CUDA_CHECK(cudaEventDestroy(start));
        TILELAB_CUDA_CHECK(cudaEventDestroy(stop));
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

int main(int argc, char** argv) {
    if (argc > 1) {  // the program whose kernel never ends
        int* stop = nullptr;
        TILELAB_CUDA_CHECK(cudaMalloc(&stop, sizeof(int)));
        TILELAB_CUDA_CHECK(cudaMemset(stop, 0, sizeof(int)));
        // As a naive multiply's grid (BLOCKS, default one warp per SM): the blocks the driver stops at the kill.
        const char* blocks = std::getenv("BLOCKS");
        spin<<<blocks != nullptr ? std::atoi(blocks) : 132, blocks != nullptr ? 256 : 32>>>(stop);
        TILELAB_CUDA_CHECK(cudaGetLastError());
        std::printf("spinning\n");
        std::fflush(stdout);
        TILELAB_CUDA_CHECK(cudaDeviceSynchronize());
        return 0;
    }
    wall = std::getenv("WALL") != nullptr;
    float* out = nullptr;
    TILELAB_CUDA_CHECK(cudaMalloc(&out, 132 * 8 * 256 * sizeof(float)));
    const int rounds = 200000;
    median_ms(out, rounds);  // warm-up
    const double alone_before = median_ms(out, rounds);
    auto start_spinner = [&]() {
        const pid_t child = fork();
        if (child == 0) {
            execl(argv[0], argv[0], "spin", static_cast<char*>(nullptr));
            _exit(127);
        }
        sleep(3);  // its context made and its kernel running
        return child;
    };
    // As the grader did: the hold let go as soon as the program was sent SIGKILL, a gate timing at once.
    pid_t child = start_spinner();
    const double beside = median_ms(out, rounds);
    kill(child, SIGKILL);
    const double not_waited = median_ms(out, rounds);
    waitpid(child, nullptr, 0);
    // As it does now: the hold kept until the program has ended.
    child = start_spinner();
    const auto killed = Clock::now();
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    const double teardown_ms = std::chrono::duration<double, std::milli>(Clock::now() - killed).count();
    const double waited = median_ms(out, rounds);
    std::printf("work kernel, median of 7: alone %.2f ms; beside a kernel that never ends %.2f ms (%.2fx); "
                "timed as soon as the spinning program was sent SIGKILL %.2f ms (%.2fx); the program ended %.1f ms "
                "after SIGKILL, timed then %.2f ms (%.2fx)\n",
                alone_before, beside, beside / alone_before, not_waited, not_waited / alone_before, teardown_ms,
                waited, waited / alone_before);
    return 0;
}
