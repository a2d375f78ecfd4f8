// Streams, asynchronous copies and memsets, pinned, managed and stream-ordered memory on the CPU backend
// (cuda_runtime_api.h). All streams share the one queue of device_queue.cpp, which runs work in the order it was
// issued: a legal schedule of CUDA's streams, with every cross-stream dependency (cudaStreamWaitEvent) met.
// Asynchronous copies and memsets check their pointers as cudaMemcpy and cudaMemset do. A copy between device
// memory and pinned or managed host memory is queued and lands when the host next waits for the stream (a GPU
// copies it by DMA some time after the call): a host that reads its destination, or rewrites its source, before
// synchronising sees what it would on a GPU. Other copies (pageable host memory, which CUDA stages before the
// call returns; device to device) and memsets are done at once, after the work issued before them: no host code
// can tell the difference.
#include "runtime_state.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>

struct CUstream_st {
    unsigned flags = 0;
    bool queried = false;  // cudaStreamQuery said "not ready" once for the work queued now
};

namespace {

std::mutex registry_mutex;
std::set<cudaStream_t>& streams() {
    static std::set<cudaStream_t> live;
    return live;
}
// A pinned (cudaMallocHost, cudaHostAlloc) or managed (cudaMallocManaged) allocation.
struct HostAllocation {
    std::size_t bytes;
    bool managed;  // counted in the device's memory (reserve_device_bytes)
};
std::map<void*, HostAllocation>& host_allocations() {
    static std::map<void*, HostAllocation> live;
    return live;
}

// The default stream (0), the legacy and per-thread handles, and streams created and not yet destroyed.
bool is_stream(cudaStream_t stream) {
    if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread) return true;
    std::lock_guard<std::mutex> lock(registry_mutex);
    return streams().count(stream) != 0;
}

// Page-aligned host memory, as pinned memory is.
void* allocate_host(std::size_t bytes, bool managed) {
    const std::size_t page = tilelab::cpu::detail::page_bytes();
    if (bytes > SIZE_MAX - page) return nullptr;
    void* pointer = std::aligned_alloc(page, (bytes + page - 1) / page * page);
    if (pointer == nullptr) return nullptr;
    std::lock_guard<std::mutex> lock(registry_mutex);
    host_allocations().emplace(pointer, HostAllocation{bytes, managed});
    return pointer;
}

}  // namespace

namespace tilelab::cpu::detail {

bool is_kernel_reachable_host_memory(const void* pointer) {
    std::lock_guard<std::mutex> lock(registry_mutex);
    const auto* byte = static_cast<const unsigned char*>(pointer);
    auto after = host_allocations().upper_bound(const_cast<void*>(pointer));
    if (after == host_allocations().begin()) return false;
    const auto& [start, allocation] = *std::prev(after);
    return byte >= static_cast<const unsigned char*>(start) &&
           byte < static_cast<const unsigned char*>(start) + allocation.bytes;
}

bool is_kernel_reachable_host_range(const void* pointer, std::size_t bytes) {
    std::lock_guard<std::mutex> lock(registry_mutex);
    const auto* byte = static_cast<const unsigned char*>(pointer);
    auto after = host_allocations().upper_bound(const_cast<void*>(pointer));
    if (after == host_allocations().begin()) return false;
    const auto& [start, allocation] = *std::prev(after);
    const auto* first = static_cast<const unsigned char*>(start);
    return byte >= first && bytes <= allocation.bytes && byte - first <= static_cast<std::ptrdiff_t>(allocation.bytes - bytes);
}

}  // namespace tilelab::cpu::detail

using namespace tilelab::cpu::detail;

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
    if (stream == nullptr || (flags & ~static_cast<unsigned>(cudaStreamNonBlocking)) != 0)
        return record_error(cudaErrorInvalidValue);
    *stream = new CUstream_st{flags, false};
    std::lock_guard<std::mutex> lock(registry_mutex);
    streams().insert(*stream);
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int) {
    return cudaStreamCreateWithFlags(stream, flags);
}

cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
    if (least != nullptr) *least = 0;
    if (greatest != nullptr) *greatest = -5;  // an H100's range
    return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread)
        return record_error(cudaErrorInvalidResourceHandle);
    {
        std::lock_guard<std::mutex> lock(registry_mutex);
        if (streams().erase(stream) == 0) return record_error(cudaErrorInvalidResourceHandle);
    }
    drain_queue();  // CUDA lets the stream's work finish, then releases it
    delete stream;
    return cudaSuccess;
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
    if (!is_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
    if (queue_is_empty()) return cudaSuccess;
    // Not done yet, as a GPU says right after a launch; a program that asks again (polling) sees it done.
    static CUstream_st default_stream;
    CUstream_st* state = (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread)
                             ? &default_stream
                             : stream;
    if (!state->queried) {
        state->queried = true;
        return cudaErrorNotReady;
    }
    state->queried = false;
    drain_queue();
    return take_kernel_error();
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
    if (!is_stream(stream) || event == nullptr) return record_error(cudaErrorInvalidResourceHandle);
    if (flags != 0 && flags != 1) return record_error(cudaErrorInvalidValue);
    return cudaSuccess;  // one queue in issue order: the event's work runs before anything issued after this call
}

cudaError_t cudaMemcpyAsync(void* destination, const void* source, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream) {
    if (!is_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
    const bool pinned = (kind == cudaMemcpyDeviceToHost && is_kernel_reachable_host_memory(destination)) ||
                        (kind == cudaMemcpyHostToDevice && is_kernel_reachable_host_memory(source));
    if (!pinned) return cudaMemcpy(destination, source, bytes, kind);
    if (const cudaError_t lost = sticky_error(); lost != cudaSuccess) return record_error(lost);
    if (bytes == 0) return cudaSuccess;
    if (const cudaError_t refused = check_copy(destination, source, bytes, kind); refused != cudaSuccess)
        return record_error(refused);
    enqueue_copy(QueuedCopy{destination, source, bytes, kind});
    return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void* pointer, int value, std::size_t bytes, cudaStream_t stream) {
    if (!is_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
    return cudaMemset(pointer, value, bytes);
}

cudaError_t cudaMemcpy2D(void* destination, std::size_t destination_pitch, const void* source, std::size_t source_pitch,
                         std::size_t width, std::size_t height, cudaMemcpyKind kind) {
    if (width > destination_pitch || width > source_pitch) return record_error(cudaErrorInvalidValue);
    for (std::size_t row = 0; row < height; ++row) {
        const cudaError_t code = cudaMemcpy(static_cast<unsigned char*>(destination) + row * destination_pitch,
                                            static_cast<const unsigned char*>(source) + row * source_pitch, width, kind);
        if (code != cudaSuccess) return code;
    }
    return cudaSuccess;
}

cudaError_t cudaMemcpy2DAsync(void* destination, std::size_t destination_pitch, const void* source,
                              std::size_t source_pitch, std::size_t width, std::size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream) {
    if (!is_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
    return cudaMemcpy2D(destination, destination_pitch, source, source_pitch, width, height, kind);
}

cudaError_t cudaHostAlloc(void** pointer, std::size_t bytes, unsigned int flags) {
    if (pointer == nullptr || (flags & ~0xFu) != 0) return record_error(cudaErrorInvalidValue);
    *pointer = bytes == 0 ? nullptr : allocate_host(bytes, false);
    if (bytes != 0) trace_allocation(*pointer, bytes, tilelab::cpu::TraceEntry::Kind::host_allocation);
    if (bytes != 0 && *pointer == nullptr) return record_error(cudaErrorMemoryAllocation);
    return cudaSuccess;
}

cudaError_t cudaMallocHost(void** pointer, std::size_t bytes) { return cudaHostAlloc(pointer, bytes, cudaHostAllocDefault); }

cudaError_t cudaFreeHost(void* pointer) {
    if (pointer == nullptr) return cudaSuccess;
    return free_host_allocation(pointer) ? cudaSuccess : record_error(cudaErrorInvalidValue);
}

cudaError_t cudaHostRegister(void* pointer, std::size_t bytes, unsigned int) {
    return pointer == nullptr || bytes == 0 ? record_error(cudaErrorInvalidValue) : cudaSuccess;
}

cudaError_t cudaHostUnregister(void* pointer) {
    return pointer == nullptr ? record_error(cudaErrorInvalidValue) : cudaSuccess;
}

cudaError_t cudaMallocManaged(void** pointer, std::size_t bytes, unsigned int flags) {
    if (pointer == nullptr || bytes == 0 || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
        return record_error(cudaErrorInvalidValue);
    *pointer = nullptr;
    // The device's memory backs it once kernels use it: it fails as cudaMalloc does (the runner's made-to-fail
    // allocation, the device's size) and cudaMemGetInfo counts it, so a leak of it shows as one of cudaMalloc's.
    cudaError_t result = reserve_device_bytes(bytes);
    if (result == cudaSuccess) {
        *pointer = allocate_host(bytes, true);  // host and kernels both reach it, as managed memory
        if (*pointer == nullptr) {
            release_device_bytes(bytes);
            result = record_error(cudaErrorMemoryAllocation);
        }
    }
    trace_allocation(*pointer, bytes, tilelab::cpu::TraceEntry::Kind::managed_allocation);
    return result;
}

cudaError_t cudaMemPrefetchAsync(const void*, std::size_t, int, cudaStream_t stream) {
    return is_stream(stream) ? cudaSuccess : record_error(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaMemPrefetchAsync(const void*, std::size_t, cudaMemLocation location, unsigned int flags,
                                 cudaStream_t stream) {
    if (!is_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
    // CUDA: flags must be 0; a device location names device 0, the only one here; the host is any id.
    const bool device_ok = location.type == cudaMemLocationTypeDevice && location.id == 0;
    const bool host_ok = location.type == cudaMemLocationTypeHost || location.type == cudaMemLocationTypeHostNuma ||
                         location.type == cudaMemLocationTypeHostNumaCurrent;
    if (flags != 0 || !(device_ok || host_ok)) return record_error(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t cudaMallocAsync(void** pointer, std::size_t bytes, cudaStream_t stream) {
    if (!is_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
    return cudaMalloc(pointer, bytes);
}

cudaError_t cudaFreeAsync(void* pointer, cudaStream_t stream) {
    if (!is_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
    return cudaFree(pointer);  // waits for the work issued before it, so none runs on freed memory
}

namespace tilelab::cpu::detail {

bool free_host_allocation(void* pointer) {
    drain_queue();  // as cudaFree, it waits for the device
    HostAllocation allocation{};
    {
        std::lock_guard<std::mutex> lock(registry_mutex);
        const auto found = host_allocations().find(pointer);
        if (found == host_allocations().end()) return false;
        allocation = found->second;
        host_allocations().erase(found);
    }
    trace_release(pointer);
    if (allocation.managed) release_device_bytes(allocation.bytes);
    std::free(pointer);
    return true;
}

}  // namespace tilelab::cpu::detail
