// Lab 04's runner watching one call of matmul_timed (observed_call.hpp): it records, the checker judges.
#include "observed_call.hpp"

#ifdef TILELAB_CPU_BACKEND
#include <tilelab/cpu/runtime_trace.hpp>
#endif

#include <cstdint>

namespace tilelab::runner {

ObservedCall::ObservedCall(const RunnerLab& lab) : lab_(lab) {
    if (lab_.reset_record != nullptr) lab_.reset_record();
#ifdef TILELAB_CPU_BACKEND
    cpu::start_trace();
#endif
}

ObservedCall::~ObservedCall() {
#ifdef TILELAB_CPU_BACKEND
    if (!finished_) cpu::stop_trace(nullptr);
#endif
}

wire::TimedObservation ObservedCall::finish(const float* M, const float* N, const float* P) {
    wire::TimedObservation observation;
#ifdef TILELAB_CPU_BACKEND
    bool truncated = false;
    const std::vector<cpu::TraceEntry> trace = cpu::stop_trace(&truncated);
    observation.has_trace = 1;
    observation.truncated = truncated ? 1 : 0;
    for (const cpu::TraceEntry& entry : trace) {
        wire::TraceStep step{};
        step.kind = static_cast<std::uint8_t>(entry.kind);
        step.address = entry.address, step.source = entry.source, step.bytes = entry.bytes;
        step.detail = entry.detail;
        for (int i = 0; i < 3; ++i) step.grid[i] = entry.grid[i], step.block[i] = entry.block[i];
        step.start_ns = entry.start_ns, step.end_ns = entry.end_ns;
        observation.trace.push_back(step);
    }
#endif
    finished_ = true;
    observation.host_M = reinterpret_cast<std::uintptr_t>(M);
    observation.host_N = reinterpret_cast<std::uintptr_t>(N);
    observation.host_P = reinterpret_cast<std::uintptr_t>(P);
    observation.kernel = reinterpret_cast<std::uintptr_t>(lab_.kernel);
    if (lab_.read_record != nullptr) {
        observation.has_record = 1;
        observation.record = lab_.read_record();
    }
    return observation;
}

}  // namespace tilelab::runner
