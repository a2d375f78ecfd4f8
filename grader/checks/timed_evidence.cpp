// Lab 04: did the device do the work of matmul_timed, and is the time it returned its events' (timed_evidence.hpp).
// The kit kernel's record says that the kernel ran, where and how; on the CPU backend the runtime trace says what
// the host code around it did, in the stream's order.
#include "timed_evidence.hpp"

#include <tilelab/compare.hpp>
#include <tilelab/gate_data.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace tilelab::grader {
namespace {

using wire::TraceStep;

enum Kind : std::uint8_t {
    allocation = 1,
    release = 2,
    copy = 3,
    launch = 4,
    event = 5,
    memset = 6,
    managed_allocation = 7,
    host_allocation = 8
};

// Where a kernel operand lies: in no memory the call allocated, in device memory (cudaMalloc), or in memory that
// both the host and the kernels reach (cudaMallocManaged, pinned cudaMallocHost), whose contents move with no copy.
enum class Memory { none, device, shared_with_host };

std::string hex(std::uint64_t address) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
    return text;
}

bool within(std::uint64_t address, std::uint64_t start, std::uint64_t bytes) {
    return address >= start && address - start < bytes;
}

std::uint32_t bits(float value) {
    std::uint32_t b;
    std::memcpy(&b, &value, sizeof b);
    return b;
}

std::string exact(float value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", static_cast<double>(value));
    return text;
}

std::string dims(const std::uint32_t d[3]) {
    return std::to_string(d[0]) + " x " + std::to_string(d[1]) + " x " + std::to_string(d[2]);
}

// A step of the trace in words, for a message.
std::string describe(const TraceStep& step) {
    switch (step.kind) {
        case copy: {
            const char* direction = step.detail == 1 ? "to the device" : step.detail == 2 ? "back to the host"
                                    : step.detail == 3                 ? "within the device"
                                                                       : "";
            return "a copy of " + std::to_string(step.bytes) + " bytes " + direction;
        }
        case memset: return "a cudaMemset of " + std::to_string(step.bytes) + " bytes";
        case launch: return "another kernel launch";
        default: return "another runtime call";
    }
}

const char* const do_it_on_the_device =
    "\n  hint: allocate device memory for M, N and P (cudaMalloc or tilelab::DeviceBuffer), copy M and N to it, "
    "launch matmul_tiled_boundary_kernel on the device buffers between the two events, then copy P back";

// What the kernel's own record says; empty when it shows the kernel ran as it should on device memory.
std::string judge_record(const Shape& shape, int tile_width, const std::vector<float>& P,
                         const wire::TimedObservation& seen) {
    const KernelRecord& r = seen.record;
    const std::uint64_t m_bytes = std::uint64_t{4} * shape.rows * shape.inner;
    const std::uint64_t n_bytes = std::uint64_t{4} * shape.inner * shape.cols;
    const std::uint64_t p_bytes = std::uint64_t{4} * shape.rows * shape.cols;
    if (!seen.has_record) return "the lab's program did not report the kernel's launches (a kit error)";
    if (r.launches == 0)
        return "matmul_timed never launched matmul_tiled_boundary_kernel for shape " + to_string(shape) +
               ": P was computed on the host, or not at all" + do_it_on_the_device;
    const std::uint32_t T = static_cast<std::uint32_t>(tile_width);
    if (r.block[0] != T || r.block[1] != T || r.block[2] != 1)
        return "matmul_timed launched the kernel with blocks of " + dims(r.block) + " threads; the lab 03 kernel "
               "needs TILE_WIDTH x TILE_WIDTH blocks (" + std::to_string(T) + " x " + std::to_string(T) +
               " x 1 here): dim3 block(TILE_WIDTH, TILE_WIDTH)";
    const std::uint32_t need_x = (static_cast<std::uint32_t>(shape.cols) + T - 1) / T;
    const std::uint32_t need_y = (static_cast<std::uint32_t>(shape.rows) + T - 1) / T;
    if (r.grid[0] < need_x || r.grid[1] < need_y || r.grid[2] != 1)
        return "matmul_timed launched the kernel over a grid of " + dims(r.grid) + " blocks, which does not cover P "
               "for shape " + to_string(shape) + ": it needs " + std::to_string(need_x) + " x " +
               std::to_string(need_y) + " x 1 (x over the columns, y over the rows, each rounded up to whole tiles)";
    if (r.rows != shape.rows || r.inner != shape.inner || r.cols != shape.cols)
        return "matmul_timed launched the kernel with rows, inner, cols = " + std::to_string(r.rows) + ", " +
               std::to_string(r.inner) + ", " + std::to_string(r.cols) + " for shape " + to_string(shape) +
               ": pass the sizes matmul_timed was given";
    const std::uint64_t blocks = std::uint64_t{r.grid[0]} * r.grid[1] * r.grid[2];
    if (r.blocks < blocks)
        return "only " + std::to_string(r.blocks) + " of the kernel's " + std::to_string(blocks) +
               " blocks ran: wait for the kernel (the stop event) before copying P back";
    struct Operand {
        const char* name;
        std::uint64_t device, host, bytes;
    };
    for (const Operand& o : {Operand{"M", r.M, seen.host_M, m_bytes}, Operand{"N", r.N, seen.host_N, n_bytes},
                             Operand{"P", r.P, seen.host_P, p_bytes}})
        if (within(o.device, o.host, o.bytes))
            return std::string("the kernel was launched on the host array ") + o.name + " that matmul_timed was "
                   "given (" + hex(o.device) + "), not on device memory: on a GPU a kernel cannot use host memory. "
                   "Copy " + o.name + " into a device buffer and pass the buffer's pointer" + do_it_on_the_device;
    if (P.empty()) return "";
    const std::size_t last = static_cast<std::size_t>(shape.rows) * shape.cols - 1;
    bool all_unwritten = true;
    for (std::size_t i = 0; i <= last && all_unwritten; ++i) all_unwritten = is_unwritten(P[i]);
    if (all_unwritten)
        return "P was never copied back from the device: the kernel ran, but the host P holds none of its results"
               "\n  hint: after the kernel, copy rows * cols floats from the device buffer it wrote to P "
               "(cudaMemcpyDeviceToHost, or DeviceBuffer::copy_to_host)";
    if ((r.first_written && bits(P[0]) != bits(r.first)) || (r.last_written && bits(P[last]) != bits(r.last)))
        return "the host P is not what the kernel computed (P[0]: the kernel stored " + exact(r.first) + ", P holds " +
               exact(P[0]) + "; P[" + std::to_string(last) + "]: " + exact(r.last) + " and " + exact(P[last]) +
               "): P was not copied back from the buffer the kernel wrote, or was changed after the copy";
    return "";
}

// True when @p address lies in a device buffer allocated during the call (trace[0, to)).
bool in_device_allocation(const std::vector<TraceStep>& trace, std::size_t to, std::uint64_t address) {
    for (std::size_t i = 0; i < to && i < trace.size(); ++i)
        if (trace[i].kind == allocation && trace[i].address != 0 && within(address, trace[i].address, trace[i].bytes))
            return true;
    return false;
}

// Sum of the bytes copied over trace[from, to) between host memory (any host array: the caller's, or a pinned
// staging buffer of the student's own) and inside [device, device + bytes): into it when @p upload, out of it
// otherwise.
std::uint64_t host_copies(const std::vector<TraceStep>& trace, std::size_t from, std::size_t to, std::uint64_t device,
                          std::uint64_t bytes, bool upload) {
    std::uint64_t total = 0;
    for (std::size_t i = from; i < to; ++i) {
        if (trace[i].kind != copy) continue;
        const std::uint64_t device_end = upload ? trace[i].address : trace[i].source;
        const std::uint64_t host_end = upload ? trace[i].source : trace[i].address;
        if (within(device_end, device, bytes) && !in_device_allocation(trace, trace.size(), host_end))
            total += trace[i].bytes;
    }
    return total;
}

// The memory allocated over trace[0, to) that holds all of [address, address + bytes).
Memory allocated_memory(const std::vector<TraceStep>& trace, std::size_t to, std::uint64_t address,
                        std::uint64_t bytes) {
    for (std::size_t i = 0; i < to && i < trace.size(); ++i) {
        const TraceStep& step = trace[i];
        if (step.address == 0 || !within(address, step.address, step.bytes) ||
            address + bytes > step.address + step.bytes)
            continue;
        if (step.kind == allocation) return Memory::device;
        if (step.kind == managed_allocation || step.kind == host_allocation) return Memory::shared_with_host;
    }
    return Memory::none;
}

// The P that matmul_timed returned is, element for element, what the kernel's last launch wrote (the kernel's
// digest of its P, CPU backend).
bool P_is_the_kernels(const Shape& shape, const std::vector<float>& P, const KernelRecord& r) {
    const std::size_t count = static_cast<std::size_t>(shape.rows) * shape.cols;
    return r.digested != 0 && P.size() >= count && gate::digest(P.data(), count) == r.P_digest;
}

// What the CPU backend's trace says; empty when the call allocated, copied, launched, timed and copied back as
// lab 04 asks, and returned its events' time. Operands in managed or pinned memory reach the device with no traced
// copy: for those the kernel's digests of what it read and wrote stand for the copies.
std::string judge_trace(const Shape& shape, float ms, const std::vector<float>& P, const OperandDigests& inputs,
                        const wire::TimedObservation& seen) {
    const std::vector<TraceStep>& trace = seen.trace;
    const KernelRecord& r = seen.record;
    const std::uint64_t m_bytes = std::uint64_t{4} * shape.rows * shape.inner;
    const std::uint64_t n_bytes = std::uint64_t{4} * shape.inner * shape.cols;
    const std::uint64_t p_bytes = std::uint64_t{4} * shape.rows * shape.cols;
    if (seen.truncated) return "matmul_timed made more runtime calls than the grader records (4096)";
    std::size_t kernel = trace.size();
    for (std::size_t i = 0; i < trace.size(); ++i)
        if (trace[i].kind == launch && trace[i].address == seen.kernel) kernel = i;
    if (kernel == trace.size())
        return "matmul_timed never launched matmul_tiled_boundary_kernel for shape " + to_string(shape) +
               do_it_on_the_device;
    struct Operand {
        const char* name;
        std::uint64_t device, host, bytes;
    };
    Memory memory[3] = {Memory::none, Memory::none, Memory::none};
    const Operand operands[3] = {Operand{"M", r.M, seen.host_M, m_bytes}, Operand{"N", r.N, seen.host_N, n_bytes},
                                 Operand{"P", r.P, seen.host_P, p_bytes}};
    for (int k = 0; k < 3; ++k) {
        const Operand& o = operands[k];
        memory[k] = allocated_memory(trace, kernel, o.device, o.bytes);
        if (memory[k] == Memory::none)
            return std::string("the kernel's ") + o.name + " (" + hex(o.device) + ") is not a device buffer of " +
                   std::to_string(o.bytes) + " bytes that matmul_timed allocated before the launch (with cudaMalloc, "
                   "or as managed memory with cudaMallocManaged)" + do_it_on_the_device;
    }
    const std::uint64_t input_digests[2] = {inputs.M, inputs.N};
    const std::uint64_t read_digests[2] = {r.M_digest, r.N_digest};
    for (int k = 0; k < 2; ++k) {
        const Operand& o = operands[k];
        if (memory[k] == Memory::shared_with_host) {
            if (r.digested == 0 || read_digests[k] != input_digests[k])
                return std::string("the managed (or pinned) memory the kernel read as ") + o.name + " (" +
                       hex(o.device) + ") did not hold " + o.name + " when the kernel started: it computed P from "
                       "other numbers\n  hint: fill it with all of " + o.name + " (std::copy, std::memcpy or "
                       "cudaMemcpy) before the launch, and change none of it until the kernel has finished";
        } else if (host_copies(trace, 0, kernel, o.device, o.bytes, true) < o.bytes) {
            return std::string(o.name) + " was never copied to the device before the launch: the kernel read a "
                   "device buffer that does not hold " + o.name + "\n  hint: cudaMemcpy(device_" + o.name + ", " +
                   o.name + ", bytes, cudaMemcpyHostToDevice) (or copy_from_host) before the launch";
        }
    }
    if (memory[2] == Memory::shared_with_host) {
        if (!P_is_the_kernels(shape, P, r))
            return "the host P is not what the kernel wrote into the managed (or pinned) memory at " + hex(r.P) +
                   ": P was computed or changed on the host\n  hint: after the kernel, wait for it "
                   "(cudaDeviceSynchronize, or cudaEventSynchronize on the stop event), then copy all rows * cols "
                   "floats of that memory to P (std::copy or cudaMemcpy), and change none of them afterwards";
    } else if (host_copies(trace, kernel + 1, trace.size(), r.P, p_bytes, false) < p_bytes) {
        return "P was never copied back from the device after the kernel (" + std::to_string(p_bytes) +
               " bytes from the buffer it wrote to the host P)\n  hint: cudaMemcpy(P, device_P, bytes, "
               "cudaMemcpyDeviceToHost) (or copy_to_host) after the kernel";
    }
    std::size_t start = trace.size(), stop = trace.size();
    for (std::size_t i = 0; i < kernel; ++i)
        if (trace[i].kind == event) start = i;
    for (std::size_t i = trace.size(); i-- > kernel + 1;)
        if (trace[i].kind == event) stop = i;
    if (start == trace.size() || stop == trace.size())
        return std::string("no event was recorded ") + (start == trace.size() ? "before" : "after") +
               " the launch: record a start event right before it and a stop event right after it "
               "(cudaEventRecord, or tilelab::CudaEvent::record), and return the time between them";
    for (std::size_t i = start + 1; i < stop; ++i)
        if (i != kernel && (trace[i].kind == copy || trace[i].kind == memset || trace[i].kind == launch))
            return "the events around the kernel also time " + describe(trace[i]) + ": record the start event "
                   "right before the launch and the stop event right after it, so the time is the kernel's alone";
    const double events_ms = (static_cast<double>(trace[stop].end_ns) - static_cast<double>(trace[start].end_ns)) / 1e6;
    const double expected = static_cast<float>(events_ms);  // as cudaEventElapsedTime rounds it
    auto matches = [ms](double events) {
        const double rounded = static_cast<float>(events);
        return std::fabs(ms - rounded) <= 1e-6 + 1e-5 * rounded;
    };
    // A time that two other events measured: say what else they bracket (the usual slip: start before the copies).
    for (std::size_t i = 0; i < trace.size() && !matches(events_ms); ++i)
        for (std::size_t j = i + 1; j < trace.size(); ++j) {
            if (trace[i].kind != event || trace[j].kind != event || (i == start && j == stop)) continue;
            if (!matches((static_cast<double>(trace[j].end_ns) - static_cast<double>(trace[i].end_ns)) / 1e6)) continue;
            for (std::size_t k = i + 1; k < j; ++k)
                if (k != kernel && (trace[k].kind == copy || trace[k].kind == memset || trace[k].kind == launch))
                    return "matmul_timed returned the time between two events that also bracket " +
                           describe(trace[k]) + ": record the start event right before the launch and the stop "
                           "event right after it, and return the time between those two, the kernel's alone";
        }
    if (!matches(events_ms)) {
        char text[400];
        std::snprintf(text, sizeof text,
                      "matmul_timed returned %.6f ms for shape %s, but its events around the kernel measured "
                      "%.6f ms on the CPU backend's device clock (which only the emulated kernels and copies "
                      "advance, never the host's clock)",
                      static_cast<double>(ms), to_string(shape).c_str(), expected);
        return std::string(text) + "\n  hint: return the events' elapsed time, cudaEventElapsedTime(&ms, start, "
               "stop) after cudaEventSynchronize(stop), or tilelab::elapsed_ms(start, stop): not a constant, "
               "not a host clock";
    }
    return "";
}

}  // namespace

std::string judge_timed_call(const Shape& shape, int tile_width, float ms, const std::vector<float>& P,
                             const OperandDigests& inputs, const wire::TimedObservation& seen) {
    std::string verdict = judge_record(shape, tile_width, P, seen);
    if (verdict.empty() && seen.has_trace) verdict = judge_trace(shape, ms, P, inputs, seen);
    return verdict;
}

}  // namespace tilelab::grader
