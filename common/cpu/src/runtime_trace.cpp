// The CPU backend's runtime trace and the emulated device's clock (tilelab/cpu/runtime_trace.hpp). The clock
// advances only by the work the stream runs, so the time between two events never depends on the machine.
#include <tilelab/cpu/runtime_trace.hpp>

#include "runtime_state.hpp"

#include <mutex>
#include <utility>

namespace tilelab::cpu {
namespace {

std::mutex trace_mutex;
bool tracing = false;
bool trace_truncated = false;
std::vector<TraceEntry> trace;
std::uint64_t device_clock_ns = 0;  // guarded by trace_mutex too

void append(const TraceEntry& entry) {
    if (!tracing) return;
    if (trace.size() >= trace_capacity) {
        trace_truncated = true;
        return;
    }
    trace.push_back(entry);
}

}  // namespace

void start_trace() noexcept {
    std::lock_guard<std::mutex> lock(trace_mutex);
    trace.clear();
    trace.reserve(64);
    trace_truncated = false;
    tracing = true;
}

std::vector<TraceEntry> stop_trace(bool* truncated) {
    std::lock_guard<std::mutex> lock(trace_mutex);
    tracing = false;
    if (truncated != nullptr) *truncated = trace_truncated;
    return std::exchange(trace, {});
}

namespace detail {

void trace_allocation(const void* address, std::size_t bytes, TraceEntry::Kind kind) {
    TraceEntry entry{kind};
    entry.address = reinterpret_cast<std::uintptr_t>(address);
    entry.bytes = bytes;
    std::lock_guard<std::mutex> lock(trace_mutex);
    append(entry);
}

void trace_release(const void* address) {
    TraceEntry entry{TraceEntry::Kind::release};
    entry.address = reinterpret_cast<std::uintptr_t>(address);
    std::lock_guard<std::mutex> lock(trace_mutex);
    append(entry);
}

void trace_copy(TraceEntry::Kind kind, const void* destination, const void* source, std::size_t bytes,
                std::uint32_t detail) {
    TraceEntry entry{kind};
    entry.address = reinterpret_cast<std::uintptr_t>(destination);
    entry.source = reinterpret_cast<std::uintptr_t>(source);
    entry.bytes = bytes;
    entry.detail = detail;
    std::lock_guard<std::mutex> lock(trace_mutex);
    entry.start_ns = device_clock_ns;
    device_clock_ns += copy_fixed_ns + bytes / copy_bytes_per_ns;
    entry.end_ns = device_clock_ns;
    append(entry);
}

void trace_kernel(const void* kernel, dim3 grid, dim3 block) {
    TraceEntry entry{TraceEntry::Kind::launch};
    entry.address = reinterpret_cast<std::uintptr_t>(kernel);
    entry.grid[0] = grid.x, entry.grid[1] = grid.y, entry.grid[2] = grid.z;
    entry.block[0] = block.x, entry.block[1] = block.y, entry.block[2] = block.z;
    const std::uint64_t threads = std::uint64_t{grid.x} * grid.y * grid.z * block.x * block.y * block.z;
    std::lock_guard<std::mutex> lock(trace_mutex);
    entry.start_ns = device_clock_ns;
    device_clock_ns += kernel_fixed_ns + threads * kernel_thread_ns;
    entry.end_ns = device_clock_ns;
    append(entry);
}

std::uint64_t trace_event(const void* event) {
    TraceEntry entry{TraceEntry::Kind::event};
    entry.address = reinterpret_cast<std::uintptr_t>(event);
    std::lock_guard<std::mutex> lock(trace_mutex);
    entry.start_ns = entry.end_ns = device_clock_ns;
    append(entry);
    return device_clock_ns;
}

}  // namespace detail
}  // namespace tilelab::cpu
