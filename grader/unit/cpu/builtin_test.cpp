// The CPU backend's device built-ins (tilelab/cpu/device_functions.hpp, atomics.hpp, warp.hpp and
// <cooperative_groups.h>): each gives CUDA's result, and misuse is reported as on a GPU it would be undefined.
#include "builtin_kernels.hpp"

#include <tilelab/cpu/device_functions.hpp>
#include <tilelab/cpu/emulator.hpp>
#include <tilelab/cpu/runtime_trace.hpp>
#include <tilelab/device_buffer.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace {

std::string message_of(cudaError_t code) { return cudaGetErrorString(code); }

template <class T>
std::vector<T> to_host(const tilelab::DeviceBuffer<T>& buffer) {
    std::vector<T> values(buffer.size());
    buffer.copy_to_host(values.data(), values.size());
    return values;
}

}  // namespace

TEST_SUITE("cpu-builtins") {
    TEST_CASE("__ldg loads floats, ints and float4 vectors") {
        std::vector<float> in(64);
        std::vector<int> ints(64);
        for (int i = 0; i < 64; ++i) {
            in[i] = 0.5f * i;
            ints[i] = 1000 * i;
        }
        tilelab::DeviceBuffer<float> device_in(64), out(64);
        tilelab::DeviceBuffer<int> device_ints(64);
        device_in.copy_from_host(in.data(), 64);
        device_ints.copy_from_host(ints.data(), 64);
        REQUIRE(ldg_sum(device_in.data(), device_ints.data(), out.data()) == cudaSuccess);
        const std::vector<float> got = to_host(out);
        for (int i = 0; i < 64; ++i) CHECK(got[i] == in[i] + ints[i] + in[i / 4 * 4]);
    }

    TEST_CASE("atomicAdd and the other atomics on global memory are atomic across blocks running at once") {
        const int blocks = 40, threads = 256, n = blocks * threads;
        tilelab::DeviceBuffer<float> f(1);
        tilelab::DeviceBuffer<int> counters(10);
        tilelab::DeviceBuffer<double> d(1);
        tilelab::DeviceBuffer<unsigned> u(1);
        const float zero_f = 0.0f;
        const double zero_d = 0.0;
        const unsigned zero_u = 0;
        const std::vector<int> start = {0, 0, -1, 1, 0, 6, -1, 0, 0, 0};
        f.copy_from_host(&zero_f, 1);
        d.copy_from_host(&zero_d, 1);
        u.copy_from_host(&zero_u, 1);
        counters.copy_from_host(start.data(), start.size());
        REQUIRE(global_atomics(f.data(), counters.data(), d.data(), u.data(), blocks, threads) == cudaSuccess);
        const std::vector<int> got = to_host(counters);
        CHECK(to_host(f)[0] == static_cast<float>(n));
        CHECK(got[0] == n);
        CHECK(got[1] == -2 * n);
        CHECK(got[2] == n - 1);
        CHECK(got[3] == -(n - 1));
        CHECK(got[4] == 0x7FFFFFFF);
        CHECK(got[5] == 6);
        CHECK(got[6] == ~0xFF);
        CHECK(got[7] == n % 10);
        CHECK(got[8] == 3 * n);
        CHECK(got[9] == 7);
        CHECK(to_host(d)[0] == 0.5 * n);
        CHECK(to_host(u)[0] == 2u * n);
    }

    TEST_CASE("atomicAdd on a shared element is no race; a plain read of it between atomics is") {
        const int count = 1000;
        std::vector<int> values(count);
        for (int i = 0; i < count; ++i) values[i] = i * 7;
        tilelab::DeviceBuffer<int> device_values(count), bins(9);
        device_values.copy_from_host(values.data(), count);
        const std::vector<int> zeros(9, 0);
        bins.copy_from_host(zeros.data(), 9);
        REQUIRE(shared_histogram(device_values.data(), bins.data(), count, false) == cudaSuccess);
        const std::vector<int> got = to_host(bins);
        for (int b = 0; b < 8; ++b) {
            int expected = 0;
            for (int v : values) expected += v % 8 == b;
            CHECK(got[b] == expected);
        }
        const cudaError_t racy = shared_histogram(device_values.data(), bins.data(), count, true);
        CHECK(racy == cudaErrorTileLabSharedMemoryRace);
        CHECK(message_of(racy).find("read local[0]") != std::string::npos);
    }

    TEST_CASE("__syncwarp, shuffles, votes and reductions meet at each call, per warp") {
        for (int threads : {64, 48}) {
            CAPTURE(threads);
            tilelab::DeviceBuffer<int> out(threads * 8);
            REQUIRE(warp_functions(out.data(), threads) == cudaSuccess);
            const std::vector<int> got = to_host(out);
            for (int t = 0; t < threads; ++t) {
                CAPTURE(t);
                const int warp = t / 32, lane = t % 32, first = 32 * warp;
                const int lanes = std::min(32, threads - first);
                // Down-shuffle sum in lane 0: lanes that read past the warp's lanes keep their own value.
                if (lane == 0) {
                    std::vector<int> v(32);
                    for (int l = 0; l < 32; ++l) v[l] = first + l;
                    for (int offset = 16; offset > 0; offset /= 2) {
                        std::vector<int> next = v;
                        for (int l = 0; l < lanes; ++l) next[l] = v[l] + (l + offset < lanes ? v[l + offset] : v[l]);
                        v = next;
                    }
                    CHECK(got[t * 8 + 0] == v[0]);
                }
                if (lanes == 32) {
                    CHECK(got[t * 8 + 1] == 32 * first + 496);  // the butterfly gives every lane the sum
                    CHECK(got[t * 8 + 2] == lane + 1);           // inclusive scan of ones
                    CHECK(got[t * 8 + 4] == static_cast<int>(0x55555555u));
                }
                CHECK(got[t * 8 + 3] == first + lane / 8 * 8 + 3);  // lane 3 of each segment of 8
                CHECK(got[t * 8 + 5] == 1);
                CHECK(got[t * 8 + 6] == (warp == 0 ? 1 : 0));
                CHECK(got[t * 8 + 7] == lanes);
            }
        }
    }

    TEST_CASE("warps of a two-dimensional block are its rows of 32 threads") {
        std::vector<float> in(256, 0.0f);
        for (int y = 0; y < 8; ++y) in[y * 32] = 1.0f + y;  // only lane 0 of each warp holds a value
        in[3 * 32 + 17] = 100.0f;
        tilelab::DeviceBuffer<float> device_in(256), out(8);
        device_in.copy_from_host(in.data(), 256);
        REQUIRE(warp_row_sums(device_in.data(), out.data()) == cudaSuccess);
        const std::vector<float> got = to_host(out);
        for (int y = 0; y < 8; ++y) CHECK(got[y] == 1.0f + y + (y == 3 ? 100.0f : 0.0f));
    }

    TEST_CASE("a warp per element of a product, summed by shuffles") {
        const int rows = 1, inner = 1, cols = 15;
        std::vector<float> m(rows * inner), n(inner * cols);
        for (std::size_t i = 0; i < m.size(); ++i) m[i] = 0.5f + i;
        for (std::size_t i = 0; i < n.size(); ++i) n[i] = 1.0f + i;
        tilelab::DeviceBuffer<float> dm(m.size()), dn(n.size()), dp(rows * cols);
        dm.copy_from_host(m.data(), m.size());
        dn.copy_from_host(n.data(), n.size());
        REQUIRE(warp_matmul(dm.data(), dn.data(), dp.data(), rows, inner, cols) == cudaSuccess);
        const std::vector<float> got = to_host(dp);
        for (int c = 0; c < cols; ++c) CHECK(got[c] == m[0] * n[c]);
    }

    TEST_CASE("lanes named in a shuffle's mask that do not call it are reported, with where they were") {
        tilelab::DeviceBuffer<int> out(32);
        const cudaError_t code = warp_divergent_shuffle(out.data(), 16);
        CHECK(code == cudaErrorTileLabBarrierDivergence);
        const std::string message = message_of(code);
        CHECK(message.find("warp divergence in divergent_shuffle_kernel, block (0, 0, 0), warp 0: __shfl_down_sync at ") !=
              std::string::npos);
        CHECK(message.find("names lanes 0-31 in its mask (0xffffffff), and lanes 0-15") != std::string::npos);
        CHECK(message.find("lanes 16-31 had returned from the kernel") != std::string::npos);
        CHECK(warp_divergent_shuffle(out.data(), 32) == cudaSuccess);
    }

    TEST_CASE("#include <cooperative_groups.h>: block sync and rank, tiles' shuffles and cg::reduce") {
        const int threads = 128;
        tilelab::DeviceBuffer<int> out(threads * 4);
        REQUIRE(cooperative_groups_sums(out.data(), threads) == cudaSuccess);
        const std::vector<int> got = to_host(out);
        for (int r = 0; r < threads; ++r) {
            CAPTURE(r);
            const int tile_first = r / 16 * 16;
            const int tile_sum = 16 * tile_first + 120;
            CHECK(got[r * 4 + 0] == (r + 1) % threads);
            CHECK(got[r * 4 + 1] == (r % 16 == 0 ? tile_sum : -1));
            CHECK(got[r * 4 + 2] == tile_sum);
            CHECK(got[r * 4 + 3] == r / 16);
        }
    }

    TEST_CASE("__fadd_rn and the other rounding-mode intrinsics round as named") {
        const float tiny = 1e-10f;
        CHECK(__fadd_rd(1.0f, tiny) == 1.0f);
        CHECK(__fadd_ru(1.0f, tiny) == std::nextafter(1.0f, 2.0f));
        CHECK(__fadd_rz(-1.0f, -tiny) == -1.0f);
        CHECK(__fadd_rn(1.0f, tiny) == 1.0f);
        CHECK(__fmul_ru(1.0f + 1.0f / 8388608.0f, 1.0f + 1.0f / 8388608.0f) > __fmul_rd(1.0f + 1.0f / 8388608.0f, 1.0f + 1.0f / 8388608.0f));
        const float a = 1.0f + 1.0f / 4096.0f;  // a·a - 1 needs the fused operation's exactness
        CHECK(__fmaf_rn(a, a, -1.0f) == std::fma(a, a, -1.0f));
        CHECK(__fdiv_rd(1.0f, 3.0f) < __fdiv_ru(1.0f, 3.0f));
        CHECK(__float2int_rn(2.5f) == 2);
        CHECK(__float2int_rn(3.5f) == 4);
        CHECK(__float2int_rd(-1.5f) == -2);
        CHECK(__float2int_rz(-1.7f) == -1);
        CHECK(__float2int_ru(1.1f) == 2);
        CHECK(__double2float_rd(0.1) < __double2float_ru(0.1));
        CHECK(std::fegetround() == FE_TONEAREST);  // the caller's mode is back
    }

    TEST_CASE("__fdividef and the other fast-math intrinsics, and reinterpretations") {
        CHECK(__saturatef(std::numeric_limits<float>::quiet_NaN()) == 0.0f);
        CHECK(__saturatef(2.0f) == 1.0f);
        CHECK(__saturatef(-2.0f) == 0.0f);
        CHECK(__saturatef(0.25f) == 0.25f);
        CHECK(rsqrtf(4.0f) == 0.5f);
        CHECK(__fdividef(1.0f, 4.0f) == 0.25f);
        CHECK(__expf(0.0f) == 1.0f);
        CHECK(__float_as_int(1.0f) == 0x3F800000);
        CHECK(__int_as_float(0x40000000) == 2.0f);
        CHECK(__uint_as_float(__float_as_uint(-3.5f)) == -3.5f);
    }

    TEST_CASE("__popc and the other bit intrinsics, with CUDA's results at the edges") {
        CHECK(__popc(0xF0F0u) == 8);
        CHECK(__popcll(~0ull) == 64);
        CHECK(__clz(0) == 32);
        CHECK(__clz(1) == 31);
        CHECK(__clz(-1) == 0);
        CHECK(__clzll(0) == 64);
        CHECK(__ffs(0) == 0);
        CHECK(__ffs(8) == 4);
        CHECK(__ffsll(1ll << 40) == 41);
        CHECK(__brev(1u) == 0x80000000u);
        CHECK(__brev(0x12345678u) == 0x1E6A2C48u);
        CHECK(__brevll(1ull) == 1ull << 63);
        CHECK(__byte_perm(0x33221100u, 0x77665544u, 0x1054u) == 0x11005544u);
        CHECK(__funnelshift_l(0x80000000u, 0x1u, 1) == 0x3u);
        CHECK(__funnelshift_r(0x2u, 0x1u, 1) == 0x80000001u);
        CHECK(__umulhi(0xFFFFFFFFu, 2u) == 1u);
        CHECK(__mulhi(-1, 2) == -1);
        CHECK(__mul24(0x00FFFFFF, 2) == -2);  // the low 24 bits are signed: 0xFFFFFF is -1
        CHECK(__umul24(0x01000003u, 2u) == 6u);
        CHECK(__umul64hi(~0ull, 2ull) == 1ull);
        CHECK(__sad(3, 10, 1u) == 8u);
        CHECK(__hadd(-3, 0) == -2);
        CHECK(__rhadd(1, 2) == 2);
    }

    TEST_CASE("__syncwarp orders shared memory between the lanes it names, and only those") {
        tilelab::DeviceBuffer<int> out(64);
        const cudaError_t racy = warp_exchange(out.data(), 0);  // no __syncwarp: lane 0 reads lane 1's element
        CHECK(racy == cudaErrorTileLabSharedMemoryRace);
        CHECK(message_of(racy).find("(nor a __syncwarp() naming both lanes of their warp)") != std::string::npos);
        REQUIRE(warp_exchange(out.data(), 1) == cudaSuccess);
        std::vector<int> got = to_host(out);
        for (int t = 0; t < 32; ++t) CHECK(got[t] == (t + 1) % 32);
        CHECK(warp_exchange(out.data(), 2) == cudaErrorTileLabSharedMemoryRace);  // lanes of another warp
        REQUIRE(warp_exchange(out.data(), 3) == cudaSuccess);  // each half-warp's own __syncwarp(mask)
        got = to_host(out);
        for (int t = 0; t < 32; ++t) CHECK(got[t] == t / 16 * 16 + (t + 1) % 16);
        CHECK(warp_exchange(out.data(), 4) == cudaErrorTileLabSharedMemoryRace);  // a lane its mask did not name
    }

    TEST_CASE("__threadfence, __threadfence_block, __threadfence_system: the last block sums what the others fenced") {
        const int blocks = 24;
        std::vector<int> values(blocks * 32);
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int>(i % 7) - 3;
        tilelab::DeviceBuffer<int> device_values(values.size()), partial(blocks), total(1);
        tilelab::DeviceBuffer<unsigned> done(1);
        device_values.copy_from_host(values.data(), values.size());
        const unsigned zero = 0;
        done.copy_from_host(&zero, 1);
        REQUIRE(fenced_sum(device_values.data(), partial.data(), done.data(), total.data(), blocks) == cudaSuccess);
        int expected = 0;
        for (int v : values) expected += v;
        CHECK(to_host(total)[0] == expected);
    }

    TEST_CASE("extern __shared__ float shared[]; float* M_tile = shared; tiles carved by pointers keep the race check") {
        tilelab::DeviceBuffer<float> out(64);
        REQUIRE(carved_tiles(out.data(), 64, true) == cudaSuccess);
        const std::vector<float> got = to_host(out);
        for (int t = 0; t < 64; ++t) CHECK(got[t] == 3.0f * ((t + 1) % 64));
        const cudaError_t racy = carved_tiles(out.data(), 64, false);
        CHECK(racy == cudaErrorTileLabSharedMemoryRace);
        CHECK(message_of(racy).find("dynamic shared memory") != std::string::npos);
    }

    TEST_CASE("__syncthreads_count, __syncthreads_and, __syncthreads_or: a barrier with a block-wide reduction") {
        for (int threads : {64, 100}) {
            CAPTURE(threads);
            for (int pattern = 0; pattern < 3; ++pattern) {
                CAPTURE(pattern);
                // pattern 0: every third thread; 1: all (a value other than 1 counts too); 2: none
                std::vector<int> flags(threads);
                for (int t = 0; t < threads; ++t) flags[t] = pattern == 0 ? t % 3 == 0 : pattern == 1 ? 1 + t : 0;
                int count = 0;
                for (int f : flags) count += f != 0;
                tilelab::DeviceBuffer<int> device_flags(threads), out(threads * 3);
                device_flags.copy_from_host(flags.data(), threads);
                REQUIRE(barrier_reductions(device_flags.data(), out.data(), threads) == cudaSuccess);
                const std::vector<int> got = to_host(out);
                for (int t = 0; t < threads; ++t) {
                    CHECK(got[t * 3 + 0] == count);
                    CHECK((got[t * 3 + 1] != 0) == (count == threads));
                    CHECK((got[t * 3 + 2] != 0) == (count > 0));
                }
            }
        }
        tilelab::DeviceBuffer<int> out(64);
        const cudaError_t code = divergent_barrier_count(out.data(), 64);
        CHECK(code == cudaErrorTileLabBarrierDivergence);
        const std::string message = message_of(code);
        CHECK(message.find("32 threads waited at the __syncthreads_count() at ") != std::string::npos);
        CHECK(message.find("32 threads had returned from the kernel") != std::string::npos);
    }

    TEST_CASE("cuda::memcpy_async(dst, src, size, pipe) through a thread-scope cuda::pipeline") {
        const int chunks = 5;
        std::vector<float> values(chunks * 128 + 4);
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 7);
        tilelab::DeviceBuffer<float> in(values.size()), out(32);
        in.copy_from_host(values.data(), values.size());
        const float total = static_cast<float>(std::accumulate(values.begin(), values.begin() + chunks * 128, 0.0));
        for (PipelineMode mode : {PipelineMode::consumer_wait, PipelineMode::plain_size, PipelineMode::wait_prior}) {
            const tilelab::cpu::EmulatorStats before = tilelab::cpu::stats();
            REQUIRE(pipeline_sum(in.data(), out.data(), chunks, 0, mode) == cudaSuccess);
            const tilelab::cpu::EmulatorStats after = tilelab::cpu::stats();
            for (float value : to_host(out)) CHECK(value == total);
            // The pipeline check's counts: every byte landed by a copy, those of chunks 1.. while chunk c was read.
            CHECK(after.async_bytes_landed - before.async_bytes_landed == chunks * 128 * sizeof(float));
            CHECK(after.async_bytes_overlapped - before.async_bytes_overlapped == (chunks - 1) * 128 * sizeof(float));
            CHECK(after.shared_bytes_stored == before.shared_bytes_stored);
        }
        // A read of a stage before consumer_wait() is a race, named as the C++ API's.
        cudaError_t code = pipeline_sum(in.data(), out.data(), chunks, 0, PipelineMode::no_wait);
        REQUIRE(code == cudaErrorTileLabSharedMemoryRace);
        CHECK(message_of(code).find("thread (0, 0, 0) read stage[0][0] while the asynchronous copy into it that thread "
                                    "(0, 0, 0) issued at cpu/builtin_kernels.cu:") != std::string::npos);
        CHECK(message_of(code).find("(cuda::memcpy_async) was still in flight. A wait is missing: the issuing thread "
                                    "must reach the pipeline's consumer_wait()") != std::string::npos);
        // aligned_size_t<16> from float index 2: the promise is broken, as a GPU's cp.async faults.
        code = pipeline_sum(in.data(), out.data(), chunks, 2, PipelineMode::consumer_wait);
        REQUIRE(code == cudaErrorMisalignedAddress);
        CHECK(message_of(code).find("an asynchronous copy's read at float index 2 of a device buffer of 644 floats, "
                                    "which is 8 bytes past a 16-byte boundary") != std::string::npos);
        CHECK(message_of(code).find("cuda::aligned_size_t<N>(size) promises") != std::string::npos);
        REQUIRE(cudaDeviceReset() == cudaSuccess);  // a fault loses the context, as on a GPU
        // Past the end of the source: the last thread's last copy reads floats 644 to 647 of 644.
        code = pipeline_sum(in.data(), out.data(), chunks, 8, PipelineMode::plain_size);
        REQUIRE(code == cudaErrorIllegalAddress);
        CHECK(message_of(code).find("read of floats 644 to 647 of a device buffer of 644 floats runs outside it") !=
              std::string::npos);
        REQUIRE(cudaDeviceReset() == cudaSuccess);
    }

    TEST_CASE("cooperative_groups::memcpy_async(block, dst, src, size) over a thread block, with "
              "cooperative_groups::wait and wait_prior") {
        const int chunks = 4;
        std::vector<float> values(chunks * 256);
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 5);
        tilelab::DeviceBuffer<float> in(values.size()), out(64);
        in.copy_from_host(values.data(), values.size());
        const float total = static_cast<float>(std::accumulate(values.begin(), values.end(), 0.0));
        for (GroupCopyMode mode : {GroupCopyMode::plain_size, GroupCopyMode::aligned_size}) {
            const tilelab::cpu::EmulatorStats before = tilelab::cpu::stats();
            REQUIRE(group_copy_sum(in.data(), out.data(), chunks, mode) == cudaSuccess);
            const tilelab::cpu::EmulatorStats after = tilelab::cpu::stats();
            for (float value : to_host(out)) CHECK(value == total);
            CHECK(after.async_bytes_landed - before.async_bytes_landed == values.size() * sizeof(float));
            CHECK(after.async_bytes_overlapped - before.async_bytes_overlapped == (chunks - 1) * 256 * sizeof(float));
        }
        const cudaError_t code = group_copy_sum(in.data(), out.data(), chunks, GroupCopyMode::no_wait);
        REQUIRE(code == cudaErrorTileLabSharedMemoryRace);
        CHECK(message_of(code).find("(cooperative_groups::memcpy_async) was still in flight. A wait is missing: the "
                                    "issuing thread must reach cooperative_groups::wait(block)") != std::string::npos);
    }

    TEST_CASE("min and max have CUDA's overloads: each integer width, signed, unsigned and mixed, float and double") {
        tilelab::DeviceBuffer<double> out(12);
        REQUIRE(min_max_overloads(out.data()) == cudaSuccess);
        const std::vector<double> got = to_host(out);
        CHECK(got[0] == 5.0);
        CHECK(got[1] == static_cast<double>(std::size_t{1} << 40));
        CHECK(got[2] == 0.0);
        CHECK(got[3] == 1.5);
        CHECK(got[4] == -3.0);
        CHECK(got[5] == 2.0);
        CHECK(got[6] == 3.0);
        CHECK(got[7] == 4294967295.0);  // max(int, unsigned) compares as unsigned, as CUDA's does
        CHECK(got[8] == 1.0);
        CHECK(got[9] == 3.0);
        CHECK(got[10] == 4.0);
        CHECK(got[11] == 4.0);
    }
}

TEST_SUITE("cpu-streams") {
    TEST_CASE("cudaStreamCreate and the other stream calls: in order, queried, destroyed; a destroyed stream is an invalid handle") {
        cudaStream_t stream = nullptr;
        REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
        CHECK(cudaStreamCreateWithFlags(&stream, 0x80) == cudaErrorInvalidValue);
        static_cast<void>(cudaGetLastError());
        tilelab::DeviceBuffer<int> out(32);
        std::vector<int> host(32, 7);
        CHECK(cudaMemcpyAsync(out.data(), host.data(), 32 * sizeof(int), cudaMemcpyHostToDevice, stream) == cudaSuccess);
        CHECK(warp_functions(out.data(), 4) == cudaSuccess);  // a kernel after the copy sees its data
        CHECK(cudaMemsetAsync(out.data(), 0, 32 * sizeof(int), stream) == cudaSuccess);
        CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
        CHECK(to_host(out)[0] == 0);
        CHECK(cudaStreamQuery(stream) == cudaSuccess);  // nothing queued
        cudaEvent_t event = nullptr;
        REQUIRE(cudaEventCreateWithFlags(&event, cudaEventDisableTiming) == cudaSuccess);
        CHECK(cudaEventRecord(event, stream) == cudaSuccess);
        CHECK(cudaStreamWaitEvent(nullptr, event, 0) == cudaSuccess);
        CHECK(cudaStreamQuery(stream) == cudaErrorNotReady);  // the record is queued: not done yet ...
        CHECK(cudaStreamQuery(stream) == cudaSuccess);        // ... and a program that polls sees it done
        CHECK(cudaEventDestroy(event) == cudaSuccess);
        CHECK(cudaStreamDestroy(stream) == cudaSuccess);
        CHECK(cudaStreamDestroy(stream) == cudaErrorInvalidResourceHandle);
        CHECK(cudaMemcpyAsync(out.data(), host.data(), 4, cudaMemcpyHostToDevice, stream) == cudaErrorInvalidResourceHandle);
        static_cast<void>(cudaGetLastError());
    }

    TEST_CASE("cudaMallocHost, managed and stream-ordered memory; freeing what they did not give is an error") {
        float* pinned = nullptr;
        REQUIRE(cudaMallocHost(&pinned, 1000 * sizeof(float)) == cudaSuccess);
        pinned[999] = 1.0f;  // host memory: the host may write it
        CHECK(cudaFreeHost(pinned) == cudaSuccess);
        float not_pinned = 0.0f;
        CHECK(cudaFreeHost(&not_pinned) == cudaErrorInvalidValue);
        static_cast<void>(cudaGetLastError());
        int* managed = nullptr;
        REQUIRE(cudaMallocManaged(&managed, 64 * sizeof(int)) == cudaSuccess);
        CHECK(warp_functions(managed, 8) == cudaSuccess);  // a kernel writes it, the host reads it
        CHECK(managed[5 * 8 + 5] == 1);
        // Prefetching, in CUDA 12's form (a device ordinal) and CUDA 13's (a cudaMemLocation and flags).
        CHECK(cudaMemPrefetchAsync(managed, 64 * sizeof(int), 0, nullptr) == cudaSuccess);
        cudaMemLocation location{};
        location.type = cudaMemLocationTypeDevice;
        location.id = 0;
        CHECK(cudaMemPrefetchAsync(managed, 64 * sizeof(int), location, 0, nullptr) == cudaSuccess);
        CHECK(cudaMemPrefetchAsync(managed, 64 * sizeof(int), location, 0) == cudaSuccess);
        CHECK(cudaMemPrefetchAsync(managed, 64 * sizeof(int), location, 1, nullptr) == cudaErrorInvalidValue);
        location.id = 1;  // no second device
        CHECK(cudaMemPrefetchAsync(managed, 64 * sizeof(int), location, 0, nullptr) == cudaErrorInvalidValue);
        location.type = cudaMemLocationTypeInvalid;
        CHECK(cudaMemPrefetchAsync(managed, 64 * sizeof(int), location, 0, nullptr) == cudaErrorInvalidValue);
        static_cast<void>(cudaGetLastError());
        CHECK(cudaFree(managed) == cudaSuccess);
        float* ordered = nullptr;
        REQUIRE(cudaMallocAsync(&ordered, 256, nullptr) == cudaSuccess);
        CHECK(cudaFreeAsync(ordered, nullptr) == cudaSuccess);
    }

    TEST_CASE("managed memory is the device's: traced as its own kind, counted, made to fail, copied and set") {
        using Kind = tilelab::cpu::TraceEntry::Kind;
        std::size_t free_before = 0, free_during = 0, free_after = 0, total = 0;
        REQUIRE(cudaMemGetInfo(&free_before, &total) == cudaSuccess);
        tilelab::cpu::start_trace();
        float* managed = nullptr;
        REQUIRE(cudaMallocManaged(&managed, 4096 * sizeof(float)) == cudaSuccess);
        REQUIRE(cudaMemGetInfo(&free_during, &total) == cudaSuccess);
        CHECK(free_before - free_during == 4096 * sizeof(float));  // a leak of it shows, as one of cudaMalloc's
        // The device side of a copy or a memset may be managed memory, as on a GPU.
        std::vector<float> host(4096, 2.5f);
        CHECK(cudaMemcpy(managed, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
        CHECK(managed[4095] == 2.5f);
        CHECK(cudaMemcpy(host.data(), managed + 1, 4095 * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
        CHECK(cudaMemcpy(host.data(), managed + 1, 4096 * sizeof(float), cudaMemcpyDeviceToHost) ==
              cudaErrorInvalidValue);  // one float past its end
        static_cast<void>(cudaGetLastError());
        CHECK(cudaMemset(managed, 0, 4096 * sizeof(float)) == cudaSuccess);
        CHECK(managed[17] == 0.0f);
        float* pinned = nullptr;
        REQUIRE(cudaMallocHost(&pinned, 64) == cudaSuccess);
        CHECK(cudaFreeHost(pinned) == cudaSuccess);
        CHECK(cudaFree(managed) == cudaSuccess);
        bool truncated = true;
        const std::vector<tilelab::cpu::TraceEntry> trace = tilelab::cpu::stop_trace(&truncated);
        REQUIRE(cudaMemGetInfo(&free_after, &total) == cudaSuccess);
        CHECK(free_after == free_before);
        CHECK_FALSE(truncated);
        REQUIRE(trace.size() == 7);  // the refused copy is not traced
        CHECK(trace[0].kind == Kind::managed_allocation);
        CHECK(trace[0].address == reinterpret_cast<std::uintptr_t>(managed));
        CHECK(trace[0].bytes == 4096 * sizeof(float));
        CHECK(trace[1].kind == Kind::copy);
        CHECK(trace[2].kind == Kind::copy);
        CHECK(trace[3].kind == Kind::memset);
        CHECK(trace[4].kind == Kind::host_allocation);
        CHECK(trace[4].bytes == 64);
        CHECK(trace[5].kind == Kind::release);
        CHECK(trace[5].address == reinterpret_cast<std::uintptr_t>(pinned));
        CHECK(trace[6].kind == Kind::release);
        CHECK(trace[6].address == reinterpret_cast<std::uintptr_t>(managed));
        // Lab 04's error path: the n-th allocation the runner makes to fail may be a managed one, and one larger
        // than the device fails as cudaMalloc's does.
        tilelab::cpu::fail_nth_allocation(2);
        void* device = nullptr;
        float* refused = reinterpret_cast<float*>(&host);
        CHECK(cudaMalloc(&device, 64) == cudaSuccess);
        CHECK(cudaMallocManaged(&refused, 64) == cudaErrorMemoryAllocation);
        CHECK(refused == nullptr);
        CHECK(cudaGetLastError() == cudaErrorMemoryAllocation);
        CHECK(cudaMallocManaged(&refused, total + 1) == cudaErrorMemoryAllocation);
        static_cast<void>(cudaGetLastError());
        CHECK(cudaFree(device) == cudaSuccess);
        REQUIRE(cudaMemGetInfo(&free_after, &total) == cudaSuccess);
        CHECK(free_after == free_before);
    }

    TEST_CASE("asynchronous copies through float4 pointers and a __device__ function's pointer parameters") {
        std::vector<float> values(8);
        for (int i = 0; i < 8; ++i) values[i] = 1.5f * static_cast<float>(i + 1);
        tilelab::DeviceBuffer<float> in(8), out(8);
        in.copy_from_host(values.data(), values.size());
        REQUIRE(async_copy_pointers(in.data(), out.data()) == cudaSuccess);
        CHECK(to_host(out) == values);
    }

    TEST_CASE("cudaMemcpy2D copies rows between pitches and checks them") {
        std::vector<float> source(4 * 8), back(4 * 8, -1.0f);
        for (std::size_t i = 0; i < source.size(); ++i) source[i] = static_cast<float>(i);
        tilelab::DeviceBuffer<float> device(4 * 6);
        CHECK(cudaMemcpy2D(device.data(), 6 * sizeof(float), source.data(), 8 * sizeof(float), 5 * sizeof(float), 4,
                           cudaMemcpyHostToDevice) == cudaSuccess);
        CHECK(cudaMemcpy2D(back.data(), 8 * sizeof(float), device.data(), 6 * sizeof(float), 5 * sizeof(float), 4,
                           cudaMemcpyDeviceToHost) == cudaSuccess);
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 8; ++c) CHECK(back[r * 8 + c] == (c < 5 ? source[r * 8 + c] : -1.0f));
        CHECK(cudaMemcpy2D(device.data(), 2 * sizeof(float), source.data(), 8 * sizeof(float), 5 * sizeof(float), 4,
                           cudaMemcpyHostToDevice) == cudaErrorInvalidValue);  // a row wider than the pitch
        static_cast<void>(cudaGetLastError());
    }
    TEST_CASE("cudaEventCreateWithFlags: a timing-disabled event has no time to give; blocking sync times as usual") {
        cudaEvent_t plain = nullptr, untimed = nullptr, blocking = nullptr, bad = nullptr;
        REQUIRE(cudaEventCreateWithFlags(&plain, cudaEventDefault) == cudaSuccess);
        REQUIRE(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming) == cudaSuccess);
        REQUIRE(cudaEventCreateWithFlags(&blocking, cudaEventBlockingSync) == cudaSuccess);
        CHECK(cudaEventCreateWithFlags(&bad, 0x8) == cudaErrorInvalidValue);
        CHECK(cudaGetLastError() == cudaErrorInvalidValue);
        tilelab::DeviceBuffer<int> out(32);
        REQUIRE(cudaEventRecord(plain) == cudaSuccess);
        REQUIRE(cudaEventRecord(untimed) == cudaSuccess);
        REQUIRE(warp_functions(out.data(), 4) == cudaSuccess);
        REQUIRE(cudaEventRecord(blocking) == cudaSuccess);
        REQUIRE(cudaEventSynchronize(blocking) == cudaSuccess);
        float ms = -1.0f;
        CHECK(cudaEventElapsedTime(&ms, plain, blocking) == cudaSuccess);
        CHECK(ms > 0.0f);
        CHECK(cudaEventElapsedTime(&ms, untimed, blocking) == cudaErrorInvalidResourceHandle);
        CHECK(cudaEventElapsedTime(&ms, plain, untimed) == cudaErrorInvalidResourceHandle);
        CHECK(cudaGetLastError() == cudaErrorInvalidResourceHandle);  // an error CUDA keeps as the last one
        for (cudaEvent_t event : {plain, untimed, blocking}) CHECK(cudaEventDestroy(event) == cudaSuccess);
    }

    TEST_CASE("cudaMemcpyAsync to or from pinned memory lands at the stream's next synchronisation, in order") {
        cudaStream_t stream = nullptr;
        REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
        int* pinned = nullptr;
        REQUIRE(cudaMallocHost(&pinned, 32 * sizeof(int)) == cudaSuccess);
        for (int i = 0; i < 32; ++i) pinned[i] = i;
        tilelab::DeviceBuffer<int> device(32);
        REQUIRE(cudaMemcpyAsync(device.data(), pinned, 32 * sizeof(int), cudaMemcpyHostToDevice, stream) == cudaSuccess);
        pinned[0] = 100;  // before the copy ran: a GPU's DMA may read this (the program must wait to reuse it)
        REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
        CHECK(to_host(device)[0] == 100);
        CHECK(to_host(device)[31] == 31);
        for (int i = 0; i < 32; ++i) pinned[i] = -1;
        REQUIRE(cudaMemcpyAsync(pinned, device.data(), 32 * sizeof(int), cudaMemcpyDeviceToHost, stream) == cudaSuccess);
        CHECK(pinned[5] == -1);  // not there yet: a host that reads before synchronising sees stale data
        cudaEvent_t landed = nullptr;
        REQUIRE(cudaEventCreate(&landed) == cudaSuccess);
        REQUIRE(cudaEventRecord(landed, stream) == cudaSuccess);
        REQUIRE(cudaEventSynchronize(landed) == cudaSuccess);  // the event after the copy: the copy is done
        CHECK(pinned[5] == 5);
        CHECK(pinned[0] == 100);
        // Pageable host memory: CUDA returns from a device-to-host copy once it is complete.
        std::vector<int> pageable(32, -1);
        REQUIRE(cudaMemcpyAsync(pageable.data(), device.data(), 32 * sizeof(int), cudaMemcpyDeviceToHost, stream) ==
                cudaSuccess);
        CHECK(pageable[7] == 7);
        // Checked at the call, as cudaMemcpy's: past the end of the device buffer.
        CHECK(cudaMemcpyAsync(pinned, device.data(), 33 * sizeof(int), cudaMemcpyDeviceToHost, stream) ==
              cudaErrorInvalidValue);
        static_cast<void>(cudaGetLastError());
        CHECK(cudaEventDestroy(landed) == cudaSuccess);
        CHECK(cudaFreeHost(pinned) == cudaSuccess);
        CHECK(cudaStreamDestroy(stream) == cudaSuccess);
    }

    TEST_CASE("cudaLaunchKernel(kernel, grid, block, args, shared, stream) is the same launch as <<< >>>") {
        tilelab::DeviceBuffer<int> out(64);
        cudaStream_t stream = nullptr;
        REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
        REQUIRE(launch_kernel_scale(out.data(), 3, stream) == cudaSuccess);
        const std::vector<int> got = to_host(out);
        for (int i = 0; i < 64; ++i) CHECK(got[i] == 3 * i);
        CHECK(cudaStreamDestroy(stream) == cudaSuccess);
    }

    TEST_CASE("cudaLaunchKernel((void*)kernel, ...) takes the kernel cast to void*, as the CUDA Programming Guide writes it") {
        tilelab::DeviceBuffer<int> out(64);
        REQUIRE(launch_kernel_void_cast_scale(out.data(), 5) == cudaSuccess);
        const std::vector<int> got = to_host(out);
        for (int i = 0; i < 64; ++i) CHECK(got[i] == 5 * i);
    }

    TEST_CASE("cudaMemcpyToSymbol and cudaMemcpyFromSymbol set and read a __constant__ array that kernels read") {
        tilelab::DeviceBuffer<int> out(64);
        const int factors[4] = {2, 3, 5, 7};
        int back[4] = {};
        REQUIRE(constant_scale(out.data(), factors, sizeof factors, 0, nullptr, back) == cudaSuccess);
        std::vector<int> got = to_host(out);
        for (int i = 0; i < 64; ++i) CHECK(got[i] == i * factors[i % 4]);
        for (int i = 0; i < 4; ++i) CHECK(back[i] == factors[i]);
        const int last = 11;  // one element, at byte offset 12, from a device buffer
        tilelab::DeviceBuffer<int> on_device(1);
        on_device.copy_from_host(&last, 1);
        REQUIRE(constant_scale(out.data(), nullptr, sizeof(int), 3 * sizeof(int), on_device.data(), back) ==
                cudaSuccess);
        CHECK(back[3] == 11);
        CHECK(back[0] == 2);
        got = to_host(out);
        CHECK(got[7] == 7 * 11);
        CHECK(constant_scale(out.data(), factors, sizeof factors, sizeof(int), nullptr, back) == cudaErrorInvalidValue);
        CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    }

    TEST_CASE("cudaLaunchKernelEx(&config, kernel, args...) with a cudaLaunchConfig_t is the same launch as <<< >>>") {
        tilelab::DeviceBuffer<int> out(64);
        cudaStream_t stream = nullptr;
        REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
        REQUIRE(launch_kernel_ex_scale(out.data(), 7, stream) == cudaSuccess);
        const std::vector<int> got = to_host(out);
        for (int i = 0; i < 64; ++i) CHECK(got[i] == 7 * i);
        CHECK(cudaStreamDestroy(stream) == cudaSuccess);
    }
}
