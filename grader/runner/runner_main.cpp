// The runner: the one process that holds a student's code. It answers the checker's requests over the two pipes
// it is given (--in, --out) and decides nothing: it multiplies what it is sent, times what it is asked to time,
// and sends back the raw results. The checker, a separate program with no student code in it, judges them.
// It links no grader code (no comparator, no reference, no random inputs), so a lab has none of it to redefine.
#include "gate_requests.hpp"
#include "observed_call.hpp"
#include "request_support.hpp"
#include "runner_lab.hpp"

#include <tilelab/cuda_check.hpp>
#include <tilelab/gate_data.hpp>
#include <tilelab/wire.hpp>

#include <cuda_runtime_api.h>
#ifdef TILELAB_CPU_BACKEND
#include <tilelab/cpu/emulator.hpp>
#include <tilelab/cpu/named_matrices.hpp>
#include <tilelab/cpu/output_reads.hpp>
#endif

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using namespace tilelab::wire;
using namespace tilelab::runner;  // the requests' support (request_support.hpp) and the gate's (gate_requests.hpp)

// The multiply requests' three buffers, kept from one request to the next where the next asks for exactly the same
// sizes (a check's suite asks each shape several times): an allocation and a free, which waits for the whole GPU,
// fewer per request. A kept buffer is written whole (guard zones, payload) by each request before its launch, so no
// value of an earlier request is left in it, and its bounds are the size asked, as compute-sanitizer sees them. Only
// on a GPU: the CPU backend's allocation poisons the elements past its end once, which a kernel could overwrite.
// Released before any other request, so that the free memory lab 04's checks read is never a kept buffer's.
struct KeptBuffers {
    std::unique_ptr<DeviceFloats> M, N, P;
};
KeptBuffers& kept_buffers() {
    static KeptBuffers kept;
    return kept;
}
void release_kept_buffers() { kept_buffers() = KeptBuffers{}; }
// A buffer of exactly @p count elements: @p slot's kept one where it has that size, a new one otherwise.
DeviceFloats& buffer_of(std::unique_ptr<DeviceFloats>& slot, std::size_t count) {
    if (!slot || slot->size() != count) {
        slot.reset();
        slot = std::make_unique<DeviceFloats>(count);
    }
    return *slot;
}

// Names the matrices of a request's buffers for the CPU backend's fault messages (tilelab/cpu/named_matrices.hpp):
// M (@p rows × @p inner), N (@p inner × @p cols) and P (@p rows × @p cols) from their first elements on, so that an
// access past one reads "M[4], past the end of M", not a float index counting the checker's guard zone.
void name_matrices(const float* M, const float* N, const float* P, int rows, int inner, int cols) {
#ifdef TILELAB_CPU_BACKEND
    const auto size = [](int n) { return static_cast<std::size_t>(n); };
    tilelab::cpu::name_device_matrix(M, size(rows), size(inner), "M");
    tilelab::cpu::name_device_matrix(N, size(inner), size(cols), "N");
    tilelab::cpu::name_device_matrix(P, size(rows), size(cols), "P");
#else
    static_cast<void>(M), static_cast<void>(N), static_cast<void>(P);
    static_cast<void>(rows), static_cast<void>(inner), static_cast<void>(cols);
#endif
}

#ifdef TILELAB_CPU_BACKEND
// The emulator's fault site as the reply's header carries it. Allocates nothing: the fault observer calls it.
FaultSite wire_site(const tilelab::cpu::FaultSite& site) noexcept {
    FaultSite fault;
    const auto is = [&](const char* name) { return std::strcmp(site.matrix, name) == 0; };
    fault.matrix = is("M") ? Matrix::M : is("N") ? Matrix::N : is("P") ? Matrix::P : Matrix::none;
    fault.access = static_cast<std::uint8_t>(site.access);
    fault.host_code = site.host_code ? 1 : 0;
    fault.element = site.element;
    return fault;
}
#endif

// The site of the out-of-bounds access that failed this request, as the emulator noted it, for the reply's header
// (wire::FaultSite); none on a GPU. Taking it also forgets it, so the next request starts with none.
FaultSite take_fault_site() {
#ifdef TILELAB_CPU_BACKEND
    return wire_site(tilelab::cpu::take_fault_site());
#else
    return FaultSite{};
#endif
}

float bits_to_float(std::uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

// What the emulator counted so far, so the checker can see that the kernel's threads ran and used their tiles.
tilelab::wire::LaunchCounts counters() {
    tilelab::wire::LaunchCounts c{};
#ifdef TILELAB_CPU_BACKEND
    const auto s = tilelab::cpu::stats();
    c = tilelab::wire::LaunchCounts{1, s.threads_run, s.shared_reads, s.shared_writes, s.global_words_read};
#endif
    return c;
}
// What the emulator counted between @p before and @p after.
void put_counters(Writer& out, const tilelab::wire::LaunchCounts& before, const tilelab::wire::LaunchCounts& after) {
    out.put(tilelab::wire::LaunchCounts{after.counted, after.threads - before.threads,
                                        after.shared_reads - before.shared_reads,
                                        after.shared_writes - before.shared_writes,
                                        after.global_words_read - before.global_words_read});
}

// The work-spread check (CPU backend): a watched multiply arms the watch; multiply starts it on P once P is poisoned
// and in place, so that only the kernel's stores are seen.
bool watch_armed = false;
void start_watch_if_armed(const float* P, std::size_t count) {
#ifdef TILELAB_CPU_BACKEND
    if (watch_armed) tilelab::cpu::watch_output(P, count * sizeof(float));
#else
    static_cast<void>(P);
    static_cast<void>(count);
#endif
}

Writer hello() {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess || count == 0)
        return reply(Status::no_device, static_cast<int>(status), cudaGetErrorName(status),
                     status != cudaSuccess ? cudaGetErrorString(status) : "no device found");
    cudaDeviceProp properties{};
    check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
    // A wait for the GPU sleeps rather than spins: with one context in the process CUDA would spin a core per waiting
    // program, and a class grades many at once on one machine's cores (a wake-up costs microseconds; the checks that
    // time requests time milliseconds, both sides alike).
#ifndef TILELAB_CPU_BACKEND
    check(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync), "cudaSetDeviceFlags");
#endif
    check(cudaFree(nullptr), "creating the CUDA context");  // now, while the checker holds the GPU to start it
    Writer out = reply(Status::ok);
    out.put_string(properties.name).put<std::int32_t>(properties.major).put<std::int32_t>(properties.minor);
    return out;
}

// Elements added before the checker's guard zone of a buffer of @p count elements, so that on the CPU backend
// (no zone after, @p guard_after false) the buffer ends against the inaccessible page after its allocation: that
// backend's cudaMalloc starts a buffer 256-byte aligned and ends it against that page when its size is a multiple
// of 256 bytes. The element one past the end then faults, even when the kernel throws its value away. The payload
// stays 16-byte aligned, as on a GPU (guard is a multiple of 4 elements): where count is not a multiple of 4, up
// to 3 elements past it are the emulator's past-the-end NaN (see tilelab::cpu::past_end_poison_bits), and the page
// follows them. None on a GPU, whose zone after the buffer catches the same reads.
std::size_t page_end_padding(std::size_t guard, std::size_t count, bool guard_after) {
#ifdef TILELAB_CPU_BACKEND
    if (guard_after) return 0;
    const std::size_t slack = (4 - count % 4) % 4;
    return (64 - (guard + count + slack) % 64) % 64;
#else
    static_cast<void>(guard), static_cast<void>(count), static_cast<void>(guard_after);
    return 0;
#endif
}

// A multiply request: the launch, the shape, the guard zones and P's poison, and the operands.
struct MultiplyRequest {
    LaunchMode mode;
    int rows, inner, cols;
    std::uint64_t guard;
    bool guard_after;
    std::uint32_t guard_bits, unwritten_bits;
    std::vector<float> M, N;
};

// A multiply request's fields, the operands left empty when @p operands_follow is false (a drawn probed
// multiply's, which the runner draws itself).
MultiplyRequest read_multiply(Reader& in, bool operands_follow = true) {
    MultiplyRequest request;
    request.mode = in.get<LaunchMode>();
    request.rows = in.get<std::int32_t>();
    request.inner = in.get<std::int32_t>();
    request.cols = in.get<std::int32_t>();
    request.guard = in.get<std::uint64_t>();
    request.guard_after = in.get<std::uint8_t>() != 0;
    request.guard_bits = in.get<std::uint32_t>();
    request.unwritten_bits = in.get<std::uint32_t>();
    check_sizes(request.rows, request.inner, request.cols);
    if (operands_follow) {
        request.M = in.get_floats();
        request.N = in.get_floats();
    }
    if (!in.at_end() || request.guard > (1u << 24)) unsupported("malformed multiply request");
    return request;
}

// How P goes back: every element of its buffer, or (a sampled probed multiply, whose other blocks never ran) only
// the elements the kernel wrote, as WrittenElement records.
enum class ProductReply { every_element, written_elements };

// Inputs in device buffers between guard zones, P poisoned, one launch, and P back (@p product_reply).
Writer multiply(const MultiplyRequest& request, const RunnerLab& lab,
                ProductReply product_reply = ProductReply::every_element) {
    const auto mode = request.mode;
    const int rows = request.rows, inner = request.inner, cols = request.cols;
    const std::uint64_t guard = request.guard;
    const bool guard_after = request.guard_after;
    const float guard_value = bits_to_float(request.guard_bits);
    const float unwritten = bits_to_float(request.unwritten_bits);
    const std::vector<float>& M = request.M;
    const std::vector<float>& N = request.N;
    if (M.size() != product(rows, inner) || N.size() != product(inner, cols)) unsupported("malformed multiply request");

    // Each buffer's zone before it is `guard` elements and its padding (page_end_padding).
    auto front = [&](std::size_t count) { return guard + page_end_padding(guard, count, guard_after); };
    auto guarded = [&](const std::vector<float>& payload, std::size_t count, float fill) {
        const std::size_t before = front(count);
        std::vector<float> all(before + count + (guard_after ? guard : 0), guard_value);
        if (payload.empty())
            std::fill(all.begin() + static_cast<std::ptrdiff_t>(before),
                      all.begin() + static_cast<std::ptrdiff_t>(before + count), fill);
        else
            std::copy(payload.begin(), payload.end(), all.begin() + static_cast<std::ptrdiff_t>(before));
        return all;
    };
    const std::size_t count_P = product(rows, cols);
    const std::vector<float> host_M = guarded(M, M.size(), 0), host_N = guarded(N, N.size(), 0);
    const std::vector<float> host_P = guarded({}, count_P, unwritten);
    struct ReleaseOnTheCpuBackend {  // there, each request's buffers are its own, freed as it ends
        ~ReleaseOnTheCpuBackend() {
#ifdef TILELAB_CPU_BACKEND
            release_kept_buffers();
#endif
        }
    } release_on_the_cpu_backend;
    KeptBuffers& kept = kept_buffers();
    DeviceFloats& device_M = buffer_of(kept.M, host_M.size());
    DeviceFloats& device_N = buffer_of(kept.N, host_N.size());
    DeviceFloats& device_P = buffer_of(kept.P, host_P.size());
    upload_all({{&device_M, &host_M}, {&device_N, &host_N}, {&device_P, &host_P}});
    name_matrices(device_M.data() + front(M.size()), device_N.data() + front(N.size()), device_P.data() + front(count_P),
                  rows, inner, cols);

    // The kit's launch gives the kernel the launcher's dynamic shared memory, learned (where no call of the launcher
    // on this shape did) before anything is counted or watched: that call's other kernels are not the kernel's.
    if (mode == LaunchMode::contract && lab.contract_dynamic_shared != nullptr)
        lab.contract_dynamic_shared(rows, inner, cols);
#ifdef TILELAB_CPU_BACKEND
    // Every read of P is judged from here to the reply (tilelab/cpu/output_reads.hpp): a kernel reads only what it
    // computed.
    struct StopFollowing {
        ~StopFollowing() { tilelab::cpu::stop_tracking_output(); }
    } stop_following;
    tilelab::cpu::track_output(device_P.data() + front(count_P), static_cast<std::size_t>(rows),
                               static_cast<std::size_t>(cols), request.unwritten_bits);
#endif
    const tilelab::wire::LaunchCounts before = counters();
    start_watch_if_armed(device_P.data() + front(count_P), count_P);
    const auto launch = mode == LaunchMode::contract ? lab.contract_launch : lab.launcher;
    launch(device_M.data() + front(M.size()), device_N.data() + front(N.size()), device_P.data() + front(count_P), rows,
           inner, cols);
    check(cudaGetLastError(), "launch failed");
    check(cudaDeviceSynchronize(), "kernel failed");
    const tilelab::wire::LaunchCounts after = counters();
#ifdef TILELAB_CPU_BACKEND
    // A kernel reads M and N: one that wrote into them (a scratch buffer for values it routes past the checks' eyes)
    // is told so. Copies in memory, cheap beside the emulated kernel.
    for (const auto& [device, host, name] : {std::tuple{&device_M, &host_M, "M"}, std::tuple{&device_N, &host_N, "N"}}) {
        const std::vector<float> now = device->download(0, device->size());
        if (std::memcmp(now.data(), host->data(), host->size() * sizeof(float)) != 0)
            unsupported((std::string("the kernel wrote into ") + name + ", which it may only read: a kernel writes "
                         "only P, and keeps everything else in registers or shared memory").c_str());
    }
#endif

    // The checker's layout: its guard zone, P (and a zone after); not the padding before them.
    const std::size_t padding = front(count_P) - guard;
    const std::vector<float> all_P = device_P.download(padding, device_P.size() - padding);
    Writer out = reply(Status::ok);
    if (product_reply == ProductReply::every_element) {
        out.put_floats(all_P);
    } else {
        std::vector<WrittenElement> written;
        for (std::size_t i = 0; i < count_P; ++i) {
            const float value = all_P[guard + i];
            std::uint32_t bits;
            std::memcpy(&bits, &value, sizeof bits);
            if (bits != request.unwritten_bits) written.push_back(WrittenElement{static_cast<std::uint32_t>(i), value});
        }
        out.put_records(written);
    }
    put_counters(out, before, after);
    return out;
}

Writer multiply(Reader& in, const RunnerLab& lab) { return multiply(read_multiply(in), lab); }

// A multiply (the checker asks for the contract launch) with the emulator watching P: the reply is multiply's,
// followed by the launch's grid and block, the kernels run, whether the record was cut short, and which thread
// changed each element of P (the checker judges it against the lab's contract).
Writer watched_multiply(Reader& in, const RunnerLab& lab) {
#ifdef TILELAB_CPU_BACKEND
    struct Disarm {
        ~Disarm() {
            watch_armed = false;
            static_cast<void>(tilelab::cpu::stop_watching_output());
        }
    };
    Disarm disarm;
    watch_armed = true;
    Writer out = multiply(in, lab);
    const tilelab::cpu::WatchedWrites seen = tilelab::cpu::stop_watching_output();
    std::vector<OutputWrite> writes;
    writes.reserve(seen.writes.size());
    for (const auto& write : seen.writes) writes.push_back(OutputWrite{write.element, write.block, write.thread});
    for (const dim3& d : {seen.grid, seen.block})
        out.put<std::uint32_t>(d.x).put<std::uint32_t>(d.y).put<std::uint32_t>(d.z);
    out.put<std::uint32_t>(seen.launches).put<std::uint8_t>(seen.overflow ? 1 : 0).put_records(writes);
    return out;
#else
    static_cast<void>(in);
    static_cast<void>(lab);
    unsupported("only the CPU backend watches which thread writes each element of P");
    return reply(Status::unsupported);
#endif
}

// A multiply (the checker asks for the contract launch) with every float the kernel stores into shared memory
// scaled by the request's factor (the shared-memory check, CPU backend): the reply is multiply's.
Writer scaled_multiply(Reader& in, const RunnerLab& lab) {
#ifdef TILELAB_CPU_BACKEND
    const auto scale = in.get<SharedStoreScale>();
    if (!(scale.factor > 0.5f && scale.factor < 2.0f)) unsupported("malformed scaled multiply request");
    struct Unscale {
        ~Unscale() { tilelab::cpu::scale_shared_stores(1.0f); }
    };
    Unscale unscale;
    tilelab::cpu::scale_shared_stores(scale.factor);
    return multiply(in, lab);
#else
    static_cast<void>(in);
    static_cast<void>(lab);
    unsupported("only the CPU backend scales what a kernel stores into shared memory");
    return reply(Status::unsupported);
#endif
}

// A multiply with the CPU backend's operand probe on (the technique checks, tilelab/cpu/operand_probe.hpp): the
// probe's hooks, the blocks to run (a count, 0 for all, and the seed that draws them), the seed of its second values,
// whether the runner draws M and N itself (and the seed it draws them from), then multiply's request; the reply is
// multiply's, then what the probe counted.
Writer probed_multiply(Reader& in, const RunnerLab& lab) {
#ifdef TILELAB_CPU_BACKEND
    const auto hooks = in.get<std::uint32_t>();
    const auto sampled_blocks = in.get<std::uint32_t>();
    const auto sample_seed = in.get<std::uint64_t>();
    const auto second_seed = in.get<std::uint64_t>();
    const bool drawn = in.get<std::uint8_t>() != 0;
    const auto draw_seed = in.get<std::uint64_t>();
    MultiplyRequest request = read_multiply(in, !drawn);
    if (drawn) {  // as the gate draws its operands (tilelab/gate_data.hpp)
        const auto inner = static_cast<std::uint64_t>(request.inner), cols = static_cast<std::uint64_t>(request.cols);
        request.M.resize(product(request.rows, request.inner));
        request.N.resize(product(request.inner, request.cols));
        for (std::size_t i = 0; i < request.M.size(); ++i)
            request.M[i] = tilelab::gate::product_operand(draw_seed, tilelab::gate::Operand::M, i, inner, cols);
        for (std::size_t i = 0; i < request.N.size(); ++i)
            request.N[i] = tilelab::gate::product_operand(draw_seed, tilelab::gate::Operand::N, i, inner, cols);
    }
    // The contract's launch is the request's only kernel: it runs the sample.
    tilelab::cpu::sample_next_launch_blocks(sampled_blocks, sample_seed);
    struct StopProbe {
        bool on = true;
        ~StopProbe() {
            tilelab::cpu::sample_next_launch_blocks(0, 0);  // a request that launched nothing leaves no sample behind
            if (on) tilelab::cpu::stop_operand_probe();
        }
    };
    tilelab::cpu::start_operand_probe(second_seed, hooks);
    StopProbe stop;
    Writer out = multiply(request, lab, drawn ? ProductReply::written_elements : ProductReply::every_element);
    stop.on = false;
    out.put(tilelab::cpu::stop_operand_probe());
    return out;
#else
    static_cast<void>(in);
    static_cast<void>(lab);
    unsupported("only the CPU backend probes how a kernel's operands reach its multiply-adds");
    return reply(Status::unsupported);
#endif
}

// A multiply (the checker asks for the contract launch) whose reply adds how the kernel's bytes reached shared
// memory (the pipeline check): multiply's reply, then a SharedArrivals record, counted by the CPU backend's
// emulator (multiply's counters say whether it was); zeros on a GPU, where the checker reads the machine code.
Writer pipelined_multiply(Reader& in, const RunnerLab& lab) {
#ifdef TILELAB_CPU_BACKEND
    const auto before = tilelab::cpu::stats();
    Writer out = multiply(in, lab);
    const auto after = tilelab::cpu::stats();
    out.put(SharedArrivals{after.shared_bytes_stored - before.shared_bytes_stored,
                           after.async_bytes_landed - before.async_bytes_landed,
                           after.async_bytes_overlapped - before.async_bytes_overlapped});
#else
    Writer out = multiply(in, lab);
    out.put(SharedArrivals{});
#endif
    return out;
}

// The kernel's resources, its static shared memory and the dynamic shared memory the kit's launch gives it; on the
// CPU backend, after one run (it learns a kernel's static shared memory by running it), with the shared-memory
// accesses that run made.
Writer attributes(Reader& in, const RunnerLab& lab) {
    const int rows = in.get<std::int32_t>(), inner = in.get<std::int32_t>(), cols = in.get<std::int32_t>();
    check_sizes(rows, inner, cols);
    const std::size_t dynamic_shared =
        lab.contract_dynamic_shared != nullptr ? lab.contract_dynamic_shared(rows, inner, cols) : 0;
    tilelab::wire::LaunchCounts before{}, after{};
#ifdef TILELAB_CPU_BACKEND
    {
        const std::vector<float> zeros_M(product(rows, inner), 0.0f), zeros_N(product(inner, cols), 0.0f);
        DeviceFloats M(zeros_M.size()), N(zeros_N.size()), P(product(rows, cols));
        M.upload(zeros_M);
        N.upload(zeros_N);
        name_matrices(M.data(), N.data(), P.data(), rows, inner, cols);
        before = counters();
        lab.contract_launch(M.data(), N.data(), P.data(), rows, inner, cols);
        check(cudaGetLastError(), "launch failed");
        check(cudaDeviceSynchronize(), "kernel failed");
        after = counters();
    }
#endif
    cudaFuncAttributes attributes{};
    check(cudaFuncGetAttributes(&attributes, lab.kernel), "cudaFuncGetAttributes");
    int blocks_per_sm = 0;
    const int threads = tilelab::runner::contract_tile_width() * tilelab::runner::contract_tile_width();
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, lab.kernel, threads, dynamic_shared),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    Writer out = reply(Status::ok);
    out.put<std::uint64_t>(attributes.sharedSizeBytes).put<std::uint64_t>(dynamic_shared);
    out.put<std::int32_t>(attributes.numRegs);
    out.put<std::int32_t>(blocks_per_sm);
    put_counters(out, before, after);
    return out;
}

// Lab 04: the student's matmul_timed on host inputs, P poisoned with a guard zone after it; what the runner saw
// the call do comes back with its result (observed_call.hpp).
Writer timed(Reader& in, const RunnerLab& lab) {
    const int rows = in.get<std::int32_t>(), inner = in.get<std::int32_t>(), cols = in.get<std::int32_t>();
    const auto guard = in.get<std::uint64_t>();
    const float unwritten = bits_to_float(in.get<std::uint32_t>());
    const std::vector<float> M = in.get_floats(), N = in.get_floats();
    check_sizes(rows, inner, cols);
    if (!in.at_end() || M.size() != product(rows, inner) || N.size() != product(inner, cols) || guard > (1u << 24))
        unsupported("malformed timed request");
    if (lab.timed == nullptr) unsupported("this lab has no matmul_timed");
    std::vector<float> P(product(rows, cols) + guard, unwritten);
    tilelab::runner::ObservedCall observed(lab);
    const float ms = lab.timed(M.data(), N.data(), P.data(), rows, inner, cols);
    // A kernel that failed where matmul_timed did not look (a host pointer passed to it, say) says so here.
    check(cudaDeviceSynchronize(), "matmul_timed returned, but a kernel it launched failed");
    const tilelab::wire::TimedObservation observation = observed.finish(M.data(), N.data(), P.data());
    Writer out = reply(Status::ok);
    out.put<float>(ms).put_floats(P);
    put_observation(out, observation);
    return out;
}

// Lab 04's clock check: the kit's own event timing of the contract launch on the checker's inputs (the same
// kind of data the student's timing sees: a GPU runs cooler, so faster, on zeros), warmed up, seven runs.
Writer kernel_time(Reader& in, const RunnerLab& lab) {
    const int rows = in.get<std::int32_t>(), inner = in.get<std::int32_t>(), cols = in.get<std::int32_t>();
    const std::vector<float> host_M = in.get_floats(), host_N = in.get_floats();
    check_sizes(rows, inner, cols);
    if (!in.at_end() || host_M.size() != product(rows, inner) || host_N.size() != product(inner, cols))
        unsupported("malformed kernel_time request");
    DeviceFloats M(host_M.size()), N(host_N.size()), P(product(rows, cols));
    M.upload(host_M);
    N.upload(host_N);
    name_matrices(M.data(), N.data(), P.data(), rows, inner, cols);
    EventPair events;
    auto launch = [&] { lab.contract_launch(M.data(), N.data(), P.data(), rows, inner, cols); };
    events.time(launch);
    std::vector<float> times;
    for (int i = 0; i < 7; ++i) times.push_back(events.time(launch));
    Writer out = reply(Status::ok);
    out.put_floats(times);
    return out;
}

std::uint64_t free_device_bytes() {
    std::size_t free = 0, total = 0;
    check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    return free;
}

// Lab 04's error path: matmul_timed where one allocation fails, either because one operand is larger than any
// GPU (its host copy is then a stand-in that is never read) or, on the CPU backend, because the emulator is told
// to fail the fail_at-th cudaMalloc. Whether it threw, what, and the free device memory before and after.
Writer timed_failure(Reader& in, const RunnerLab& lab) {
    const int rows = in.get<std::int32_t>(), inner = in.get<std::int32_t>(), cols = in.get<std::int32_t>();
    const int fail_at = in.get<std::int32_t>();
    check_sizes(rows, inner, cols);
    if (!in.at_end() || fail_at < 0) unsupported("malformed timed_failure request");
    if (lab.timed == nullptr) unsupported("this lab has no matmul_timed");
    auto host = [](std::size_t count) {
        return std::vector<float>(count > (std::size_t{1} << 28) ? 16 : count, 1.0f);
    };
    std::vector<float> M = host(product(rows, inner)), N = host(product(inner, cols)), P = host(product(rows, cols));
    const std::uint64_t before = free_device_bytes();
#ifdef TILELAB_CPU_BACKEND
    tilelab::cpu::fail_nth_allocation(fail_at);
#else
    if (fail_at > 0) unsupported("only the CPU backend can fail a given allocation");
#endif
    std::uint8_t threw = 0;
    std::int32_t code = 0;
    std::string what;
    try {
        lab.timed(M.data(), N.data(), P.data(), rows, inner, cols);
    } catch (const tilelab::CudaError& error) {
        threw = 1;
        code = static_cast<std::int32_t>(error.code());
        what = error.what();
    } catch (const std::exception& error) {
        threw = 2;
        what = error.what();
    }
#ifdef TILELAB_CPU_BACKEND
    tilelab::cpu::fail_nth_allocation(0);
#endif
    static_cast<void>(cudaGetLastError());  // a failed cudaMalloc leaves no sticky error; clear it anyway
    const std::uint64_t after = free_device_bytes();
    Writer out = reply(Status::ok);
    out.put(threw).put(code).put_string(what).put(before).put(after);
    return out;
}

Writer free_memory() {
    std::size_t free = 0, total = 0;
    check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    Writer out = reply(Status::ok);
    out.put<std::uint64_t>(free).put<std::uint64_t>(total);
    return out;
}

int tile_width = 16;
std::string lab_not_loaded;  // why the runner host has no lab to answer for (its module did not load)

// The runner host's request for another lab (runner_host.cpp): its module and tile width.
Writer load_lab(Reader& in) {
    const std::string path = in.get_string();
    const int told = in.get<std::int32_t>();
    if (!in.at_end() || told <= 0) unsupported("malformed load_lab request");
    if (tilelab::runner::load_lab_module == nullptr) unsupported("this runner holds one lab, built with it");
    lab_not_loaded = tilelab::runner::load_lab_module(path, told);
    if (!lab_not_loaded.empty()) unsupported(lab_not_loaded.c_str());
    tile_width = told;
    return reply(Status::ok);
}

Writer answer(const std::vector<unsigned char>& request) {
    Reader in(request);
    const RunnerLab& lab = runner_lab();
    take_fault_site();  // an earlier request's, not this one's
    try {
        const Op op = in.get<Op>();
        if (op == Op::load_lab) return load_lab(in);
        if (op != Op::multiply && op != Op::watched_multiply && op != Op::scaled_multiply &&
            op != Op::pipelined_multiply && op != Op::probed_multiply)
            release_kept_buffers();
        if (op != Op::hello && lab.launcher == nullptr)
            unsupported(("the lab's module could not be loaded: " + lab_not_loaded).c_str());
        switch (op) {
            case Op::hello: return hello();
            case Op::multiply: return multiply(in, lab);
            case Op::attributes: return attributes(in, lab);
            case Op::perf_launches: return perf_launches(in, lab);
            case Op::timed: return timed(in, lab);
            case Op::kernel_time: return kernel_time(in, lab);
            case Op::timed_failure: return timed_failure(in, lab);
            case Op::free_memory: return free_memory();
            case Op::perf_load: return perf_load(in, lab);
            case Op::perf_fill: return perf_fill(in);
            case Op::perf_keep: return perf_keep(in);
            case Op::perf_kept: return perf_kept(in);
            case Op::perf_samples: return perf_samples(in);
            case Op::watched_multiply: return watched_multiply(in, lab);
            case Op::scaled_multiply: return scaled_multiply(in, lab);
            case Op::pipelined_multiply: return pipelined_multiply(in, lab);
            case Op::probed_multiply: return probed_multiply(in, lab);
            case Op::load_lab: break;  // answered above
        }
        unsupported("unknown request");
    } catch (const RequestFailed& failed) {
        return reply(failed.status, failed.code, failed.name, failed.message,
                     failed.status == Status::cuda_error ? take_fault_site() : FaultSite{});
    } catch (const tilelab::CudaError& error) {
        return reply(Status::cuda_error, static_cast<int>(error.code()), cudaGetErrorName(error.code()), error.what(),
                     take_fault_site());
    } catch (const std::exception& error) {
        return reply(Status::exception, 0, "", error.what());
    } catch (...) {
        return reply(Status::exception, 0, "", "an exception that is not a std::exception");
    }
    return reply(Status::unsupported);
}

// The value of @p option in argv, or empty.
std::string argument(int argc, char** argv, const char* option) {
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], option) == 0) return argv[i + 1];
    return {};
}

// The number @p option gives in argv, or -1.
int descriptor(int argc, char** argv, const char* option) {
    const std::string value = argument(argc, argv, option);
    return value.empty() ? -1 : std::atoi(value.c_str());
}

}  // namespace

#ifdef TILELAB_CPU_BACKEND
namespace {
int reply_descriptor = -1;  // the reply channel, for the fault observer

// The CPU backend's fault handler is about to end the program (a kernel, or the launcher, touched memory it may not):
// the request it was carrying out is answered with the fault, as a cudaErrorIllegalAddress that loses the context,
// so that the checker learns what happened from a reply, with the fault's site, and not from the program's end. The
// frame is built in static memory and written with write(2): this runs in the signal handler.
void answer_with_fault(const tilelab::cpu::FaultSite& site, const char* report) {
    // Two worker threads that fault at once: the first answers, the second waits for it to end the program. One
    // write of at most 4096 bytes (PIPE_BUF) into the pipe is never interleaved with another.
    static std::atomic<bool> answering{false};
    if (answering.exchange(true))
        for (;;) pause();
    static unsigned char frame[4096];
    std::size_t size = 12;  // after the magic and the byte count
    const auto put = [&](const void* data, std::size_t bytes) {
        if (size + bytes > sizeof frame) bytes = sizeof frame - size;
        std::memcpy(frame + size, data, bytes);
        size += bytes;
    };
    const auto put_text = [&](const char* text, std::size_t length) {
        const std::uint64_t n = length;
        put(&n, sizeof n);
        put(text, length);
    };
    // The report without its "error: " and its last newline: "illegal memory access in the kernel ...",
    // then the emulator's hint on a line of its own.
    const char* words = std::strncmp(report, "error: ", 7) == 0 ? report + 7 : report;
    std::size_t length = std::strlen(words);
    while (length > 0 && words[length - 1] == '\n') --length;
    static char message[3000];
    const char* lead = site.host_code ? "failed: " : "kernel failed: ";
    const std::size_t lead_length = std::strlen(lead);
    length = std::min(length, sizeof message - lead_length);
    std::memcpy(message, lead, lead_length);
    std::memcpy(message + lead_length, words, length);
    const Status status = Status::cuda_error;
    const std::int32_t code = cudaErrorIllegalAddress;
    const char* name = "cudaErrorIllegalAddress";
    put(&status, sizeof status);
    put(&code, sizeof code);
    put_text(name, std::strlen(name));
    put_text(message, lead_length + length);
    const std::uint8_t context_lost = 1;
    put(&context_lost, sizeof context_lost);
    const FaultSite fault = wire_site(site);
    put(&fault.access, sizeof fault.access);
    put(&fault.matrix, sizeof fault.matrix);
    put(&fault.host_code, sizeof fault.host_code);
    put(&fault.element, sizeof fault.element);
    const std::uint32_t magic = frame_magic;
    const std::uint64_t payload = size - 12;
    std::memcpy(frame, &magic, sizeof magic);
    std::memcpy(frame + 4, &payload, sizeof payload);
    static_cast<void>(write_all(reply_descriptor, frame, size));
}
}  // namespace
#endif

int tilelab::runner::contract_tile_width() { return tile_width; }
std::string (*tilelab::runner::load_lab_module)(const std::string&, int) = nullptr;

int main(int argc, char** argv) {
    const int in = descriptor(argc, argv, "--in"), out = descriptor(argc, argv, "--out");
    if (const int t = descriptor(argc, argv, "--tile-width"); t > 0) tile_width = t;
    if (in < 0 || out < 0) {
        std::fprintf(stderr, "this is a TileLab lab runner: the checker starts it (--tile-width N --in FD --out FD)\n");
        return 2;
    }
    // The runner host's first lab (runner_host.cpp): a module that does not load fails every request but hello,
    // saying why, rather than the program, so that the checker reports it as the lab's failure.
    const std::string module = argument(argc, argv, "--module");
    if (!module.empty())
        lab_not_loaded = tilelab::runner::load_lab_module == nullptr
                             ? "this runner holds one lab, built with it (--module is the runner host's)"
                             : tilelab::runner::load_lab_module(module, tile_width);
    std::signal(SIGPIPE, SIG_IGN);  // a checker that has gone away is an error on write, not a signal
#ifdef TILELAB_CPU_BACKEND
    reply_descriptor = out;
    tilelab::cpu::observe_faults(&answer_with_fault);
#endif
    std::vector<unsigned char> request;
    while (receive_frame(in, request))
        if (!send_frame(out, answer(request).bytes())) return 1;
    return 0;
}
