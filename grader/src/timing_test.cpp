// Lab 04's checks: matmul_timed computes P, reports the kernel's own time (not the copies, not an unfinished
// kernel), gives back all the device memory it took, and reports a failed allocation instead of crashing.
#include "check_shape.hpp"
#include "lab_under_test.hpp"

#include <tilelab/compare.hpp>
#include <tilelab/cuda_check.hpp>
#include <tilelab/device_buffer.hpp>
#include <tilelab/labs.hpp>
#include <tilelab/random.hpp>
#include <tilelab/reference.hpp>
#include <tilelab/timing.hpp>

#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

namespace tilelab::grader {
namespace {

// The student's time and the grader's must agree within this factor. At 1024³ the copies take several times
// longer than the kernel on current GPUs, so a time that includes them falls outside it.
constexpr double clock_factor = 2.0;
// Device memory allowed to go missing over one call: a quarter of the smallest buffer of the large product.
constexpr std::size_t leak_slack_bytes = static_cast<std::size_t>(large_side) * large_side;

struct TimedRun {
    float ms;
    bool correct;
    std::string report;
};

// Calls matmul_timed on fresh inputs, with P poisoned and a guard zone after it in host memory.
TimedRun run_timed(const Shape& shape) {
    HostMatrix M(shape.rows, shape.inner), N(shape.inner, shape.cols);
    fill_uniform(M, derive_seed(base_seed(), "M " + to_string(shape)));
    fill_uniform(N, derive_seed(base_seed(), "N " + to_string(shape)));
    const std::size_t count = static_cast<std::size_t>(shape.rows) * shape.cols;
    const std::size_t guard = 4096;
    std::vector<float> P(count + guard, unwritten_value());
    const float ms = matmul_timed(M.data(), N.data(), P.data(), shape.rows, shape.inner, shape.cols);
    const Comparison comparison = compare(P.data(), reference_matmul(M, N));
    TimedRun run{ms, comparison.passed(), {}};
    for (std::size_t i = count; i < P.size(); ++i)
        if (!is_unwritten(P[i])) {
            run.correct = false;
            run.report = "matmul_timed wrote past the end of P in host memory: copy rows * cols floats back. ";
            break;
        }
    if (!comparison.passed())
        run.report += std::to_string(comparison.wrong) + " elements of P wrong and " +
                      std::to_string(comparison.unwritten) + " never written for shape " + to_string(shape);
    return run;
}

std::size_t free_device_bytes() {
    std::size_t free = 0, total = 0;
    TILELAB_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    return free;
}

// The grader's own timing of the same kernel (through lab 03's launcher): warm-up, then the median of 7 runs.
float grader_kernel_ms(const Shape& shape) {
    const LabUnderTest& lab = lab_under_test();
    DeviceBuffer<float> M(static_cast<std::size_t>(shape.rows) * shape.inner);
    DeviceBuffer<float> N(static_cast<std::size_t>(shape.inner) * shape.cols);
    DeviceBuffer<float> P(static_cast<std::size_t>(shape.rows) * shape.cols);
    HostMatrix values(shape.rows, shape.inner);
    fill_uniform(values, 1);
    M.copy_from_host(values.data(), values.size());
    HostMatrix values_N(shape.inner, shape.cols);
    fill_uniform(values_N, 2);
    N.copy_from_host(values_N.data(), values_N.size());
    auto launch = [&] { lab.launch(M.data(), N.data(), P.data(), shape.rows, shape.inner, shape.cols); };
    time_ms(launch);
    std::vector<float> times;
    for (int i = 0; i < 7; ++i) times.push_back(time_ms(launch));
    return median(times);
}

}  // namespace

TEST_SUITE("timing-results") {
    TEST_CASE("computes P and reports a positive time") {
        for (const Shape& shape : std::vector<Shape>{{1, 1, 1}, {17, 15, 33}, {97, 131, 61}, {256, 256, 256}}) {
            const TimedRun run = run_timed(shape);
            CHECK_MESSAGE(run.correct, run.report);
            CHECK_MESSAGE(run.ms > 0.0f, ("matmul_timed returned " + std::to_string(run.ms) + " ms for shape " +
                                          to_string(shape) + ": return the events' elapsed time"));
        }
    }
}

TEST_SUITE("timing-clock") {
    TEST_CASE("the reported time is the kernel's alone") {
        const Shape shape{large_side, large_side, large_side};
        const float grader_ms = grader_kernel_ms(shape);
        std::vector<float> student;
        for (int i = 0; i < 5; ++i) {
            const TimedRun run = run_timed(shape);
            REQUIRE_MESSAGE(run.correct, run.report);
            student.push_back(run.ms);
        }
        const float student_ms = median(student);
        const double ratio = student_ms / grader_ms;
        MESSAGE(("matmul_timed reported a median of " + std::to_string(student_ms) + " ms; the grader's events time "
                 "the same kernel at " + std::to_string(grader_ms) + " ms (ratio " + std::to_string(ratio) + ")"));
        CHECK_MESSAGE(ratio <= clock_factor,
                      "the reported time is more than twice the kernel's: record the events right around the "
                      "launch, not around the copies or the allocations");
        CHECK_MESSAGE(ratio >= 1.0 / clock_factor,
                      "the reported time is less than half the kernel's: wait for the stop event "
                      "(cudaEventSynchronize) before reading the elapsed time, and time with events, not a host clock");
    }
}

TEST_SUITE("timing-memory") {
    TEST_CASE("gives back all the device memory it allocates") {
        const Shape shape{large_side, large_side, large_side};
        REQUIRE_MESSAGE(run_timed(shape).correct, "the results must be right before memory is checked");
        const std::size_t before = free_device_bytes();  // after one call, so one-time set-up is not counted
        run_timed(shape);
        const std::size_t after = free_device_bytes();
        const std::size_t lost = before > after ? before - after : 0;
        CHECK_MESSAGE(lost <= leak_slack_bytes, ("one call of matmul_timed left " + std::to_string(lost) +
                                                 " bytes of device memory allocated: cudaFree every buffer"));
    }
}

TEST_SUITE("timing-errors") {
    TEST_CASE("reports a failed allocation and frees what it had") {
        REQUIRE_MESSAGE(run_timed({64, 64, 64}).correct, "the results must be right before errors are checked");
        // M alone would need 1.4 TB: no GPU has that. N and P are small, and real, in case they come first.
        const int rows = 600000, inner = 600000, cols = 1;
        std::vector<float> small_M(16, 1.0f), N(static_cast<std::size_t>(inner) * cols, 1.0f);
        std::vector<float> P(static_cast<std::size_t>(rows) * cols);
        const std::size_t before = free_device_bytes();
        bool reported = false;
        try {
            matmul_timed(small_M.data(), N.data(), P.data(), rows, inner, cols);
        } catch (const CudaError& error) {
            reported = true;
            CHECK_MESSAGE(error.code() == cudaErrorMemoryAllocation,
                          ("expected cudaErrorMemoryAllocation, got: " + std::string(error.what())));
        }
        CHECK_MESSAGE(reported, "a 600000x600000 M cannot be allocated, but matmul_timed reported no error: check "
                                "every CUDA call with TILELAB_CUDA_CHECK, and compute sizes in std::size_t");
        static_cast<void>(cudaGetLastError());  // a failed cudaMalloc leaves no sticky error; clear it anyway
        const std::size_t after = free_device_bytes();
        CHECK_MESSAGE(before <= after + leak_slack_bytes,
                      "device memory allocated before the failure was not freed: free it on the error path too");
    }
}

}  // namespace tilelab::grader
