// Lab 04's checks: matmul_timed computes P on the device, reports the kernel's own time (not the copies, not an
// unfinished kernel, not a number of its own), gives back all the device memory it took, and reports a failed
// allocation instead of crashing. Every call is judged on what the runner saw it do (timed_evidence.hpp).
#include "check_shape.hpp"
#include "lab_runner.hpp"
#include "lab_under_test.hpp"
#include "timed_evidence.hpp"

#include <tilelab/compare.hpp>
#include <tilelab/gate_data.hpp>
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
    bool correct;        ///< P is right, and the call had the device compute it (and, on the CPU backend, returned
                         ///< its events' time): what every check of this lab needs first.
    std::string report;  ///< Why not.
};

// The inputs of matmul_timed for @p shape (the same on every call) and their float64 product, kept for the last
// shape asked: the clock and memory checks call it seven times on the large shape, holding the GPU alone in a batch,
// and need the product only once. Ask for it before the first request and that once costs no GPU time either.
struct TimedInputs {
    Shape shape{0, 0, 0};
    HostMatrix M{0, 0}, N{0, 0};
    OperandDigests digests;  // of M and N, for a kernel that reads them from managed memory
    ReferenceProduct product;
};

const TimedInputs& timed_inputs(const Shape& shape) {
    static TimedInputs inputs;
    if (inputs.shape.rows != shape.rows || inputs.shape.inner != shape.inner || inputs.shape.cols != shape.cols) {
        inputs.shape = shape;
        inputs.M = HostMatrix(shape.rows, shape.inner);
        inputs.N = HostMatrix(shape.inner, shape.cols);
        fill_uniform(inputs.M, derive_seed(base_seed(), "M " + to_string(shape)));
        fill_uniform(inputs.N, derive_seed(base_seed(), "N " + to_string(shape)));
        inputs.digests = {gate::digest(inputs.M.data(), inputs.M.size()), gate::digest(inputs.N.data(), inputs.N.size())};
        inputs.product = reference_matmul(inputs.M, inputs.N);
    }
    return inputs;
}

// Calls matmul_timed in the lab's program, with P poisoned and a guard zone after it in host memory, and judges
// both its result and what the runner saw it do.
TimedRun run_timed(const Shape& shape) {
    const TimedInputs& inputs = timed_inputs(shape);
    const HostMatrix& M = inputs.M;
    const HostMatrix& N = inputs.N;
    const std::size_t count = static_cast<std::size_t>(shape.rows) * shape.cols;
    const std::size_t guard = 4096;
    wire::Writer request;
    request.put(wire::Op::timed).put<std::int32_t>(shape.rows).put<std::int32_t>(shape.inner);
    request.put<std::int32_t>(shape.cols).put<std::uint64_t>(guard).put(unwritten_bits);
    request.put_floats(M.data(), M.size()).put_floats(N.data(), N.size());
    const std::string doing = "calling matmul_timed on " + to_string(shape);
    const Reply reply = ask_runner(request, doing);
    require_ok(reply, "matmul_timed(...)");
    wire::Reader in = body(reply);
    const float ms = in.get<float>();
    const std::vector<float> P = in.get_floats();
    const wire::TimedObservation seen = wire::get_observation(in);
    require_complete(in, doing);
    if (P.size() != count + guard) throw RunnerGone("the lab's program sent back a P of the wrong size while " + doing);
    const Comparison comparison = compare(P.data(), inputs.product);
    TimedRun run{ms, comparison.passed(), {}};
    const std::string evidence = judge_timed_call(shape, lab_under_test().tile_width, ms, P, inputs.digests, seen);
    if (!evidence.empty()) {
        run.correct = false;
        run.report = evidence + "\n";
    }
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
    wire::Writer request;
    request.put(wire::Op::free_memory);
    const Reply reply = ask_runner(request, "reading the free device memory");
    require_ok(reply, "cudaMemGetInfo");
    wire::Reader in = body(reply);
    const auto free = in.get<std::uint64_t>();
    in.get<std::uint64_t>();
    require_complete(in, "reading the free device memory");
    return static_cast<std::size_t>(free);
}

// The kit's own timing of the same kernel, launched with the contract's grid and block: the median of 7 runs.
float grader_kernel_ms(const Shape& shape) {
    HostMatrix M(shape.rows, shape.inner), N(shape.inner, shape.cols);
    fill_uniform(M, derive_seed(base_seed(), "clock M"));
    fill_uniform(N, derive_seed(base_seed(), "clock N"));
    wire::Writer request;
    request.put(wire::Op::kernel_time).put<std::int32_t>(shape.rows).put<std::int32_t>(shape.inner);
    request.put<std::int32_t>(shape.cols).put_floats(M.data(), M.size()).put_floats(N.data(), N.size());
    const Reply reply = ask_runner(request, "timing the lab 03 kernel");
    require_ok(reply, "the kit's launch of the lab 03 kernel");
    wire::Reader in = body(reply);
    const std::vector<float> times = in.get_floats();
    require_complete(in, "timing the lab 03 kernel");
    return median(times);
}

}  // namespace

TEST_SUITE("timing-results") {
    TEST_CASE("computes P and reports a positive time") {
        for (const Shape& shape : std::vector<Shape>{{1, 1, 1}, {17, 15, 33}, {97, 131, 61}, {256, 256, 256}}) {
            const TimedRun run = run_timed(shape);
            CHECK_MESSAGE(run.correct, run.report);
            CHECK_MESSAGE(run.ms > 0.0f, ("matmul_timed returned " + std::to_string(run.ms) + " ms for shape " +
                                          to_string(shape) + "\n  hint: return the events' elapsed time, read "
                                          "after waiting for the stop event (cudaEventSynchronize) and checked: "
                                          "before the kernel has finished, cudaEventElapsedTime fails with "
                                          "cudaErrorNotReady"));
        }
    }
}

TEST_SUITE("timing-clock") {
    TEST_CASE("the reported time is the kernel's alone") {
        const Shape shape{large_side, large_side, large_side};
        timed_inputs(shape);  // before the first request, which holds the GPU alone in a batch
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

// The CPU backend's equal of timing-clock: there the events carry the emulator's device clock, and the trace of the
// call's runtime calls shows what the two events bracket, so the time returned must be the one the events right around
// the kernel measured (timed_evidence.hpp), on the large product the clock check times.
TEST_SUITE("timing-trace") {
    TEST_CASE("the reported time is the one the events right around the kernel measured") {
        const Shape shape{large_side, large_side, large_side};
        const TimedRun run = run_timed(shape);
        CHECK_MESSAGE(run.correct, run.report);
        if (run.correct)
            MESSAGE(("matmul_timed returned " + std::to_string(run.ms) + " ms for " + to_string(shape) + ", the time "
                     "its events right before and after the launch measured on the emulator's device clock"));
    }
}

TEST_SUITE("timing-memory") {
    TEST_CASE("gives back all the device memory it allocates") {
        const Shape shape{large_side, large_side, large_side};
        timed_inputs(shape);  // before the first request, as in timing-clock
        const TimedRun first = run_timed(shape);
        REQUIRE_MESSAGE(first.correct, ("the results must be right, and computed on the device, before memory is "
                                        "checked: " + first.report));
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
        const TimedRun first = run_timed({64, 64, 64});
        REQUIRE_MESSAGE(first.correct, ("the results must be right, and computed on the device, before errors are "
                                        "checked: " + first.report));
        // Each allocation fails in turn: whichever order matmul_timed allocates in, one of these makes its first,
        // one its second and one its third allocation fail, and what it allocated before must come back.
        struct FailedAllocation {
            std::string what;
            int rows, inner, cols, fail_at;
        };
        std::vector<FailedAllocation> cases{
            {"the allocation of M (600000 x 600000 floats: no GPU has 1.4 TB)", 600000, 600000, 1, 0},
            {"the allocation of N (600000 x 600000 floats: no GPU has 1.4 TB)", 1, 600000, 600000, 0},
            {"the allocation of P (600000 x 600000 floats: no GPU has 1.4 TB)", 600000, 1, 600000, 0}};
#ifdef TILELAB_CPU_BACKEND
        for (int nth = 1; nth <= 3; ++nth)  // every buffer 256 KiB, well above the slack
            cases.push_back({"the " + std::string(nth == 1 ? "first" : nth == 2 ? "second" : "third") +
                                 " device allocation (cudaMalloc or cudaMallocManaged, made to fail by the CPU backend) of a "
                                 "256x256x256 product",
                             256, 256, 256, nth});
#endif
        for (const FailedAllocation& failure : cases) {
            wire::Writer request;
            request.put(wire::Op::timed_failure).put<std::int32_t>(failure.rows).put<std::int32_t>(failure.inner);
            request.put<std::int32_t>(failure.cols).put<std::int32_t>(failure.fail_at);
            const std::string doing = "calling matmul_timed where " + failure.what + " fails";
            const Reply reply = ask_runner(request, doing);
            require_ok(reply, "the lab's program");
            wire::Reader in = body(reply);
            const auto threw = in.get<std::uint8_t>();
            const auto code = in.get<std::int32_t>();
            const std::string what = in.get_string();
            const auto before = in.get<std::uint64_t>(), after = in.get<std::uint64_t>();
            require_complete(in, doing);
            const std::size_t lost = before > after ? static_cast<std::size_t>(before - after) : 0;
            MESSAGE(("when " + failure.what + " failed, matmul_timed " +
                     (threw != 0 ? "reported it" : std::string("reported nothing")) + " and left " +
                     std::to_string(lost) + " bytes of device memory allocated"));
            if (threw == 1 && code != static_cast<std::int32_t>(cudaErrorMemoryAllocation))
                FAIL_CHECK(("when " + failure.what + " failed, matmul_timed reported another error: " + what +
                            "\n  hint: check each cudaMalloc itself with TILELAB_CUDA_CHECK"));
            if (threw == 2)
                FAIL_CHECK(("matmul_timed threw something other than tilelab::CudaError: " + what));
            // A program with fewer allocations than the one made to fail never meets it: nothing to report then.
            if (threw == 0 && failure.fail_at == 0)
                FAIL_CHECK(("when " + failure.what + " failed, matmul_timed reported no error"
                            "\n  hint: check every CUDA call with TILELAB_CUDA_CHECK, and compute sizes in std::size_t"));
            if (lost > leak_slack_bytes)
                FAIL_CHECK(("when " + failure.what + " failed, matmul_timed left " + std::to_string(lost) +
                            " bytes of device memory allocated\n  hint: free what was allocated before the failure "
                            "too: on the error path as on the normal one (DeviceBuffer does it for you)"));
        }
    }
}

}  // namespace tilelab::grader
