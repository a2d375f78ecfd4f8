/// @file request_support.hpp
/// @brief What the runner's requests share (runner_main.cpp, gate_requests.cpp): a request that failed and the
/// reply that says so, device buffers that free themselves, the sizes a request may ask for, and events around a
/// launch. Part of the runner's harness: it links no grader code.
#pragma once

#include <tilelab/wire.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace tilelab::runner {

/// A request that could not be carried out; becomes the reply's status and message.
struct RequestFailed {
    wire::Status status;  ///< What the reply says of the request.
    int code;             ///< The CUDA error, or 0.
    std::string name;     ///< The CUDA error's name, or empty.
    std::string message;  ///< What went wrong, for the checker's report.
};

/// Throws RequestFailed naming @p what and the error when @p code is not cudaSuccess.
void check(cudaError_t code, const std::string& what);

/// Throws RequestFailed: the runner cannot carry out this request, for the reason @p why.
void unsupported(const char* why);

/// The reply's header: status, CUDA error code and name, message, whether the context is lost, and @p fault, where
/// an out-of-bounds access failed the request (wire::FaultSite).
wire::Writer reply(wire::Status status, int code = 0, const std::string& name = "", const std::string& message = "",
                   const wire::FaultSite& fault = {});

/// Appends @p fault to a reply's header, field by field (reply() does).
void put_fault_site(wire::Writer& out, const wire::FaultSite& fault);

/// Device memory that frees itself; its allocation failing is a failed request.
class DeviceFloats {
public:
    /// @p count floats of device memory. Throws RequestFailed when cudaMalloc fails.
    explicit DeviceFloats(std::size_t count) : count_(count) {
        check(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(float)), "cudaMalloc");
    }
    DeviceFloats(const DeviceFloats&) = delete;
    DeviceFloats& operator=(const DeviceFloats&) = delete;
    /// Frees the memory.
    ~DeviceFloats() { static_cast<void>(cudaFree(data_)); }
    /// The device memory.
    float* data() const noexcept { return data_; }
    /// How many floats it holds.
    std::size_t size() const noexcept { return count_; }
    /// Copies @p values (at least size() of them) to the device: upload_all's, for one buffer.
    void upload(const std::vector<float>& values);
    /// Every element, copied back to the host.
    std::vector<float> download() const { return download(0, count_); }
    /// @p count elements from element @p first on.
    std::vector<float> download(std::size_t first, std::size_t count) const;

private:
    float* data_ = nullptr;
    std::size_t count_;
};

/// Each buffer's values (sizes equal), copied to the GPU with one wait for them all: on a GPU that many programs
/// share, each wait lasts until this program's turn comes round, so a request waits as few times as it can.
void upload_all(std::initializer_list<std::pair<DeviceFloats*, const std::vector<float>*>> copies);

/// @p a × @p b, as a count of elements.
inline std::size_t product(int a, int b) { return static_cast<std::size_t>(a) * static_cast<std::size_t>(b); }

/// Throws RequestFailed unless every size lies in 1 .. 2^20.
void check_sizes(int rows, int inner, int cols);

/// The time between two recorded events, once @p stop has completed. Throws RequestFailed when the kernel failed.
float elapsed_ms(cudaEvent_t start, cudaEvent_t stop);

/// Events that destroy themselves.
struct EventPair {
    cudaEvent_t start = nullptr, stop = nullptr;  ///< Made by the constructor.
    /// Makes both events. Throws RequestFailed when it cannot.
    EventPair() {
        check(cudaEventCreate(&start), "cudaEventCreate");
        check(cudaEventCreate(&stop), "cudaEventCreate");
    }
    EventPair(const EventPair&) = delete;
    EventPair& operator=(const EventPair&) = delete;
    /// Destroys both events.
    ~EventPair() {
        static_cast<void>(cudaEventDestroy(start));
        static_cast<void>(cudaEventDestroy(stop));
    }
    /// The milliseconds @p launch took between the events. Throws RequestFailed when the launch failed.
    template <class Launch>
    float time(Launch&& launch) {
        check(cudaEventRecord(start), "cudaEventRecord");
        launch();
        check(cudaEventRecord(stop), "cudaEventRecord");
        check(cudaGetLastError(), "launch failed");
        return elapsed_ms(start, stop);
    }
};

}  // namespace tilelab::runner
