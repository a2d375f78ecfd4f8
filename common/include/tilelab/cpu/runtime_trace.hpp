/// @file runtime_trace.hpp
/// @brief The CPU backend's record of the runtime calls a piece of host code made, and the emulated device's
/// clock. Lab 04's runner turns it on around one call of matmul_timed, so that the checker can see that the
/// call allocated device memory, copied M and N in, launched the kernel between two events and copied P back,
/// and that the time it returned is the one its events measured.
///
/// The device's clock is the emulator's own, never the host's: it starts at 0 and advances only by the emulated
/// duration of the work the stream runs (a kernel: kernel_fixed_ns plus kernel_thread_ns per thread launched; a
/// copy: copy_fixed_ns plus the bytes over copy_bytes_per_ns), so the time between two events is the same on
/// every run and every machine, and it is what cudaEventElapsedTime reports.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

namespace tilelab::cpu {

/// @name The emulated durations (nanoseconds of the device's clock)
/// @{
inline constexpr std::uint64_t kernel_fixed_ns = 5000;   ///< A launch's own cost, as on a GPU a few microseconds.
inline constexpr std::uint64_t kernel_thread_ns = 1;     ///< Each thread launched.
inline constexpr std::uint64_t copy_fixed_ns = 8000;     ///< A cudaMemcpy's own cost.
inline constexpr std::uint64_t copy_bytes_per_ns = 16;   ///< 16 GB/s, a PCIe link's order of magnitude.
/// @}

/// One runtime call, in the order the device (the one stream) carried it out; host-only calls (allocations,
/// frees) where the host made them.
struct TraceEntry {
    /// What the call was.
    enum class Kind : std::uint8_t {
        allocation = 1,  ///< cudaMalloc: address (null when it failed), bytes.
        release = 2,     ///< cudaFree or cudaFreeHost: address.
        copy = 3,        ///< cudaMemcpy: address (destination), source, bytes, detail (the cudaMemcpyKind).
        launch = 4,      ///< A kernel that ran: address (the kernel), grid, block, start_ns and end_ns.
        event = 5,       ///< An event record that completed: address (the event), start_ns (= end_ns).
        memset = 6,      ///< cudaMemset: address, bytes.
        managed_allocation = 7,  ///< cudaMallocManaged: address (null when it failed), bytes. Host code and kernels
                                 ///< both reach it, so its contents move without a traced copy.
        host_allocation = 8,     ///< cudaMallocHost or cudaHostAlloc (pinned, mapped host memory): address (null
                                 ///< when it failed), bytes. Kernels reach it too, as on a GPU with unified addressing.
    };
    Kind kind;                          ///< Which call.
    std::uint64_t address = 0;          ///< What it acted on: the allocation, a copy's destination, the kernel.
    std::uint64_t source = 0;           ///< A copy's source (0 otherwise).
    std::uint64_t bytes = 0;            ///< Bytes allocated, copied or set.
    std::uint32_t detail = 0;           ///< A copy's cudaMemcpyKind.
    std::uint32_t grid[3] = {0, 0, 0};  ///< A launch's grid.
    std::uint32_t block[3] = {0, 0, 0}; ///< A launch's block.
    std::uint64_t start_ns = 0;  ///< The device's clock when the work started.
    std::uint64_t end_ns = 0;    ///< ... and when it ended.
};

/// What the trace holds at most: a loop of runtime calls cannot make the runner run out of memory.
inline constexpr std::size_t trace_capacity = 4096;

/// Forgets what was traced and starts tracing.
void start_trace() noexcept;
/// Stops tracing and hands over what was traced; @p truncated says whether entries past trace_capacity were lost.
std::vector<TraceEntry> stop_trace(bool* truncated);

}  // namespace tilelab::cpu
