// The record of the launcher's launches of a lab's kernel (launch_record.hpp), and how each backend shows the
// runner a launch: the CPU backend's emulator calls an observer; on a GPU the runner's link wraps CUDA's launch
// functions (--wrap, cmake/TileLabRunner.cmake), so that every launch in the lab's code, <<< >>> as nvcc writes
// it or cudaLaunchKernel(Ex) as the student does, passes here before it reaches CUDA.
#include "launch_record.hpp"

#include <cuda_runtime_api.h>
#ifdef TILELAB_CPU_BACKEND
#include <tilelab/cpu/emulator.hpp>
#endif

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using Shape = std::tuple<int, int, int>;

// The call of the launcher being recorded, if any: its kernel (null: none, every launch runs unseen), whether the
// kernel's launches are held back, and what they asked for so far.
struct Recording {
    const void* kernel = nullptr;
    bool held_back = false;
    std::size_t dynamic_shared_bytes = 0;
};

std::mutex record_mutex;
Recording recording;
std::map<Shape, std::size_t> recorded;  // per shape, the dynamic shared memory of the launcher's last call on it

// Calls the launcher with its launches of @p kernel noted (held back when @p hold_back), and records them for the
// shape, even when the launcher throws.
void record_call(tilelab::runner::Launcher launcher, const void* kernel, const float* M, const float* N, float* P,
                 int rows, int inner, int cols, bool hold_back) {
    {
        const std::lock_guard<std::mutex> lock(record_mutex);
        recording = Recording{kernel, hold_back, 0};
    }
    struct Store {
        Shape shape;
        ~Store() {
            const std::lock_guard<std::mutex> lock(record_mutex);
            recorded[shape] = recording.dynamic_shared_bytes;
            recording = Recording{};
        }
    } store{Shape{rows, inner, cols}};
    launcher(M, N, P, rows, inner, cols);
}

// Zeroed device memory for @p count floats that frees itself; data() is null when it could not be had.
class Scratch {
public:
    explicit Scratch(std::size_t count) {
        if (cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(float)) != cudaSuccess ||
            cudaMemset(data_, 0, count * sizeof(float)) != cudaSuccess) {
            static_cast<void>(cudaFree(data_));
            data_ = nullptr;
        }
    }
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
    ~Scratch() {
        if (data_ != nullptr) static_cast<void>(cudaFree(data_));
    }
    float* data() const noexcept { return data_; }

private:
    float* data_ = nullptr;
};

std::size_t product(int a, int b) { return static_cast<std::size_t>(a) * static_cast<std::size_t>(b); }

}  // namespace

namespace tilelab::runner {

bool note_launch(const void* kernel, std::size_t dynamic_shared_bytes) {
    const std::lock_guard<std::mutex> lock(record_mutex);
    if (recording.kernel == nullptr || kernel != recording.kernel) return true;
    recording.dynamic_shared_bytes = std::max(recording.dynamic_shared_bytes, dynamic_shared_bytes);
    return !recording.held_back;
}

void call_recording(Launcher launcher, const void* kernel, const float* M, const float* N, float* P, int rows,
                    int inner, int cols) {
    record_call(launcher, kernel, M, N, P, rows, inner, cols, false);
}

std::size_t launcher_dynamic_shared_bytes(Launcher launcher, const void* kernel, int rows, int inner, int cols) {
    const Shape shape{rows, inner, cols};
    {
        const std::lock_guard<std::mutex> lock(record_mutex);
        if (const auto found = recorded.find(shape); found != recorded.end()) return found->second;
    }
    {
        // Operands of the kit's own, not the kit's launch's: a launcher that computed P itself and left it in
        // device memory for the kernel to copy has only these zeros to leave.
        const Scratch M(product(rows, inner)), N(product(inner, cols)), P(product(rows, cols));
        if (M.data() == nullptr || N.data() == nullptr || P.data() == nullptr) {
            static_cast<void>(cudaGetLastError());
            return 0;
        }
        try {
            record_call(launcher, kernel, M.data(), N.data(), P.data(), rows, inner, cols, true);
        } catch (...) {
            // The launcher's own calls say what is wrong with it; this call only learns what it launches.
        }
        static_cast<void>(cudaDeviceSynchronize());  // whatever else it launched is done before its buffers go
    }
    static_cast<void>(cudaGetLastError());
    const std::lock_guard<std::mutex> lock(record_mutex);
    return recorded[shape];
}

}  // namespace tilelab::runner

#ifdef TILELAB_CPU_BACKEND

namespace {
bool observe(const tilelab::cpu::LaunchRequest& request) {
    return tilelab::runner::note_launch(request.kernel, request.dynamic_shared_bytes);
}
// Installed as the runner starts, before any lab code runs.
[[maybe_unused]] const bool observing = (tilelab::cpu::observe_launches(&observe), true);
}  // namespace

#else

// The wrapped functions: with --wrap=<name>, the lab's calls of <name> reach __wrap_<name>, and __real_<name> is
// CUDA's own. nvcc's <<< >>> calls __cudaLaunchKernel with a handle that __cudaGetKernel gave the launch's stub for
// its kernel (CUDA 13; cudaLaunchKernel before); cudaLaunchKernelEx calls cudaLaunchKernelExC; *_ptsz are the same
// with a per-thread default stream. Weak: a CUDA runtime without one of them (an older one) leaves it null, and then
// nothing calls its wrapper either.
struct CUkern_st;
extern "C" {
cudaError_t __real_cudaLaunchKernel(const void*, dim3, dim3, void**, std::size_t, cudaStream_t) __attribute__((weak));
cudaError_t __real_cudaLaunchKernel_ptsz(const void*, dim3, dim3, void**, std::size_t, cudaStream_t)
    __attribute__((weak));
cudaError_t __real_cudaLaunchKernelExC(const cudaLaunchConfig_t*, const void*, void**) __attribute__((weak));
cudaError_t __real_cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t*, const void*, void**) __attribute__((weak));
cudaError_t __real___cudaGetKernel(CUkern_st**, const void*) __attribute__((weak));
cudaError_t __real___cudaLaunchKernel(CUkern_st*, dim3, dim3, void**, std::size_t, cudaStream_t)
    __attribute__((weak));
cudaError_t __real___cudaLaunchKernel_ptsz(CUkern_st*, dim3, dim3, void**, std::size_t, cudaStream_t)
    __attribute__((weak));
}

namespace {
std::mutex handles_mutex;
std::vector<std::pair<CUkern_st*, const void*>> handles;  // each launch stub's handle and its kernel

const void* kernel_of(CUkern_st* handle) {
    const std::lock_guard<std::mutex> lock(handles_mutex);
    for (const auto& [known, kernel] : handles)
        if (known == handle) return kernel;
    return nullptr;
}

cudaError_t missing() { return cudaErrorNotSupported; }  // a wrapper whose function this runtime lacks
}  // namespace

extern "C" {
cudaError_t __wrap___cudaGetKernel(CUkern_st** handle, const void* kernel) {
    if (__real___cudaGetKernel == nullptr) return missing();
    const cudaError_t result = __real___cudaGetKernel(handle, kernel);
    if (result == cudaSuccess && handle != nullptr && kernel_of(*handle) == nullptr) {
        const std::lock_guard<std::mutex> lock(handles_mutex);
        handles.emplace_back(*handle, kernel);
    }
    return result;
}

cudaError_t __wrap___cudaLaunchKernel(CUkern_st* handle, dim3 grid, dim3 block, void** arguments,
                                      std::size_t shared, cudaStream_t stream) {
    if (!tilelab::runner::note_launch(kernel_of(handle), shared)) return cudaSuccess;
    if (__real___cudaLaunchKernel == nullptr) return missing();
    return __real___cudaLaunchKernel(handle, grid, block, arguments, shared, stream);
}

cudaError_t __wrap___cudaLaunchKernel_ptsz(CUkern_st* handle, dim3 grid, dim3 block, void** arguments,
                                           std::size_t shared, cudaStream_t stream) {
    if (!tilelab::runner::note_launch(kernel_of(handle), shared)) return cudaSuccess;
    if (__real___cudaLaunchKernel_ptsz == nullptr) return missing();
    return __real___cudaLaunchKernel_ptsz(handle, grid, block, arguments, shared, stream);
}

cudaError_t __wrap_cudaLaunchKernel(const void* kernel, dim3 grid, dim3 block, void** arguments, std::size_t shared,
                                    cudaStream_t stream) {
    if (!tilelab::runner::note_launch(kernel, shared)) return cudaSuccess;
    if (__real_cudaLaunchKernel == nullptr) return missing();
    return __real_cudaLaunchKernel(kernel, grid, block, arguments, shared, stream);
}

cudaError_t __wrap_cudaLaunchKernel_ptsz(const void* kernel, dim3 grid, dim3 block, void** arguments,
                                         std::size_t shared, cudaStream_t stream) {
    if (!tilelab::runner::note_launch(kernel, shared)) return cudaSuccess;
    if (__real_cudaLaunchKernel_ptsz == nullptr) return missing();
    return __real_cudaLaunchKernel_ptsz(kernel, grid, block, arguments, shared, stream);
}

cudaError_t __wrap_cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* kernel, void** arguments) {
    if (config != nullptr && !tilelab::runner::note_launch(kernel, config->dynamicSmemBytes)) return cudaSuccess;
    if (__real_cudaLaunchKernelExC == nullptr) return missing();
    return __real_cudaLaunchKernelExC(config, kernel, arguments);
}

cudaError_t __wrap_cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config, const void* kernel, void** arguments) {
    if (config != nullptr && !tilelab::runner::note_launch(kernel, config->dynamicSmemBytes)) return cudaSuccess;
    if (__real_cudaLaunchKernelExC_ptsz == nullptr) return missing();
    return __real_cudaLaunchKernelExC_ptsz(config, kernel, arguments);
}
}  // extern "C"

#endif
