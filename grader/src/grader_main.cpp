// The checker's entry point: says what is graded and with which seed, skips (exit 77) without a usable GPU,
// runs the selected checks against the lab's program (a separate, sandboxed process), and fails when a filter
// selected no test at all, so a misspelt suite can never pass silently. A failure ends with the section of
// docs/grading.md that explains the check. Its verdict is its exit status, also
// written to --verdict-file for grade.cmake; nothing the lab's program prints or returns decides it.
#define DOCTEST_CONFIG_IMPLEMENT
#include "grading_page.hpp"
#include "lab_runner.hpp"
#include "lab_under_test.hpp"
#include "run_counter.hpp"

#include <tilelab/random.hpp>

#include <cuda_runtime_api.h>
#include <doctest/doctest.h>

#include <cstdio>
#include <exception>
#include <fstream>
#include <stdexcept>
#include <string>

namespace {

/// Exit code that CTest's SKIP_RETURN_CODE turns into "skipped".
constexpr int exit_skipped = 77;

/// True when a CUDA GPU can be used; otherwise prints why not. Asked here, by the checker, so that a lab's
/// program cannot have its GPU checks skipped by claiming there is no GPU.
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

// What each compute-sanitizer tool's error means for a lab.
std::string sanitizer_hint(const std::string& tool) {
    if (tool == "memcheck")
        return "memcheck found an invalid memory access: a thread read or wrote outside a buffer; check the bounds "
               "tests and the index arithmetic";
    if (tool == "racecheck")
        return "racecheck found a shared-memory race: threads write and read a tile with no __syncthreads() "
               "between them; a barrier is missing";
    return "synccheck found an invalid use of __syncthreads(): some threads of a block skip a barrier that others "
           "wait at; never put a barrier inside a bounds test";
}

// After the checks under compute-sanitizer: its verdict on the lab's program, from its exit status.
int sanitizer_verdict(const std::string& tool, int checks_result) {
    const int status = tilelab::grader::finish_runner();
    if (status == tilelab::grader::sanitizer_error_status) {
        std::printf("error: %s\nhint: %s\n", tool.c_str(), sanitizer_hint(tool).c_str());
        return 1;
    }
    if (checks_result != 0) {
        std::printf("error: %s: the checks themselves failed while running under compute-sanitizer; see above\n",
                    tool.c_str());
        return checks_result;
    }
    if (status != 0) {
        std::printf("error: %s: the lab's program under compute-sanitizer ended with status %d\n", tool.c_str(), status);
        return 1;
    }
    std::printf("%s: no errors\n", tool.c_str());
    return 0;
}

int write_verdict(const std::string& file, int result) {
    if (file.empty()) return result;
    std::ofstream out(file, std::ios::trunc);
    out << (result == 0 ? "passed" : result == exit_skipped ? "skipped" : "failed") << "\n";
    if (!out) std::printf("error: cannot write the verdict to %s\n", file.c_str());
    return out ? result : 1;
}

}  // namespace

int main(int argc, char** argv) {
    tilelab::grader::CheckerOptions options;
    try {
        options = tilelab::grader::parse_checker_options(argc, argv);
    } catch (const std::invalid_argument& error) {
        doctest::Context listing(argc, argv);  // --help, --list-test-cases and the like need no lab
        if (listing.shouldExit()) return listing.run();
        std::printf("error: %s\n", error.what());
        return 2;
    }
    tilelab::grader::set_checker_options(options);
    doctest::Context context(argc, argv);
    if (context.shouldExit()) return context.run();

    const auto& lab = tilelab::grader::lab_under_test();
    try {
        std::printf("Grading %s (%s) at TILE_WIDTH %d with seed %llu (set TILELAB_SEED to change it)\n", lab.name,
                    lab.launcher, lab.tile_width, static_cast<unsigned long long>(tilelab::base_seed()));
    } catch (const std::exception& error) {
        std::printf("error: %s\n", error.what());
        return write_verdict(options.verdict_file, 2);
    }
    std::fflush(stdout);
    try {
        // In a batch, even asking for the GPU waits while another check measures it (grader/batch.sh).
        tilelab::grader::hold_gpu(tilelab::grader::GpuUse::shared);
    } catch (const std::exception& error) {
        std::printf("error: %s\n", error.what());
        return write_verdict(options.verdict_file, 2);
    }
    const bool have_gpu = gpu_available();
    tilelab::grader::gpu_lease().release_shared();
    if (!have_gpu) return write_verdict(options.verdict_file, exit_skipped);

    int result = tilelab::grader::fail_if_nothing_ran(context.run());
    if (!options.sanitizer_tool.empty()) result = sanitizer_verdict(options.sanitizer_tool, result);
    if (result != 0) tilelab::grader::print_grading_page_links(options.sanitizer_tool);  // the page that explains it
    return write_verdict(options.verdict_file, result);
}
