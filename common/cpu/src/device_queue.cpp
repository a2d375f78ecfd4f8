// The CPU backend's stream: launches, event records and asynchronous copies to or from pinned host memory are
// queued and run only when the host waits for them (cudaDeviceSynchronize, cudaStreamSynchronize,
// cudaEventSynchronize, a blocking copy, cudaMemset, cudaFree), as they complete on a GPU only some time after the
// call that queued them. A program that reads an event's time
// without waiting for it gets cudaErrorNotReady here, as it would on a GPU. Events carry the emulated device's
// clock (runtime_trace.hpp), which only the work the stream runs advances.
#include "runtime_state.hpp"

#include <cstdint>
#include <deque>
#include <mutex>
#include <utility>
#include <variant>

struct CUevent_st {
    std::uint64_t time_ns = 0;  // the emulated device's clock when the record ran (runtime_trace.hpp), never the host's
    bool recorded = false;  // cudaEventRecord was called
    bool complete = false;  // the work before the record has run, and so has the record
    int queued = 0;         // records of this event still in the queue
    bool queried = false;   // cudaEventQuery already said "not ready" once for the pending record
    unsigned flags = 0;     // cudaEventCreateWithFlags's: cudaEventDisableTiming means it has no time to give
};

namespace tilelab::cpu::detail {
namespace {

using Work = std::variant<QueuedKernel, cudaEvent_t, QueuedCopy>;
std::recursive_mutex queue_mutex;  // a kernel never queues work, but a fault report may come back here
std::deque<Work> queue;

// Runs the oldest piece of queued work.
void run_front() {
    Work work = std::move(queue.front());
    queue.pop_front();
    if (auto* kernel = std::get_if<QueuedKernel>(&work)) {
        execute_kernel(*kernel);
        trace_kernel(kernel->site.kernel, kernel->grid, kernel->block);
        return;
    }
    if (auto* copy = std::get_if<QueuedCopy>(&work)) {
        // A fault before it in the stream lost the context: the copy never happens, as on a GPU.
        if (sticky_error() == cudaSuccess) copy_now(copy->destination, copy->source, copy->bytes, copy->kind);
        return;
    }
    cudaEvent_t event = std::get<cudaEvent_t>(work);
    event->time_ns = trace_event(event);
    event->complete = --event->queued == 0;
    event->queried = false;
}

}  // namespace

void enqueue_kernel(QueuedKernel kernel) {
    std::lock_guard<std::recursive_mutex> lock(queue_mutex);
    queue.emplace_back(std::move(kernel));
}

void enqueue_copy(QueuedCopy copy) {
    std::lock_guard<std::recursive_mutex> lock(queue_mutex);
    queue.emplace_back(copy);
}

void drain_queue() {
    std::lock_guard<std::recursive_mutex> lock(queue_mutex);
    while (!queue.empty()) run_front();
}

bool queue_is_empty() {
    std::lock_guard<std::recursive_mutex> lock(queue_mutex);
    return queue.empty();
}

void discard_queue() {
    std::lock_guard<std::recursive_mutex> lock(queue_mutex);
    queue.clear();
}

}  // namespace tilelab::cpu::detail

using namespace tilelab::cpu::detail;

cudaError_t cudaEventCreate(cudaEvent_t* event) {
    if (event == nullptr) return cudaErrorInvalidValue;
    *event = new CUevent_st;
    return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
    if ((flags & ~static_cast<unsigned>(cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess)) != 0)
        return record_error(cudaErrorInvalidValue);
    const cudaError_t created = cudaEventCreate(event);
    if (created == cudaSuccess) (*event)->flags = flags;  // blocking sync: the host waits here anyway
    return created;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
    if (event == nullptr) return cudaErrorInvalidResourceHandle;
    std::lock_guard<std::recursive_mutex> lock(queue_mutex);
    if (event->queued > 0) drain_queue();  // CUDA releases it once its work is done; here, once it has run
    delete event;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
    if (event == nullptr) return cudaErrorInvalidResourceHandle;
    std::lock_guard<std::recursive_mutex> lock(queue_mutex);
    event->recorded = true;
    event->complete = false;
    ++event->queued;
    queue.emplace_back(event);
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
    if (event == nullptr) return cudaErrorInvalidResourceHandle;
    {
        std::lock_guard<std::recursive_mutex> lock(queue_mutex);
        while (event->queued > 0 && !queue.empty()) run_front();
    }
    return take_kernel_error();
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
    if (event == nullptr) return cudaErrorInvalidResourceHandle;
    std::lock_guard<std::recursive_mutex> lock(queue_mutex);
    if (!event->recorded || event->complete) return cudaSuccess;
    // Not done yet, as a GPU would say right after the launch; a program that asks again (polling) sees it done.
    if (!event->queried) {
        event->queried = true;
        return cudaErrorNotReady;
    }
    while (event->queued > 0 && !queue.empty()) run_front();
    return cudaSuccess;
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
    if (ms == nullptr) return cudaErrorInvalidValue;
    if (start == nullptr || end == nullptr || !start->recorded || !end->recorded) return cudaErrorInvalidResourceHandle;
    // CUDA: "If either event was created with the cudaEventDisableTiming flag, then this function will return
    // cudaErrorInvalidResourceHandle."
    if (((start->flags | end->flags) & cudaEventDisableTiming) != 0) return record_error(cudaErrorInvalidResourceHandle);
    std::lock_guard<std::recursive_mutex> lock(queue_mutex);
    if (!start->complete || !end->complete) return cudaErrorNotReady;  // not an error CUDA keeps as the last one
    // The emulated device's clock: the durations of the kernels and copies between the two records.
    *ms = static_cast<float>((static_cast<double>(end->time_ns) - static_cast<double>(start->time_ns)) / 1e6);
    return cudaSuccess;
}
