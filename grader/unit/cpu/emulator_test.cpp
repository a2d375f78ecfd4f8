// The CPU backend's emulator: results, launch checks, barrier divergence and races, device memory.
#include "emulator_kernels.hpp"

#include <tilelab/cpu/emulator.hpp>
#include <tilelab/cpu/named_matrices.hpp>
#include <tilelab/cpu/runtime_trace.hpp>
#include <tilelab/device_buffer.hpp>

#include <doctest/doctest.h>

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace {

std::vector<float> iota_floats(std::size_t count) {
    std::vector<float> values(count);
    std::iota(values.begin(), values.end(), 0.0f);
    return values;
}

std::string message_of(cudaError_t code) { return cudaGetErrorString(code); }

float host_global[4] = {5.0f, 5.0f, 5.0f, 5.0f};

// Whether the process may read @p bytes at @p address, asked of the kernel (write(2) fails with EFAULT where it
// may not) rather than by touching it, which would end the test.
bool host_can_read(const void* address, std::size_t bytes) {
    int ends[2];
    REQUIRE(pipe(ends) == 0);
    const ssize_t written = write(ends[1], address, bytes);
    const int error = errno;
    close(ends[0]);
    close(ends[1]);
    if (written < 0) REQUIRE(error == EFAULT);
    return written == static_cast<ssize_t>(bytes);
}

}  // namespace

namespace {
// What the launch observer of the test below saw of dynamic_sum's launches, and whether it lets them run.
struct Seen {
    static bool observe(const tilelab::cpu::LaunchRequest& request) {
        if (request.kernel != dynamic_sum_kernel_address()) return true;
        ++launches, bytes = request.dynamic_shared_bytes, threads = request.block.x;
        return run;
    }
    static inline int launches = 0;
    static inline std::size_t bytes = 0;
    static inline unsigned threads = 0;
    static inline bool run = true;
};
}  // namespace

TEST_SUITE("cpu-emulator") {
    TEST_CASE("runs every block and thread with the right indices") {
        const dim3 grid(3, 2);
        tilelab::DeviceBuffer<int> out(3 * 2 * 4);
        REQUIRE(fill_grid(out.data(), grid) == cudaSuccess);
        std::vector<int> got(out.size());
        out.copy_to_host(got.data(), got.size());
        for (int by = 0; by < 2; ++by)
            for (int bx = 0; bx < 3; ++bx)
                for (int t = 0; t < 4; ++t) CHECK(got[(by * 3 + bx) * 4 + t] == bx + 10 * by);
    }

    TEST_CASE("blockDim and gridDim in a kernel; host variables of those names shadow them") {
        const int count = 200;
        tilelab::DeviceBuffer<int> out(count);
        REQUIRE(grid_stride_fill(out.data(), count) == cudaSuccess);
        std::vector<int> got(count);
        out.copy_to_host(got.data(), got.size());
        for (int i = 0; i < count; ++i) CHECK(got[i] == 1000 * i + 64);
    }

    TEST_CASE("shares __shared__ memory within a block and passes barriers") {
        const int blocks = 3, threads = 256;
        const std::vector<float> values = iota_floats(blocks * threads);
        tilelab::DeviceBuffer<float> data(values.size());
        data.copy_from_host(values.data(), values.size());
        REQUIRE(reverse_blocks(data.data(), blocks, threads, true) == cudaSuccess);
        std::vector<float> got(values.size());
        data.copy_to_host(got.data(), got.size());
        for (int b = 0; b < blocks; ++b)
            for (int i = 0; i < threads; ++i) CHECK(got[b * threads + i] == values[b * threads + threads - 1 - i]);
    }

    TEST_CASE("gives the launch's dynamic shared memory to extern __shared__ arrays") {
        std::vector<int> values(100);
        std::iota(values.begin(), values.end(), 1);
        tilelab::DeviceBuffer<int> device_values(values.size()), total(1);
        device_values.copy_from_host(values.data(), values.size());
        REQUIRE(dynamic_sum(device_values.data(), total.data(), 100) == cudaSuccess);
        int got = 0;
        total.copy_to_host(&got, 1);
        CHECK(got == 5050);
    }

    TEST_CASE("shows each launch to the observer as it was asked for, which may hold it back") {
        struct Unobserve {
            ~Unobserve() { tilelab::cpu::observe_launches(nullptr); }
        } unobserve;
        std::vector<int> values(10, 1);
        tilelab::DeviceBuffer<int> device_values(values.size()), total(1);
        device_values.copy_from_host(values.data(), values.size());
        const int zero = 0;
        total.copy_from_host(&zero, 1);
        tilelab::cpu::observe_launches(&Seen::observe);
        REQUIRE(dynamic_sum(device_values.data(), total.data(), 10) == cudaSuccess);
        int got = 0;
        total.copy_to_host(&got, 1);
        CHECK(got == 10);
        CHECK(Seen::launches == 1);
        CHECK(Seen::bytes == 10 * sizeof(int));
        CHECK(Seen::threads == 10);
        // Held back: the launch succeeds and nothing runs.
        Seen::run = false;
        total.copy_from_host(&zero, 1);
        REQUIRE(dynamic_sum(device_values.data(), total.data(), 8) == cudaSuccess);
        total.copy_to_host(&got, 1);
        CHECK(got == 0);
        CHECK(Seen::launches == 2);
        CHECK(Seen::bytes == 8 * sizeof(int));
    }

    TEST_CASE("past 48 KB of dynamic shared memory only after cudaFuncSetAttribute, up to 227 KB, as on a GPU") {
        cudaDeviceReset();  // a fresh context: no kernel has opted in yet
        const int threads = 64;
        std::vector<int> values(threads);
        std::iota(values.begin(), values.end(), 1);
        tilelab::DeviceBuffer<int> device_values(values.size()), total(1);
        device_values.copy_from_host(values.data(), values.size());
        const std::size_t large = 200 * 1024;
        cudaError_t set = cudaSuccess;
        int reported = 0;
        // 48 KB needs no opt-in; 200 KB without one is refused at the launch.
        CHECK(dynamic_tail_sum(device_values.data(), total.data(), threads, 48 * 1024, -1, &set, &reported) ==
              cudaSuccess);
        CHECK(reported == 48 * 1024);
        CHECK(dynamic_tail_sum(device_values.data(), total.data(), threads, large, -1, &set, &reported) ==
              cudaErrorInvalidValue);
        // After the opt-in the same launch runs, its far end usable, and cudaFuncGetAttributes says the new limit.
        CHECK(dynamic_tail_sum(device_values.data(), total.data(), threads, large, large, &set, &reported) ==
              cudaSuccess);
        CHECK(set == cudaSuccess);
        CHECK(reported == static_cast<int>(large));
        int got = 0;
        total.copy_to_host(&got, 1);
        CHECK(got == threads * (threads + 1) / 2);
        // A launch past the limit set is refused; a new context forgets the opt-in.
        CHECK(dynamic_tail_sum(device_values.data(), total.data(), threads, large + 4, -1, &set, &reported) ==
              cudaErrorInvalidValue);
        cudaDeviceReset();
        CHECK(dynamic_tail_sum(device_values.data(), total.data(), threads, large, -1, &set, &reported) ==
              cudaErrorInvalidValue);
    }

    TEST_CASE("cudaFuncSetAttribute refuses what CUDA refuses, and the error is also the last error") {
        CHECK(set_tail_sum_attribute(cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024, false) == cudaSuccess);
        CHECK(set_tail_sum_attribute(cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024 + 1, false) ==
              cudaErrorInvalidValue);
        CHECK(cudaGetLastError() == cudaErrorInvalidValue);
        CHECK(cudaGetLastError() == cudaSuccess);
        CHECK(set_tail_sum_attribute(cudaFuncAttributeMaxDynamicSharedMemorySize, -1, false) == cudaErrorInvalidValue);
        CHECK(set_tail_sum_attribute(cudaFuncAttributeMaxDynamicSharedMemorySize, 1024, true) ==
              cudaErrorInvalidDeviceFunction);
        CHECK(set_tail_sum_attribute(cudaFuncAttributePreferredSharedMemoryCarveout, 50, false) == cudaSuccess);
        CHECK(set_tail_sum_attribute(cudaFuncAttributePreferredSharedMemoryCarveout, 101, false) ==
              cudaErrorInvalidValue);
        CHECK(set_tail_sum_attribute(static_cast<cudaFuncAttribute>(1234), 0, false) == cudaErrorInvalidValue);
        static_cast<void>(cudaGetLastError());
        cudaDeviceReset();  // the next tests start with the defaults
    }

    TEST_CASE("runs a launch only when the host waits, and has no time for an event not waited for") {
        tilelab::DeviceBuffer<int> out(2 * 2 * 4);
        cudaError_t unwaited = cudaSuccess;
        float ms = -1.0f;
        int first = -1;
        CHECK(time_fill(out.data(), &unwaited, &ms, &first) == cudaSuccess);
        CHECK(unwaited == cudaErrorNotReady);
        CHECK(ms >= 0.0f);
        CHECK(first == 0);  // fill_kernel wrote block (0, 0)'s index, once the copy had made the host wait
        CHECK(cudaGetLastError() == cudaSuccess);  // "not ready" is no error CUDA keeps
    }

    TEST_CASE("events measure the emulated device clock: the kernel's modelled duration, on every run") {
        // fill_grid's launch: 2 x 2 blocks of 4 threads. The clock is the emulator's, never the host's.
        const double expected_ms =
            static_cast<double>(tilelab::cpu::kernel_fixed_ns + 16 * tilelab::cpu::kernel_thread_ns) / 1e6;
        for (int run = 0; run < 2; ++run) {
            tilelab::DeviceBuffer<int> out(2 * 2 * 4);
            cudaError_t unwaited = cudaSuccess;
            float ms = -1.0f;
            int first = -1;
            REQUIRE(time_fill(out.data(), &unwaited, &ms, &first) == cudaSuccess);
            CHECK(ms == static_cast<float>(expected_ms));
        }
    }

    TEST_CASE("traces the runtime calls in the order the stream ran them, with the device's clock") {
        using Kind = tilelab::cpu::TraceEntry::Kind;
        tilelab::cpu::start_trace();
        std::vector<tilelab::cpu::TraceEntry> trace;
        {
            tilelab::DeviceBuffer<int> out(2 * 2 * 4);
            cudaError_t unwaited = cudaSuccess;
            float ms = -1.0f;
            int first = -1;
            REQUIRE(time_fill(out.data(), &unwaited, &ms, &first) == cudaSuccess);
        }
        bool truncated = true;
        trace = tilelab::cpu::stop_trace(&truncated);
        CHECK_FALSE(truncated);
        REQUIRE(trace.size() == 6);
        CHECK(trace[0].kind == Kind::allocation);
        CHECK(trace[0].bytes == 64);
        CHECK(trace[1].kind == Kind::event);
        CHECK(trace[2].kind == Kind::launch);
        CHECK(trace[2].grid[0] == 2);
        CHECK(trace[2].block[0] == 4);
        CHECK(trace[3].kind == Kind::event);
        CHECK(trace[4].kind == Kind::copy);
        CHECK(trace[4].bytes == sizeof(int));
        CHECK(trace[4].detail == cudaMemcpyDeviceToHost);
        CHECK(trace[4].source == trace[0].address);
        CHECK(trace[5].kind == Kind::release);
        // The events bracket the kernel's modelled duration; the copy advances the clock by its own.
        CHECK(trace[3].end_ns - trace[1].end_ns == tilelab::cpu::kernel_fixed_ns + 16 * tilelab::cpu::kernel_thread_ns);
        CHECK(trace[4].end_ns - trace[4].start_ns == tilelab::cpu::copy_fixed_ns + sizeof(int) / tilelab::cpu::copy_bytes_per_ns);
        // Nothing is traced once the trace is stopped.
        void* later = nullptr;
        REQUIRE(cudaMalloc(&later, 64) == cudaSuccess);
        cudaFree(later);
        CHECK(tilelab::cpu::stop_trace(nullptr).empty());
    }

    TEST_CASE("fails the n-th allocation on request") {
        tilelab::cpu::fail_nth_allocation(2);
        void* first = nullptr;
        void* second = nullptr;
        void* third = nullptr;
        CHECK(cudaMalloc(&first, 64) == cudaSuccess);
        CHECK(cudaMalloc(&second, 64) == cudaErrorMemoryAllocation);
        CHECK(second == nullptr);
        CHECK(cudaMalloc(&third, 64) == cudaSuccess);
        CHECK(cudaGetLastError() == cudaErrorMemoryAllocation);
        cudaFree(first);
        cudaFree(third);
    }

    TEST_CASE("refuses the launches CUDA refuses") {
        CHECK(launch_block(dim3(1025)) == cudaErrorInvalidValue);
        CHECK(launch_block(dim3(48, 48)) == cudaErrorInvalidValue);  // what CUDA 13 said on an H100
        CHECK(launch_block(dim3(1, 1, 65)) == cudaErrorInvalidValue);
        CHECK(launch_block(dim3(0)) == cudaErrorInvalidConfiguration);
        CHECK(launch_block(dim3(32, 32)) == cudaSuccess);
        CHECK(cudaGetLastError() == cudaSuccess);  // reported once, as on a GPU
    }

    TEST_CASE("reports a missing barrier as a race, naming the element") {
        const std::vector<float> values = iota_floats(256);
        tilelab::DeviceBuffer<float> data(values.size());
        data.copy_from_host(values.data(), values.size());
        const cudaError_t code = reverse_blocks(data.data(), 1, 256, false);
        REQUIRE(code == cudaErrorTileLabSharedMemoryRace);
        const std::string message = message_of(code);
        CHECK(message.find("reverse_kernel, block (0, 0, 0)") != std::string::npos);
        // Threads run in order up to a barrier: thread 127 has read slice[128] before thread 128 stores it.
        CHECK(message.find("thread (128, 0, 0) wrote slice[128] after thread (127, 0, 0) read it") != std::string::npos);
        CHECK(message.find("A barrier is missing between loading") != std::string::npos);
    }

    TEST_CASE("__shared__ struct members are shared memory: read, stored and counted as a tile's elements") {
        const std::vector<float> values = iota_floats(64);
        tilelab::DeviceBuffer<float> data(values.size());
        data.copy_from_host(values.data(), values.size());
        const tilelab::cpu::EmulatorStats before = tilelab::cpu::stats();
        REQUIRE(struct_reverse(data.data(), true) == cudaSuccess);
        const tilelab::cpu::EmulatorStats after = tilelab::cpu::stats();
        std::vector<float> got(values.size());
        data.copy_to_host(got.data(), got.size());
        for (int i = 0; i < 64; ++i) CHECK(got[i] == values[63 - i]);
        // 64 values, the count, 64 row elements and the spare count stored; values, rows and the count read by 64.
        CHECK(after.shared_writes - before.shared_writes == 130);
        CHECK(after.shared_reads - before.shared_reads == 192);
    }

    TEST_CASE("reports a race on a member of a __shared__ struct, naming the member's element") {
        const std::vector<float> values = iota_floats(64);
        tilelab::DeviceBuffer<float> data(values.size());
        data.copy_from_host(values.data(), values.size());
        const cudaError_t code = struct_reverse(data.data(), false);
        REQUIRE(code == cudaErrorTileLabSharedMemoryRace);
        const std::string message = message_of(code);
        CHECK(message.find("thread (32, 0, 0) wrote reversal.values[32] after thread (31, 0, 0) read it") !=
              std::string::npos);
        CHECK(message.find("A barrier is missing between loading") != std::string::npos);
    }

    TEST_CASE("reinterpret_cast<float (&)[T][T]> and other array views of shared memory are its elements") {
        const std::vector<float> values = iota_floats(64);
        tilelab::DeviceBuffer<float> data(values.size());
        data.copy_from_host(values.data(), values.size());
        const tilelab::cpu::EmulatorStats before = tilelab::cpu::stats();
        REQUIRE(view_reverse(data.data(), true, 0) == cudaSuccess);
        const tilelab::cpu::EmulatorStats after = tilelab::cpu::stats();
        std::vector<float> got(values.size());
        data.copy_to_host(got.data(), got.size());
        for (int i = 0; i < 64; ++i) CHECK(got[i] == values[63 - i]);
        CHECK(after.shared_writes - before.shared_writes == 64);
        CHECK(after.shared_reads - before.shared_reads == 64);
    }

    TEST_CASE("reports a race through an array view of shared memory") {
        const std::vector<float> values = iota_floats(64);
        tilelab::DeviceBuffer<float> data(values.size());
        data.copy_from_host(values.data(), values.size());
        const cudaError_t code = view_reverse(data.data(), false, 0);
        REQUIRE(code == cudaErrorTileLabSharedMemoryRace);
        const std::string message = message_of(code);
        CHECK(message.find("thread (32, 0, 0) wrote dynamic shared memory (byte 128) after thread (31, 0, 0) read it") !=
              std::string::npos);
        CHECK(message.find("A barrier is missing between loading") != std::string::npos);
    }

    TEST_CASE("an index through an array view past the launch's dynamic shared memory is an illegal address") {
        const std::vector<float> values = iota_floats(64);
        tilelab::DeviceBuffer<float> data(values.size());
        data.copy_from_host(values.data(), values.size());
        const cudaError_t code = view_reverse(data.data(), true, 1);
        REQUIRE(code == cudaErrorIllegalAddress);
        const std::string message = message_of(code);
        CHECK(message.find("thread (0, 0, 0) read byte 380 of its extern __shared__ array, but the launch gave the "
                           "kernel 256 bytes") != std::string::npos);
    }

    TEST_CASE("a float4 (&)[4] view of shared memory reads whole vectors, each one shared access") {
        tilelab::DeviceBuffer<float> out(4);
        const tilelab::cpu::EmulatorStats before = tilelab::cpu::stats();
        REQUIRE(vector_view(out.data()) == cudaSuccess);
        const tilelab::cpu::EmulatorStats after = tilelab::cpu::stats();
        std::vector<float> got(4);
        out.copy_to_host(got.data(), got.size());
        CHECK(got == std::vector<float>{6.0f, 22.0f, 38.0f, 54.0f});
        CHECK(after.shared_reads - before.shared_reads == 4);
        CHECK(after.shared_writes - before.shared_writes == 16);
    }

    TEST_CASE("float (&tile)[R][C], float (*tile)[C] and Tiles& parameters of __device__ helpers are the shared memory passed") {
        const std::vector<float> values = iota_floats(64);
        tilelab::DeviceBuffer<float> data(values.size());
        data.copy_from_host(values.data(), values.size());
        const tilelab::cpu::EmulatorStats before = tilelab::cpu::stats();
        REQUIRE(helper_tiles(data.data(), true) == cudaSuccess);
        const tilelab::cpu::EmulatorStats after = tilelab::cpu::stats();
        std::vector<float> got(values.size());
        data.copy_to_host(got.data(), got.size());
        for (int i = 0; i < 64; ++i) CHECK(got[i] == 2.0f * values[63 - i] + values[i]);
        // Stores: tile and pair.first by the template, pair.second through Tiles&; the register array's are none.
        CHECK(after.shared_writes - before.shared_writes == 192);
        // Reads: tile through float (*)[32], pair.first through Tiles& and through the lambda, pair.second as float[].
        CHECK(after.shared_reads - before.shared_reads == 256);
    }

    TEST_CASE("reports a race through a __device__ helper's array parameter, naming the shared element") {
        const std::vector<float> values = iota_floats(64);
        tilelab::DeviceBuffer<float> data(values.size());
        data.copy_from_host(values.data(), values.size());
        const cudaError_t code = helper_tiles(data.data(), false);
        REQUIRE(code == cudaErrorTileLabSharedMemoryRace);
        const std::string message = message_of(code);
        CHECK(message.find("thread (32, 0, 0) wrote tile[1][0] after thread (31, 0, 0) read it") != std::string::npos);
        CHECK(message.find("A barrier is missing between loading") != std::string::npos);
    }

    TEST_CASE("reports threads waiting at different barriers, with the lines") {
        tilelab::DeviceBuffer<int> out(64);
        const cudaError_t code = split_barrier(out.data(), 64);
        REQUIRE(code == cudaErrorTileLabBarrierDivergence);
        const std::string message = message_of(code);
        CHECK(message.find("32 threads waited at the __syncthreads() at cpu/emulator_kernels.cu:") != std::string::npos);
        CHECK(message.find("split_barrier_kernel") != std::string::npos);
    }

    TEST_CASE("reports threads waiting while others have returned") {
        tilelab::DeviceBuffer<int> out(64);
        const cudaError_t code = early_return(out.data(), 64, 40);
        REQUIRE(code == cudaErrorTileLabBarrierDivergence);
        const std::string message = message_of(code);
        CHECK(message.find("24 threads had returned from the kernel (the first: thread (40, 0, 0))") != std::string::npos);
        CHECK(message.find("40 threads waited") != std::string::npos);
        CHECK(early_return(out.data(), 64, 64) == cudaSuccess);  // all threads at the barrier: fine
    }

    TEST_CASE("fills fresh device memory with NaN and checks copies against the buffer") {
        tilelab::DeviceBuffer<float> buffer(8);
        std::vector<float> got(8, 0.0f);
        buffer.copy_to_host(got.data(), got.size());
        for (float value : got) CHECK(value != value);
        std::vector<float> host(16, 1.0f);
        CHECK(cudaMemcpy(buffer.data(), host.data(), 16 * sizeof(float), cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
        CHECK(cudaMemcpy(host.data(), buffer.data(), 8 * sizeof(float), cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
        static_cast<void>(cudaGetLastError());
    }

    TEST_CASE("accounts for device memory and refuses what does not fit") {
        std::size_t free_before = 0, total = 0, free_after = 0;
        REQUIRE(cudaMemGetInfo(&free_before, &total) == cudaSuccess);
        {
            tilelab::DeviceBuffer<float> buffer(1 << 20);
            REQUIRE(cudaMemGetInfo(&free_after, &total) == cudaSuccess);
            CHECK(free_before - free_after == (1u << 20) * sizeof(float));
        }
        REQUIRE(cudaMemGetInfo(&free_after, &total) == cudaSuccess);
        CHECK(free_after == free_before);
        void* huge = nullptr;
        CHECK(cudaMalloc(&huge, total + 1) == cudaErrorMemoryAllocation);
        CHECK(cudaGetLastError() == cudaErrorMemoryAllocation);
    }
}

TEST_SUITE("cpu-emulator-device-memory") {
    TEST_CASE("refuses a launch given a host pointer, naming the kernel, the argument and the memory") {
        tilelab::DeviceBuffer<float> device(4);
        float on_stack[4] = {5.0f, 5.0f, 5.0f, 5.0f};
        std::vector<float> on_heap(4, 5.0f);
        struct Case {
            const float* in;
            float* out;
            const char* argument;
            const char* memory;
            const float* unchanged;
        };
        for (const Case& c : {Case{device.data(), on_stack, "its argument 2 of 3 (out, a float*)", "on the host's stack", on_stack},
                              Case{device.data(), on_heap.data(), "its argument 2 of 3 (out, a float*)", "host memory (a host array", on_heap.data()},
                              Case{host_global, device.data(), "its argument 1 of 3 (in, a float const*)", "host memory (a host array", host_global}}) {
            CAPTURE(c.argument);
            const cudaError_t code = launch_pointers(c.in, c.out, true);
            REQUIRE(code == cudaErrorIllegalAddress);
            const std::string message = message_of(code);
            INFO(message);
            CHECK(message.find("illegal memory access in the kernel pointers_kernel launched at cpu/emulator_kernels.cu:") == 0);
            CHECK(message.find(c.argument) != std::string::npos);
            CHECK(message.find(c.memory) != std::string::npos);
            CHECK(message.find("not device memory from cudaMalloc") != std::string::npos);
            CHECK(message.find("The kernel did not run") != std::string::npos);
            CHECK(c.unchanged[0] == 5.0f);  // the kernel never ran on host memory
        }
    }

    TEST_CASE("accepts null pointers and pointers into a buffer's guard zones") {
        tilelab::DeviceBuffer<float> device(1024);  // 4096 bytes: its end is the start of the guard page
        CHECK(launch_pointers(nullptr, device.data(), false) == cudaSuccess);
        CHECK(launch_pointers(device.data() + 1024, device.data() - 1, false) == cudaSuccess);
        CHECK(launch_pointers(device.data() + 1023, device.data(), true) == cudaSuccess);
    }

    TEST_CASE("loses the context after a host pointer, as a GPU after a fault, until cudaDeviceReset") {
        float on_stack[4] = {};
        tilelab::DeviceBuffer<float> device(4);
        CHECK(launch_pointers_unwaited(device.data(), on_stack) == cudaSuccess);  // the launch itself is fine
        CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
        void* more = nullptr;
        CHECK(cudaMalloc(&more, 64) == cudaErrorIllegalAddress);
        CHECK(cudaMemcpy(on_stack, device.data(), sizeof on_stack, cudaMemcpyDeviceToHost) == cudaErrorIllegalAddress);
        CHECK(cudaMemset(device.data(), 0, sizeof(float)) == cudaErrorIllegalAddress);
        CHECK(launch_pointers(device.data(), device.data(), true) == cudaErrorIllegalAddress);  // resets the device
        CHECK(cudaMalloc(&more, 64) == cudaSuccess);
        CHECK(cudaFree(more) == cudaSuccess);
        CHECK(launch_pointers(device.data(), device.data() + 1, true) == cudaSuccess);
    }

    TEST_CASE("cudaMalloc: device buffers start 256-byte aligned, as a GPU's do") {
        for (std::size_t bytes : {std::size_t{1}, std::size_t{4}, std::size_t{40}, std::size_t{100}, std::size_t{256},
                                  std::size_t{4092}, std::size_t{4096}, std::size_t{4100}, std::size_t{(1u << 20) + 12}}) {
            CAPTURE(bytes);
            void* pointer = nullptr;
            REQUIRE(cudaMalloc(&pointer, bytes) == cudaSuccess);
            CHECK(reinterpret_cast<std::uintptr_t>(pointer) % 256 == 0);
            CHECK(cudaFree(pointer) == cudaSuccess);
        }
    }

    TEST_CASE("cudaMalloc: a read just past the end of a buffer gets the past-the-end NaN") {
        const std::vector<float> values = iota_floats(10);  // 40 bytes: 216 bytes of slack before the guard page
        tilelab::DeviceBuffer<float> data(values.size()), out(2);
        data.copy_from_host(values.data(), values.size());
        REQUIRE(read_past_end(data.data(), out.data(), 10) == cudaSuccess);  // copies the bits as they are
        REQUIRE(launch_pointers(data.data() + 12, out.data() + 1, true) == cudaSuccess);  // 1 + 0 * past-the-end
        float got[2] = {};
        out.copy_to_host(got, 2);
        std::uint32_t bits[2];
        std::memcpy(bits, got, sizeof bits);
        CHECK(bits[0] == tilelab::cpu::past_end_poison_bits);
        CHECK(std::isnan(got[1]));
        CHECK((bits[1] & 0x003FFFFFu) == (tilelab::cpu::past_end_poison_bits & 0x003FFFFFu));  // quieted, same payload
    }

    TEST_CASE("a buffer the kit's runner named: the write past its end is an element of its matrix, and its site") {
        // A guard zone of 6 floats before a 2 x 5 P, as the runner lays the checker's buffers out.
        tilelab::DeviceBuffer<float> data(16), in(1);
        float* const P = data.data() + 6;
        tilelab::cpu::name_device_matrix(P, 2, 5, "P");
        static_cast<void>(tilelab::cpu::take_fault_site());  // none before
        const cudaError_t code = launch_pointers(in.data(), P + 11, true);
        REQUIRE(code == cudaErrorIllegalAddress);
        CHECK(message_of(code).find(": a write at 0x") != std::string::npos);
        CHECK(message_of(code).find(", P[11], past the end of P (P is 2x5, 10 elements; index 11 would be row 2, "
                                    "column 1) (cudaErrorIllegalAddress") != std::string::npos);
        CHECK(message_of(code).find("float index") == std::string::npos);  // not counted from the buffer's start
        const tilelab::cpu::FaultSite site = tilelab::cpu::take_fault_site();
        CHECK(std::string(site.matrix) == "P");
        CHECK(site.element == 11);
        CHECK(site.access == tilelab::cpu::FaultSite::Access::write);
        CHECK_FALSE(site.host_code);
        CHECK(std::string(tilelab::cpu::take_fault_site().matrix).empty());  // taken: forgotten
        // Before the start: a negative index of P, inside the buffer's slack before it.
        const cudaError_t before = launch_pointers(in.data(), data.data() - 2, true);
        REQUIRE(before == cudaErrorIllegalAddress);
        CHECK(message_of(before).find("P[-8], before the start of P (P is 2x5, 10 elements; a negative index)") !=
              std::string::npos);
        CHECK(tilelab::cpu::take_fault_site().element == -8);
    }

    TEST_CASE("cudaMalloc: a write just past the end of a buffer is an illegal address, found when the kernel ends") {
        tilelab::DeviceBuffer<float> data(10), in(1);
        const cudaError_t code = launch_pointers(in.data(), data.data() + 11, true);
        REQUIRE(code == cudaErrorIllegalAddress);
        const std::string message = message_of(code);
        CHECK(message.find("illegal memory access in the kernel pointers_kernel launched at ") != std::string::npos);
        CHECK(message.find(": a write at 0x") != std::string::npos);
        CHECK(message.find("float index 11 of a device buffer of 10 floats, 2 past its last element (index 9) "
                           "(cudaErrorIllegalAddress: an illegal memory access was encountered; out-of-bounds write)") !=
              std::string::npos);
        // The slack is poisoned again: the next kernel, which writes inside, is fine.
        CHECK(launch_pointers(in.data(), data.data() + 9, true) == cudaSuccess);
        // Before the start too.
        const cudaError_t before = launch_pointers(in.data(), data.data() - 3, true);
        REQUIRE(before == cudaErrorIllegalAddress);
        CHECK(message_of(before).find("12 bytes before the start of a 40-byte device buffer (a negative index)") !=
              std::string::npos);
    }

    TEST_CASE("keeps device buffers closed to host code, open to kernels, copies and fills") {
        const std::vector<float> values = iota_floats(8);
        tilelab::DeviceBuffer<float> device(values.size());
        CHECK_FALSE(host_can_read(device.data(), sizeof(float)));  // fresh, after the allocator's poisoning
        device.copy_from_host(values.data(), values.size());
        CHECK_FALSE(host_can_read(device.data(), sizeof(float)));
        REQUIRE(cudaMemset(device.data(), 0, sizeof(float)) == cudaSuccess);
        CHECK_FALSE(host_can_read(device.data(), sizeof(float)));
        REQUIRE(launch_pointers(device.data() + 1, device.data(), true) == cudaSuccess);
        CHECK_FALSE(host_can_read(device.data(), sizeof(float)));
        std::vector<float> got(values.size());
        device.copy_to_host(got.data(), got.size());
        CHECK(got[0] == 1.0f);
        CHECK(got[7] == 7.0f);
        CHECK(host_can_read(got.data(), sizeof(float)));
    }
}

TEST_SUITE("cpu-emulator-vectors") {
    TEST_CASE("moves float4 vectors between global and shared memory, in a template kernel") {
        const int blocks = 2, count = blocks * 64 * 4;
        const std::vector<float> values = iota_floats(count + 4);
        tilelab::DeviceBuffer<float> in(values.size()), out(count);
        in.copy_from_host(values.data(), values.size());
        REQUIRE(vector_reverse(in.data(), out.data(), blocks, 4) == cudaSuccess);
        std::vector<float> got(count);
        out.copy_to_host(got.data(), got.size());
        for (int b = 0; b < blocks; ++b)
            for (int t = 0; t < 64; ++t)
                for (int i = 0; i < 4; ++i)
                    CHECK(got[(b * 64 + t) * 4 + i] == values[4 + (b * 64 + 63 - t) * 4 + i]);
    }

    TEST_CASE("reports a float4 load from global memory at an unaligned address") {
        const std::vector<float> values = iota_floats(64 * 4 + 4);
        tilelab::DeviceBuffer<float> in(values.size()), out(64 * 4);
        in.copy_from_host(values.data(), values.size());
        const cudaError_t code = vector_reverse(in.data(), out.data(), 1, 1);
        REQUIRE(code == cudaErrorMisalignedAddress);
        const std::string message = message_of(code);
        CHECK(message.find("misaligned address in the kernel vector_reverse_kernel<64>, block (0, 0, 0), thread (0, 0, 0): "
                           "a 16-byte vector (float4) read at float index 1 of a device buffer of 260 floats, which is 4 "
                           "bytes past a 16-byte boundary") != std::string::npos);
        CHECK(message.find("hint: a vector access moves aligned bytes") != std::string::npos);
    }

    TEST_CASE("reports a float4 load that runs past the end of a buffer") {
        const std::vector<float> values = iota_floats(64 * 4 + 2);
        tilelab::DeviceBuffer<float> in(values.size()), out(64 * 4);
        in.copy_from_host(values.data(), values.size());
        // Offset 4: the last thread's vector is floats 256..259 of 258.
        const cudaError_t code = vector_reverse(in.data(), out.data(), 1, 4);
        REQUIRE(code == cudaErrorIllegalAddress);
        const std::string message = message_of(code);
        CHECK(message.find("thread (63, 0, 0): a 16-byte vector (float4) read of floats 256 to 259 of a device buffer "
                           "of 258 floats runs outside it") != std::string::npos);
    }

    TEST_CASE("reinterpret_cast<uintptr_t>(p), (size_t)p: any kind of pointer's address, as an alignment test reads it") {
        const std::vector<float> values = iota_floats(32);
        tilelab::DeviceBuffer<float> in(values.size());
        tilelab::DeviceBuffer<int> out(5);
        in.copy_from_host(values.data(), values.size());
        for (const int offset : {0, 1, 4, 6}) {
            CAPTURE(offset);
            REQUIRE(address_casts(in.data(), out.data(), offset) == cudaSuccess);
            int got[5] = {};
            out.copy_to_host(got, 5);
            const int expected = offset % 4 * 4;  // cudaMalloc's buffers start 256-byte aligned
            CHECK(got[0] == expected);            // a __device__ function's parameter, reinterpret_cast and C cast alike
            CHECK(got[1] == expected);            // a plain pointer
            CHECK(got[2] == 0);                   // a float4 pointer
            CHECK(got[3] == expected);            // a shared array's element: the array is 16-byte aligned
            CHECK(got[4] == (expected == 0 ? 1 : 0));
        }
    }

    TEST_CASE("checks the alignment of float4 reads from shared memory") {
        tilelab::DeviceBuffer<float> out(1);
        REQUIRE(shared_vector(out.data(), 8) == cudaSuccess);
        float got = 0;
        out.copy_to_host(&got, 1);
        CHECK(got == 8.0f);
        const cudaError_t code = shared_vector(out.data(), 6);
        REQUIRE(code == cudaErrorMisalignedAddress);
        CHECK(message_of(code).find("read at shared memory tile[6], which is 8 bytes past a 16-byte boundary") !=
              std::string::npos);
    }
}

TEST_SUITE("cpu-emulator-async-copy") {
    TEST_CASE("lands double-buffered asynchronous copies at the wait") {
        const int chunks = 5;
        const std::vector<float> values = iota_floats(chunks * 32);
        tilelab::DeviceBuffer<float> in(values.size()), out(32);
        in.copy_from_host(values.data(), values.size());
        REQUIRE(async_sum(in.data(), out.data(), chunks, true, true) == cudaSuccess);
        std::vector<float> got(32);
        out.copy_to_host(got.data(), got.size());
        const float total = std::accumulate(values.begin(), values.end(), 0.0f);
        for (float value : got) CHECK(value == total);
    }

    TEST_CASE("reports a read of a stage before the wait for its copy as a race") {
        const std::vector<float> values = iota_floats(3 * 32);
        tilelab::DeviceBuffer<float> in(values.size()), out(32);
        in.copy_from_host(values.data(), values.size());
        const cudaError_t code = async_sum(in.data(), out.data(), 3, false, true);
        REQUIRE(code == cudaErrorTileLabSharedMemoryRace);
        const std::string message = message_of(code);
        CHECK(message.find("thread (0, 0, 0) read stage[0][0] while the asynchronous copy into it that thread (0, 0, 0) "
                           "issued at cpu/emulator_kernels.cu:") != std::string::npos);
        CHECK(message.find("A wait is missing") != std::string::npos);
    }

    TEST_CASE("reports a read of another thread's copy with no barrier after the wait as a race") {
        const std::vector<float> values = iota_floats(3 * 32);
        tilelab::DeviceBuffer<float> in(values.size()), out(32);
        in.copy_from_host(values.data(), values.size());
        const cudaError_t code = async_sum(in.data(), out.data(), 3, true, false);
        REQUIRE(code == cudaErrorTileLabSharedMemoryRace);
        INFO(message_of(code));
        // Threads run in order up to a barrier: thread 0 has read stage[0][1] before thread 1 issues its copy.
        CHECK(message_of(code).find("thread (1, 0, 0) wrote stage[0][1] after thread (0, 0, 0) read it, with no "
                                    "__syncthreads() between them") != std::string::npos);
    }

    TEST_CASE("zero-fills the tail of a copy and checks its alignment and range") {
        const std::vector<float> values = iota_floats(10);
        tilelab::DeviceBuffer<float> in(values.size()), out(4);
        in.copy_from_host(values.data(), values.size());
        REQUIRE(async_vector(in.data(), out.data(), 8, 8) == cudaSuccess);  // floats 8, 9, then two zeros
        std::vector<float> got(4);
        out.copy_to_host(got.data(), got.size());
        CHECK(got == std::vector<float>{8.0f, 9.0f, 0.0f, 0.0f});
        cudaError_t code = async_vector(in.data(), out.data(), 2, 0);
        REQUIRE(code == cudaErrorMisalignedAddress);
        CHECK(message_of(code).find("an asynchronous copy's read at float index 2 of a device buffer of 10 floats, which "
                                    "is 8 bytes past a 16-byte boundary") != std::string::npos);
        code = async_vector(in.data(), out.data(), 8, 0);  // floats 8..11 of 10
        REQUIRE(code == cudaErrorIllegalAddress);
        CHECK(message_of(code).find("read of floats 8 to 11 of a device buffer of 10 floats runs outside it") !=
              std::string::npos);
    }
}

TEST_SUITE("cpu-emulator-fault") {
    // Run alone, by a test that expects this process to end with the fault handler's message.
    TEST_CASE("stops at a read one element past the end of a buffer") {
        const std::vector<float> values = iota_floats(64);  // 256 bytes: the buffer ends against the guard page
        tilelab::DeviceBuffer<float> data(values.size()), out(1);
        data.copy_from_host(values.data(), values.size());
        read_past_end(data.data(), out.data(), 64);
        FAIL("the read past the end went unnoticed");
    }
}

namespace {
// Prints what the fault handler gave its observer (tilelab::cpu::observe_faults), as the kit's runner would send it.
void print_fault_site(const tilelab::cpu::FaultSite& site, const char* report) {
    char text[256];
    const int length = std::snprintf(text, sizeof text, "\nobserved: %s %lld %s, %.40s\n", site.matrix, site.element,
                                     site.access == tilelab::cpu::FaultSite::Access::read ? "read" : "not a read", report);
    static_cast<void>(write(STDOUT_FILENO, text, static_cast<std::size_t>(length)));
}
}  // namespace

TEST_SUITE("cpu-emulator-named-fault") {
    // Run alone, by a test that expects this process to end with the fault handler's message, in M's terms, and
    // the site its observer saw.
    TEST_CASE("stops at a read one element past the end of a named matrix, naming its element") {
        const std::vector<float> values = iota_floats(64);  // 256 bytes: the buffer ends against the guard page
        tilelab::DeviceBuffer<float> data(values.size()), out(1);
        data.copy_from_host(values.data(), values.size());
        tilelab::cpu::name_device_matrix(data.data() + 16, 6, 8, "M");  // after a guard zone of 16 floats
        tilelab::cpu::observe_faults(&print_fault_site);
        read_past_end(data.data(), out.data(), 64);
        FAIL("the read past the end went unnoticed");
    }
}

TEST_SUITE("cpu-emulator-stack-overflow") {
    // Run alone, by a test that expects this process to end with the fault handler's message.
    TEST_CASE("stops a kernel thread that recurses past its stack") {
        tilelab::DeviceBuffer<int> out(1);
        deep_recursion(out.data(), 1000);
        FAIL("the recursion ran past the stack unnoticed");
    }
}

TEST_SUITE("cpu-emulator-wild-stack-read") {
    // Run alone, by a test that expects this process to end with the fault handler's message: an illegal access,
    // not a stack overflow (the page is another thread's stack guard, which the reader's own stack never reached).
    TEST_CASE("calls a wild read into another thread's stack guard an illegal access") {
        tilelab::DeviceBuffer<int> out(2);
        read_other_stack(out.data());
        FAIL("the read below another thread's stack went unnoticed");
    }
}

TEST_SUITE("cpu-emulator-host-read") {
    // Run alone, by a test that expects this process to end with the fault handler's message.
    TEST_CASE("stops host code that reads device memory") {
        tilelab::DeviceBuffer<float> data(10);
        const volatile float* device = data.data();
        const float value = device[3];
        FAIL("the host read device memory: " << value);
    }
}

TEST_SUITE("cpu-emulator-host-write") {
    // Run alone, likewise.
    TEST_CASE("stops host code that writes device memory") {
        tilelab::DeviceBuffer<float> data(10);
        volatile float* device = data.data();
        device[9] = 1.0f;
        FAIL("the host wrote device memory");
    }
}
