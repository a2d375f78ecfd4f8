// The grader's entry point: says what is graded and with which seed, skips (exit 77) without a usable GPU,
// and fails when a filter selected no test at all, so a misspelt suite can never pass silently.
#define DOCTEST_CONFIG_IMPLEMENT
#include "lab_under_test.hpp"
#include "run_counter.hpp"

#include <tilelab/random.hpp>

#include <cuda_runtime_api.h>
#include <doctest/doctest.h>

#include <cstdio>
#include <exception>

namespace {

/// Exit code that CTest's SKIP_RETURN_CODE turns into "skipped".
constexpr int exit_skipped = 77;

/// True when a CUDA GPU can be used; otherwise prints why not.
bool gpu_available() {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess || count == 0) {
        std::printf("SKIPPED: no usable CUDA GPU (%s); the GPU checks did not run\n",
                    status != cudaSuccess ? cudaGetErrorString(status) : "no device found");
        return false;
    }
    cudaDeviceProp properties{};
    if (cudaGetDeviceProperties(&properties, 0) == cudaSuccess) {
#ifdef TILELAB_CPU_BACKEND
        std::printf("Backend: %s; every __syncthreads() and shared-memory access is checked\n", properties.name);
#else
        std::printf("GPU: %s (compute capability %d.%d)\n", properties.name, properties.major, properties.minor);
#endif
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    doctest::Context context(argc, argv);
    if (context.shouldExit()) return context.run();  // --help, --list-test-cases and the like need no GPU

    const auto& lab = tilelab::grader::lab_under_test();
    try {
        std::printf("Grading %s (%s) at TILE_WIDTH %d with seed %llu (set TILELAB_SEED to change it)\n", lab.name,
                    lab.launcher, lab.tile_width, static_cast<unsigned long long>(tilelab::base_seed()));
    } catch (const std::exception& error) {
        std::printf("error: %s\n", error.what());
        return 2;
    }
    if (!gpu_available()) return exit_skipped;

    return tilelab::grader::fail_if_nothing_ran(context.run());
}
