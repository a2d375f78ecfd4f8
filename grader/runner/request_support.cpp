// What the runner's requests share (request_support.hpp).
#include "request_support.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace tilelab::runner {

using namespace tilelab::wire;

namespace {

// Launch errors (a bad grid or block) leave the context usable; a fault inside a kernel does not.
bool is_sticky(cudaError_t code) {
    return code != cudaErrorInvalidConfiguration && code != cudaErrorInvalidValue &&
           code != cudaErrorLaunchOutOfResources && code != cudaErrorNoKernelImageForDevice &&
           code != cudaErrorMemoryAllocation && code != cudaErrorNotReady;
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

}  // namespace

void check(cudaError_t code, const std::string& what) {
    if (code == cudaSuccess) return;
    throw RequestFailed{Status::cuda_error, static_cast<int>(code), cudaGetErrorName(code),
                        what + ": " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")"};
}

void unsupported(const char* why) { throw RequestFailed{Status::unsupported, 0, "", why}; }

void put_fault_site(Writer& out, const FaultSite& fault) {
    out.put(fault.access).put(fault.matrix).put(fault.host_code).put(fault.element);
}

// The reply's header: status, CUDA error code and name, message, whether the context is lost, and the fault's site.
Writer reply(Status status, int code, const std::string& name, const std::string& message, const FaultSite& fault) {
    Writer out;
    out.put(status).put<std::int32_t>(code).put_string(name).put_string(message);
    out.put<std::uint8_t>(status == Status::cuda_error && is_sticky(static_cast<cudaError_t>(code)) ? 1 : 0);
    put_fault_site(out, fault);
    return out;
}

std::vector<float> DeviceFloats::download(std::size_t first, std::size_t count) const {
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

void check_sizes(int rows, int inner, int cols) {
    if (rows <= 0 || inner <= 0 || cols <= 0 || rows > (1 << 20) || inner > (1 << 20) || cols > (1 << 20))
        unsupported("sizes out of range");
}

float elapsed_ms(cudaEvent_t start, cudaEvent_t stop) {
    check(cudaEventSynchronize(stop), "kernel failed");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    return ms;
}

}  // namespace tilelab::runner
