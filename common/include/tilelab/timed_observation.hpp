/// @file timed_observation.hpp
/// @brief What lab 04's runner observed during one call of matmul_timed, as it travels to the checker: the host
/// arrays the call was given, the kit kernel's own record of its launches (tilelab/kernel_record.hpp) and, on the
/// CPU backend, the emulator's trace of every runtime call (tilelab/cpu/runtime_trace.hpp). The runner only
/// reports; the checker (grader/checks/timed_evidence.cpp) judges.
#pragma once

#include <tilelab/kernel_record.hpp>
#include <tilelab/wire.hpp>

#include <cstdint>
#include <vector>

namespace tilelab::wire {

/// One runtime call of the trace: the fields of tilelab::cpu::TraceEntry, which the GPU build does not have.
struct TraceStep {
    std::uint8_t kind;  ///< tilelab::cpu::TraceEntry::Kind: 1 allocation, 2 release, 3 copy, 4 launch, 5 event, 6 memset,
                        ///< 7 managed allocation, 8 pinned host allocation.
    std::uint64_t address;    ///< What the call acted on: the allocation, a copy's destination, the kernel.
    std::uint64_t source;     ///< A copy's source (0 otherwise).
    std::uint64_t bytes;      ///< Bytes allocated, copied or set.
    std::uint32_t detail;     ///< A copy's cudaMemcpyKind, a memset's value.
    std::uint32_t grid[3];    ///< A launch's grid.
    std::uint32_t block[3];   ///< A launch's block.
    std::uint64_t start_ns;   ///< When the call's work began on the emulated device clock.
    std::uint64_t end_ns;     ///< When it ended (an event: the time it records).
};

/// Everything observed of one call.
struct TimedObservation {
    std::uint64_t host_M = 0;  ///< The host M matmul_timed was given ...
    std::uint64_t host_N = 0;  ///< ... its host N ...
    std::uint64_t host_P = 0;  ///< ... and its host P.
    std::uint64_t kernel = 0;                          ///< The lab 03 kernel (its address; the trace's launches name it).
    std::uint8_t has_record = 0;                       ///< 1 when the runner could read the kernel's record.
    KernelRecord record{};       ///< The kernel's record, when has_record.
    std::uint8_t has_trace = 0;  ///< 1 on the CPU backend.
    std::uint8_t truncated = 0;  ///< The trace lost calls past its capacity.
    std::vector<TraceStep> trace;  ///< The runtime calls, in the stream's order (CPU backend).
};

/// Appends @p observation to a reply.
inline void put_observation(Writer& out, const TimedObservation& observation) {
    out.put(observation.host_M).put(observation.host_N).put(observation.host_P).put(observation.kernel);
    out.put(observation.has_record).put(observation.record);
    out.put(observation.has_trace).put(observation.truncated);
    out.put<std::uint64_t>(observation.trace.size());
    for (const TraceStep& step : observation.trace) out.put(step);
}

/// Reads what put_observation wrote; a malformed one leaves @p in not ok.
inline TimedObservation get_observation(Reader& in) {
    TimedObservation observation;
    observation.host_M = in.get<std::uint64_t>();
    observation.host_N = in.get<std::uint64_t>();
    observation.host_P = in.get<std::uint64_t>();
    observation.kernel = in.get<std::uint64_t>();
    observation.has_record = in.get<std::uint8_t>();
    observation.record = in.get<KernelRecord>();
    observation.has_trace = in.get<std::uint8_t>();
    observation.truncated = in.get<std::uint8_t>();
    const auto steps = in.get<std::uint64_t>();
    for (std::uint64_t i = 0; i < steps && i < (1u << 16) && in.ok(); ++i) observation.trace.push_back(in.get<TraceStep>());
    return observation;
}

}  // namespace tilelab::wire
