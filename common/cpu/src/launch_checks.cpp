// The CPU backend's launch checks: what CUDA refuses at launch (a block or grid of a wrong size, too much dynamic
// shared memory, a kernel launched from a kernel, a lost context), and a host pointer passed to a kernel, refused
// with what it points to (see tilelab/cpu/emulator.hpp). A launch that passes is queued (device_queue.cpp).
#include "scheduler_state.hpp"

#include <cxxabi.h>
#include <pthread.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tilelab::cpu {
using namespace scheduling;
namespace {

// What CUDA refuses at launch, with the error cudaGetLastError gives for it: too many threads in a block is
// cudaErrorInvalidValue (CUDA 13 on an H100, for a 48 x 48 block, 2026-11-22); a zero or too large dimension,
// cudaErrorInvalidConfiguration.
cudaError_t check_configuration(dim3 grid, dim3 block) {
    const unsigned long long threads = 1ull * block.x * block.y * block.z;
    if (threads == 0 || grid.x == 0 || grid.y == 0 || grid.z == 0) return cudaErrorInvalidConfiguration;
    if (threads > 1024 || block.x > 1024 || block.y > 1024 || block.z > 64) return cudaErrorInvalidValue;
    if (grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535) return cudaErrorInvalidConfiguration;
    return cudaSuccess;
}

}  // namespace

namespace {
std::atomic<LaunchObserver> launch_observer{nullptr};

// Whether the launch runs: the observer (observe_launches), if any, has seen it and did not hold it back.
bool observed_launch_runs(const LaunchSite& site, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes) {
    const LaunchObserver observer = launch_observer.load();
    return observer == nullptr || observer(LaunchRequest{site.kernel, grid, block, dynamic_shared_bytes});
}
}  // namespace

void observe_launches(LaunchObserver observer) noexcept { launch_observer.store(observer); }

void run_kernel(const LaunchSite& site, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes,
                std::function<void()> thread_body) {
    if (!observed_launch_runs(site, grid, block, dynamic_shared_bytes)) return;
    if (const cudaError_t refused = check_configuration(grid, block); refused != cudaSuccess) {
        detail::record_error(refused);
        return;
    }
    if (dynamic_shared_bytes > detail::max_dynamic_shared_bytes_of(site.kernel)) {
        detail::record_error(cudaErrorInvalidValue);  // past 48 KB without cudaFuncSetAttribute, as on a GPU
        return;
    }
    if (running_worker != nullptr) throw std::logic_error("a kernel launched another kernel: not supported");
    if (const cudaError_t lost = detail::sticky_error(); lost != cudaSuccess) {
        detail::record_error(lost);  // the context is lost: nothing runs in it any more
        return;
    }
    detail::enqueue_kernel(detail::QueuedKernel{site, grid, block, dynamic_shared_bytes, std::move(thread_body)});
}

bool points_to_device_memory(const void* pointer) noexcept {
    try {
        return detail::is_device_pointer(pointer);
    } catch (...) {
        return false;  // the registry's lock failed: the launch is refused rather than run on unknown memory
    }
}

namespace {

// "the stack of the host thread", "host memory ...": what a pointer that is not device memory most likely is.
const char* host_memory_kind(const void* pointer) {
    pthread_attr_t attributes;
    void* stack = nullptr;
    std::size_t stack_bytes = 0;
    bool on_stack = false;
    if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
        if (pthread_attr_getstack(&attributes, &stack, &stack_bytes) == 0)
            on_stack = pointer >= stack && pointer < static_cast<const char*>(stack) + stack_bytes;
        pthread_attr_destroy(&attributes);
    }
    return on_stack ? "a local variable on the host's stack"
                    : "host memory (a host array: new, malloc, a std::vector, a global) or no memory at all";
}

std::string type_name(const char* mangled) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> readable(abi::__cxa_demangle(mangled, nullptr, nullptr, &status), std::free);
    return status == 0 && readable ? readable.get() : mangled;
}

// Argument @p index of the argument list @p arguments as written ("d_M, d_N + 1, f(a, b)"), split at the commas
// outside brackets; empty when it cannot be told.
std::string written_argument(const char* arguments, std::size_t index) {
    if (arguments == nullptr) return {};
    std::vector<std::string> pieces(1);
    int depth = 0;
    for (const char* c = arguments; *c != '\0'; ++c) {
        if (*c == '(' || *c == '[' || *c == '{') ++depth;
        if (*c == ')' || *c == ']' || *c == '}') --depth;
        if (*c == ',' && depth == 0) {
            pieces.emplace_back();
            continue;
        }
        if (!(pieces.back().empty() && *c == ' ')) pieces.back() += *c;
    }
    while (!pieces.back().empty() && pieces.back().back() == ' ') pieces.back().pop_back();
    return index < pieces.size() ? pieces[index] : std::string();
}

}  // namespace

void refuse_host_pointer(const LaunchSite& site, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes,
                         std::size_t index, std::size_t count, const char* mangled_type, const void* pointer,
                         const char* arguments) {
    if (!observed_launch_runs(site, grid, block, dynamic_shared_bytes)) return;
    if (const cudaError_t refused = check_configuration(grid, block); refused != cudaSuccess) {
        detail::record_error(refused);  // a launch CUDA refuses is refused for that first, as run_kernel does
        return;
    }
    if (dynamic_shared_bytes > detail::max_dynamic_shared_bytes_of(site.kernel)) {
        detail::record_error(cudaErrorInvalidValue);  // past 48 KB without cudaFuncSetAttribute, as on a GPU
        return;
    }
    char address[32];
    std::snprintf(address, sizeof address, "%p", pointer);
    std::ostringstream message;
    message << "illegal memory access in the kernel " << site.kernel_name << " launched at "
            << where(site.file, site.line) << ": its argument " << index + 1 << " of " << count << " (";
    if (const std::string written = written_argument(arguments, index); !written.empty()) message << written << ", ";
    message << "a " << type_name(mangled_type) << ") is " << address << ", which is " << host_memory_kind(pointer)
            << ", not device memory from cudaMalloc (cudaErrorIllegalAddress: an illegal memory access was "
               "encountered; a GPU faults at the kernel's first access through it). The kernel did not run.\n"
               "  hint: a kernel can reach only device memory: cudaMalloc a buffer for each matrix, cudaMemcpy the "
               "host data into it (cudaMemcpyHostToDevice), pass the device pointers to the kernel, and cudaMemcpy "
               "the result back (cudaMemcpyDeviceToHost)";
    detail::set_kernel_error(cudaErrorIllegalAddress, message.str());
}

}  // namespace tilelab::cpu
