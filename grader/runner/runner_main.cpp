// The runner: the one process that holds a student's code. It answers the checker's requests over the two pipes
// it is given (--in, --out) and decides nothing: it multiplies what it is sent, times what it is asked to time,
// and sends back the raw results. The checker, a separate program with no student code in it, judges them.
// It links no grader code (no comparator, no reference, no random inputs), so a lab has none of it to redefine.
#include "runner_lab.hpp"
#include "timed_observation.hpp"

#include <tilelab/cuda_check.hpp>
#include <tilelab/wire.hpp>

#include <cuda_runtime_api.h>
#ifdef TILELAB_CPU_BACKEND
#include <tilelab/cpu/emulator.hpp>
#else
#include "gate_device.hpp"
#endif

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace tilelab::wire;
using tilelab::runner::RunnerLab;
using tilelab::runner::runner_lab;

// A request that could not be carried out; becomes the reply's status and message.
struct RequestFailed {
    Status status;
    int code;
    std::string name;
    std::string message;
};

// Launch errors (a bad grid or block) leave the context usable; a fault inside a kernel does not.
bool is_sticky(cudaError_t code) {
    return code != cudaErrorInvalidConfiguration && code != cudaErrorInvalidValue &&
           code != cudaErrorLaunchOutOfResources && code != cudaErrorNoKernelImageForDevice &&
           code != cudaErrorMemoryAllocation && code != cudaErrorNotReady;
}

void check(cudaError_t code, const std::string& what) {
    if (code == cudaSuccess) return;
    throw RequestFailed{Status::cuda_error, static_cast<int>(code), cudaGetErrorName(code),
                        what + ": " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")"};
}

void unsupported(const char* why) { throw RequestFailed{Status::unsupported, 0, "", why}; }

// The reply's header: status, CUDA error code and name, message, and whether the context is lost.
Writer reply(Status status, int code = 0, const std::string& name = "", const std::string& message = "") {
    Writer out;
    out.put(status).put<std::int32_t>(code).put_string(name).put_string(message);
    out.put<std::uint8_t>(status == Status::cuda_error && is_sticky(static_cast<cudaError_t>(code)) ? 1 : 0);
    return out;
}

#ifndef TILELAB_CPU_BACKEND
// Page-locked host memory that every copy to or from the GPU goes through, grown as needed and kept. A copy from
// ordinary (pageable) memory is staged by the driver, which waits for each chunk by spinning a core; on a machine
// that grades a class, many programs share one GPU, so such a wait lasts while the others' work runs, and the
// spinning took cores from the checks. A copy of page-locked memory is one DMA, waited for in
// cudaStreamSynchronize, which sleeps (cudaDeviceScheduleBlockingSync, set in hello). Null where the machine
// would not lock that much memory: the copy is then a plain cudaMemcpy, as before.
float* staging(std::size_t count) {
    static float* buffer = nullptr;
    static std::size_t capacity = 0;
    if (count > capacity) {
        if (buffer != nullptr) static_cast<void>(cudaFreeHost(buffer));
        buffer = nullptr, capacity = 0;
        if (cudaMallocHost(reinterpret_cast<void**>(&buffer), count * sizeof(float)) != cudaSuccess) {
            static_cast<void>(cudaGetLastError());  // not sticky; cleared so that the next launch check sees its own
            buffer = nullptr;
            return nullptr;
        }
        capacity = count;
    }
    return buffer;
}
#endif

// Device memory that frees itself; its allocation failing is a failed request.
class DeviceFloats {
public:
    explicit DeviceFloats(std::size_t count) : count_(count) {
        check(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(float)), "cudaMalloc");
    }
    DeviceFloats(const DeviceFloats&) = delete;
    DeviceFloats& operator=(const DeviceFloats&) = delete;
    ~DeviceFloats() { static_cast<void>(cudaFree(data_)); }
    float* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return count_; }
    void upload(const std::vector<float>& values);  // upload_all's, for one buffer
    std::vector<float> download() const { return download(0, count_); }
    /// @p count elements from element @p first on.
    std::vector<float> download(std::size_t first, std::size_t count) const {
        std::vector<float> values(count);
#ifndef TILELAB_CPU_BACKEND
        if (float* pinned = staging(count); pinned != nullptr) {
            check(cudaMemcpyAsync(pinned, data_ + first, count * sizeof(float), cudaMemcpyDeviceToHost, 0),
                  "cudaMemcpy");
            check(cudaStreamSynchronize(0), "cudaMemcpy");
            std::copy(pinned, pinned + count, values.begin());
            return values;
        }
#endif
        check(cudaMemcpy(values.data(), data_ + first, count * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
        return values;
    }

private:
    float* data_ = nullptr;
    std::size_t count_;
};

/// Each buffer's values (sizes equal), copied to the GPU with one wait for them all: on a GPU that many programs
/// share, each wait lasts until this program's turn comes round, so a request waits as few times as it can.
void upload_all(std::initializer_list<std::pair<DeviceFloats*, const std::vector<float>*>> copies) {
#ifndef TILELAB_CPU_BACKEND
    std::size_t total = 0;
    for (const auto& copy : copies) total += copy.first->size();
    if (float* pinned = staging(total); pinned != nullptr) {
        for (const auto& [device, values] : copies) {
            std::copy(values->begin(), values->begin() + static_cast<std::ptrdiff_t>(device->size()), pinned);
            check(cudaMemcpyAsync(device->data(), pinned, device->size() * sizeof(float), cudaMemcpyHostToDevice, 0),
                  "cudaMemcpy");
            pinned += device->size();
        }
        check(cudaStreamSynchronize(0), "cudaMemcpy");  // before the launch, which may use a stream of its own
        return;
    }
#endif
    for (const auto& [device, values] : copies)
        check(cudaMemcpy(device->data(), values->data(), device->size() * sizeof(float), cudaMemcpyHostToDevice),
              "cudaMemcpy");
}

void DeviceFloats::upload(const std::vector<float>& values) { upload_all({{this, &values}}); }

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

float bits_to_float(std::uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

std::size_t product(int a, int b) { return static_cast<std::size_t>(a) * static_cast<std::size_t>(b); }

void check_sizes(int rows, int inner, int cols) {
    if (rows <= 0 || inner <= 0 || cols <= 0 || rows > (1 << 20) || inner > (1 << 20) || cols > (1 << 20))
        unsupported("sizes out of range");
}

// What the emulator counted, so the checker can see that the kernel's threads ran and used their tiles.
struct Counters {
    std::uint8_t present = 0;
    std::uint64_t threads = 0, shared_reads = 0, shared_writes = 0;
};
Counters counters() {
    Counters c;
#ifdef TILELAB_CPU_BACKEND
    const auto s = tilelab::cpu::stats();
    c = Counters{1, s.threads_run, s.shared_reads, s.shared_writes};
#endif
    return c;
}
void put_counters(Writer& out, const Counters& before, const Counters& after) {
    out.put(after.present).put<std::uint64_t>(after.threads - before.threads);
    out.put<std::uint64_t>(after.shared_reads - before.shared_reads);
    out.put<std::uint64_t>(after.shared_writes - before.shared_writes);
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

// Inputs in device buffers between guard zones, P poisoned, one launch, and every element of P's buffer back.
Writer multiply(Reader& in, const RunnerLab& lab) {
    const auto mode = in.get<LaunchMode>();
    const int rows = in.get<std::int32_t>(), inner = in.get<std::int32_t>(), cols = in.get<std::int32_t>();
    const auto guard = in.get<std::uint64_t>();
    const bool guard_after = in.get<std::uint8_t>() != 0;
    const float guard_value = bits_to_float(in.get<std::uint32_t>());
    const float unwritten = bits_to_float(in.get<std::uint32_t>());
    const std::vector<float> M = in.get_floats(), N = in.get_floats();
    check_sizes(rows, inner, cols);
    if (!in.at_end() || M.size() != product(rows, inner) || N.size() != product(inner, cols) || guard > (1u << 24))
        unsupported("malformed multiply request");

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

    // The kit's launch gives the kernel the launcher's dynamic shared memory, learned (where no call of the launcher
    // on this shape did) before anything is counted or watched: that call's other kernels are not the kernel's.
    if (mode == LaunchMode::contract && lab.contract_dynamic_shared != nullptr)
        lab.contract_dynamic_shared(rows, inner, cols);
    const Counters before = counters();
    start_watch_if_armed(device_P.data() + front(count_P), count_P);
    const auto launch = mode == LaunchMode::contract ? lab.contract_launch : lab.launcher;
    launch(device_M.data() + front(M.size()), device_N.data() + front(N.size()), device_P.data() + front(count_P), rows,
           inner, cols);
    check(cudaGetLastError(), "launch failed");
    check(cudaDeviceSynchronize(), "kernel failed");
    const Counters after = counters();

    // The checker's layout: its guard zone, P (and a zone after); not the padding before them.
    const std::size_t padding = front(count_P) - guard;
    const std::vector<float> all_P = device_P.download(padding, device_P.size() - padding);
    Writer out = reply(Status::ok);
    out.put_floats(all_P);
    put_counters(out, before, after);
    return out;
}

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
    Counters before, after;
#ifdef TILELAB_CPU_BACKEND
    {
        const std::vector<float> zeros_M(product(rows, inner), 0.0f), zeros_N(product(inner, cols), 0.0f);
        DeviceFloats M(zeros_M.size()), N(zeros_N.size()), P(product(rows, cols));
        M.upload(zeros_M);
        N.upload(zeros_N);
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

float elapsed_ms(cudaEvent_t start, cudaEvent_t stop) {
    check(cudaEventSynchronize(stop), "kernel failed");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    return ms;
}

// Events that destroy themselves.
struct EventPair {
    cudaEvent_t start = nullptr, stop = nullptr;
    EventPair() {
        check(cudaEventCreate(&start), "cudaEventCreate");
        check(cudaEventCreate(&stop), "cudaEventCreate");
    }
    EventPair(const EventPair&) = delete;
    EventPair& operator=(const EventPair&) = delete;
    ~EventPair() {
        static_cast<void>(cudaEventDestroy(start));
        static_cast<void>(cudaEventDestroy(stop));
    }
    template <class Launch>
    float time(Launch&& launch) {
        check(cudaEventRecord(start), "cudaEventRecord");
        launch();
        check(cudaEventRecord(stop), "cudaEventRecord");
        check(cudaGetLastError(), "launch failed");
        return elapsed_ms(start, stop);
    }
};

// The performance gate. The checker times each request with its own clock, the same requests to this program and
// to the gate's reference program (this harness with the model kernel, no student code), so the times it compares
// are never measured here: perf_fill draws operand sets from the checker's seed (untimed), perf_launches launches
// the kernel once on each set, waits, and sends back each result's digest (timed by the checker), perf_keep keeps a
// copy of one result, chosen by the checker after the digests came, and perf_kept sends it back once the checker has
// let go of the GPU, to verify a digest and sample the product.
struct GateOperands {
    GateOperands(int side, int count)
        : n(side), sets(count), M(product(side, side) * count), N(product(side, side) * count),
          P(product(side, side) * count) {}
    std::size_t set_size() const { return product(n, n); }
    int n, sets;
    DeviceFloats M, N, P;  // sets consecutive n × n matrices each
    std::vector<std::unique_ptr<DeviceFloats>> kept;   // perf_keep's copies until perf_kept reads them (null: read)
    std::vector<std::unique_ptr<DeviceFloats>> spare;  // copies read, whose device memory the next perf_keep takes
};

std::unique_ptr<GateOperands>& gate_operands() {
    static std::unique_ptr<GateOperands> operands;
    return operands;
}

constexpr int max_gate_sets = 16;

// Buffers for `sets` operand sets of side n; the last gate's go first. The kit's launch learns the launcher's
// dynamic shared memory for that side now, not in a timed request.
Writer perf_load(Reader& in, const RunnerLab& lab) {
    const int n = in.get<std::int32_t>(), sets = in.get<std::int32_t>();
    if (!in.at_end() || sets <= 0 || sets > max_gate_sets) unsupported("malformed perf_load request");
    check_sizes(n, n, n);
#ifdef TILELAB_CPU_BACKEND
    static_cast<void>(lab);
    unsupported("the CPU backend has no performance gate");
#else
    gate_operands().reset();
    if (lab.contract_dynamic_shared != nullptr) lab.contract_dynamic_shared(n, n, n);
    gate_operands() = std::make_unique<GateOperands>(n, sets);
#endif
    return reply(Status::ok);
}

GateOperands& loaded_gate(const char* request) {
    if (!gate_operands()) unsupported((std::string(request) + " before perf_load").c_str());
    return *gate_operands();
}

// The first `sets` operand sets drawn afresh from the checker's seed; P's poisoned so a launch that writes
// nothing leaves no earlier result behind.
Writer perf_fill(Reader& in) {
    const auto seed = in.get<std::uint64_t>();
    const int sets = in.get<std::int32_t>();
    GateOperands& gate = loaded_gate("perf_fill");
    if (!in.at_end() || sets <= 0 || sets > gate.sets) unsupported("malformed perf_fill request");
#ifndef TILELAB_CPU_BACKEND
    for (int s = 0; s < sets; ++s)
        tilelab::runner::gate_fill(gate.M.data() + s * gate.set_size(), gate.N.data() + s * gate.set_size(), gate.n,
                                   seed, static_cast<std::uint32_t>(s));
    check(cudaMemset(gate.P.data(), 0xff, sets * gate.set_size() * sizeof(float)), "cudaMemset");
    check(cudaDeviceSynchronize(), "cudaMemset");
#endif
    return reply(Status::ok);
}

// The timed request: one launch on each of the first `sets` operand sets, a wait, each result's digest. Events
// around the launches give this program's own reading of the kernels' time, which the checker prints beside its
// own and never decides by.
Writer perf_launches(Reader& in, const RunnerLab& lab) {
    const int sets = in.get<std::int32_t>();
    GateOperands& gate = loaded_gate("perf_launches");
    if (!in.at_end() || sets <= 0 || sets > gate.sets) unsupported("malformed perf_launches request");
    Writer out = reply(Status::ok);
#ifndef TILELAB_CPU_BACKEND
    EventPair events;
    const std::size_t size = gate.set_size();
    const float ms = events.time([&] {
        for (int s = 0; s < sets; ++s)
            lab.contract_launch(gate.M.data() + s * size, gate.N.data() + s * size, gate.P.data() + s * size, gate.n,
                                gate.n, gate.n);
    });
    const std::vector<std::uint64_t> digests = tilelab::runner::gate_digests(gate.P.data(), size, sets);
    out.put<std::int32_t>(sets);
    for (const std::uint64_t digest : digests) out.put(digest);
    out.put<float>(ms);
#else
    static_cast<void>(lab);
#endif
    return out;
}

// Copies kept unread at once by one program at most (a race's pairs and warm-up, with room): 64 × 16 MiB at 2048².
constexpr std::size_t max_kept_results = 64;

// A device copy of one result of the last perf_launches, kept for perf_kept; its number (a slot read before is
// used again, with its device memory).
Writer perf_keep(Reader& in) {
    const int set = in.get<std::int32_t>();
    GateOperands& gate = loaded_gate("perf_keep");
    if (!in.at_end() || set < 0 || set >= gate.sets) unsupported("malformed perf_keep request");
    const auto unread = static_cast<std::size_t>(
        std::count_if(gate.kept.begin(), gate.kept.end(), [](const auto& copy) { return copy != nullptr; }));
    if (unread >= max_kept_results) unsupported("too many results kept and not read back");
    std::unique_ptr<DeviceFloats> copy;
    if (!gate.spare.empty()) {
        copy = std::move(gate.spare.back());
        gate.spare.pop_back();
    } else {
        copy = std::make_unique<DeviceFloats>(gate.set_size());
    }
    check(cudaMemcpy(copy->data(), gate.P.data() + set * gate.set_size(), gate.set_size() * sizeof(float),
                     cudaMemcpyDeviceToDevice),
          "cudaMemcpy");
    auto slot = std::find(gate.kept.begin(), gate.kept.end(), nullptr);
    if (slot == gate.kept.end()) slot = gate.kept.insert(gate.kept.end(), nullptr);
    *slot = std::move(copy);
    Writer out = reply(Status::ok);
    out.put<std::int32_t>(static_cast<std::int32_t>(slot - gate.kept.begin()));
    return out;
}

// A copy perf_keep kept; its slot is free again once read.
Writer perf_kept(Reader& in) {
    const int number = in.get<std::int32_t>();
    GateOperands& gate = loaded_gate("perf_kept");
    if (!in.at_end() || number < 0 || static_cast<std::size_t>(number) >= gate.kept.size() ||
        gate.kept[static_cast<std::size_t>(number)] == nullptr)
        unsupported("malformed perf_kept request");
    Writer out = reply(Status::ok);
    std::unique_ptr<DeviceFloats>& copy = gate.kept[static_cast<std::size_t>(number)];
    out.put_floats(copy->download());
    gate.spare.push_back(std::move(copy));
    return out;
}

// Lab 04: the student's matmul_timed on host inputs, P poisoned with a guard zone after it; what the runner saw
// the call do comes back with its result (timed_observation.hpp).
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
    try {
        const Op op = in.get<Op>();
        if (op == Op::load_lab) return load_lab(in);
        if (op != Op::multiply && op != Op::watched_multiply && op != Op::scaled_multiply &&
            op != Op::pipelined_multiply)
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
            case Op::watched_multiply: return watched_multiply(in, lab);
            case Op::scaled_multiply: return scaled_multiply(in, lab);
            case Op::pipelined_multiply: return pipelined_multiply(in, lab);
            case Op::load_lab: break;  // answered above
        }
        unsupported("unknown request");
    } catch (const RequestFailed& failed) {
        return reply(failed.status, failed.code, failed.name, failed.message);
    } catch (const tilelab::CudaError& error) {
        return reply(Status::cuda_error, static_cast<int>(error.code()), cudaGetErrorName(error.code()), error.what());
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
    std::vector<unsigned char> request;
    while (receive_frame(in, request))
        if (!send_frame(out, answer(request).bytes())) return 1;
    return 0;
}
