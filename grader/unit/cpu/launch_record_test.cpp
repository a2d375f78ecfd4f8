// The record of what a launcher's launches of a lab's kernel ask for (grader/runner/launch_record.hpp), which the kit's
// own launch of the kernel follows, on the CPU backend's emulator: its launches are shown to the record as a GPU
// runner's wrapped launch functions show them.
#include "emulator_kernels.hpp"
#include "launch_record.hpp"

#include <tilelab/device_buffer.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <stdexcept>
#include <vector>

using tilelab::runner::call_recording;
using tilelab::runner::launcher_dynamic_shared_bytes;

namespace {
// What the test launchers use: dynamic_sum's operands and how often they were called.
const int* sum_values = nullptr;
int* sum_total = nullptr;
int launcher_calls = 0;

// Launches dynamic_sum's kernel with `rows` threads, so `rows` ints of dynamic shared memory; its operands unused.
void summing_launcher(const float*, const float*, float*, int rows, int, int) {
    ++launcher_calls;
    static_cast<void>(dynamic_sum(sum_values, sum_total, rows));
}

// Launches it twice, with `rows` and with 2 `rows` threads.
void twice_summing_launcher(const float*, const float*, float*, int rows, int, int) {
    ++launcher_calls;
    static_cast<void>(dynamic_sum(sum_values, sum_total, rows));
    static_cast<void>(dynamic_sum(sum_values, sum_total, 2 * rows));
}

// Launches no kernel.
void idle_launcher(const float*, const float*, float*, int, int, int) { ++launcher_calls; }

// Launches the kernel, then throws.
void throwing_launcher(const float*, const float*, float*, int rows, int, int) {
    ++launcher_calls;
    static_cast<void>(dynamic_sum(sum_values, sum_total, rows));
    throw std::runtime_error("the launcher failed");
}

int read_total() {
    int total = 0;
    static_cast<void>(cudaMemcpy(&total, sum_total, sizeof total, cudaMemcpyDeviceToHost));
    return total;
}
void clear_total() {
    const int zero = 0;
    static_cast<void>(cudaMemcpy(sum_total, &zero, sizeof zero, cudaMemcpyHostToDevice));
}
}  // namespace

TEST_SUITE("cpu-launch-record") {
    TEST_CASE("the kit's launch takes the dynamic shared memory of the launcher's launches of the kernel") {
        tilelab::DeviceBuffer<int> values(64), total(1);
        const std::vector<int> ones(64, 1);
        values.copy_from_host(ones.data(), ones.size());
        sum_values = values.data(), sum_total = total.data();
        tilelab::DeviceBuffer<float> M(64), N(64), P(64);
        const void* kernel = dynamic_sum_kernel_address();

        SUBCASE("from the launcher's last call on the shape, which ran the kernel") {
            launcher_calls = 0;
            clear_total();
            call_recording(&summing_launcher, kernel, M.data(), N.data(), P.data(), 12, 1, 1);
            CHECK(read_total() == 12);
            CHECK(launcher_dynamic_shared_bytes(&summing_launcher, kernel, 12, 1, 1) == 12 * sizeof(int));
            CHECK(launcher_calls == 1);  // recorded: no call of its own
        }
        SUBCASE("where no call recorded the shape: one call on scratch operands, the kernel held back") {
            launcher_calls = 0;
            clear_total();
            CHECK(launcher_dynamic_shared_bytes(&summing_launcher, kernel, 20, 2, 3) == 20 * sizeof(int));
            CHECK(launcher_calls == 1);
            CHECK(read_total() == 0);  // the kernel did not run in that call
            CHECK(launcher_dynamic_shared_bytes(&summing_launcher, kernel, 20, 2, 3) == 20 * sizeof(int));
            CHECK(launcher_calls == 1);  // kept
        }
        SUBCASE("the most of several launches; none where the kernel is never launched") {
            call_recording(&twice_summing_launcher, kernel, M.data(), N.data(), P.data(), 5, 1, 1);
            CHECK(launcher_dynamic_shared_bytes(&twice_summing_launcher, kernel, 5, 1, 1) == 10 * sizeof(int));
            call_recording(&idle_launcher, kernel, M.data(), N.data(), P.data(), 7, 1, 1);
            CHECK(launcher_dynamic_shared_bytes(&idle_launcher, kernel, 7, 1, 1) == 0);
        }
        SUBCASE("a launcher that throws is recorded as far as it got") {
            CHECK_THROWS(call_recording(&throwing_launcher, kernel, M.data(), N.data(), P.data(), 9, 1, 1));
            CHECK(launcher_dynamic_shared_bytes(&throwing_launcher, kernel, 9, 1, 1) == 9 * sizeof(int));
            CHECK(launcher_dynamic_shared_bytes(&throwing_launcher, kernel, 11, 1, 1) == 11 * sizeof(int));
        }
        SUBCASE("launches of other kernels are not recorded, and run") {
            launcher_calls = 0;
            clear_total();
            CHECK(launcher_dynamic_shared_bytes(&summing_launcher, &launcher_calls, 3, 1, 1) == 0);
            CHECK(read_total() == 3);
        }
        static_cast<void>(cudaDeviceSynchronize());
        static_cast<void>(cudaGetLastError());
    }
}
