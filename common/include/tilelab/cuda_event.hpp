/// @file cuda_event.hpp
/// @brief CudaEvent: a CUDA event that destroys itself, and the time between two of them.
#pragma once

#include "tilelab/cuda_check.hpp"

#include <cuda_runtime_api.h>

#include <utility>

namespace tilelab {

/// A CUDA event (cudaEventCreate in the constructor, cudaEventDestroy in the destructor). Move-only.
class CudaEvent {
public:
    /// Creates the event. Throws CudaError when that fails.
    CudaEvent() { TILELAB_CUDA_CHECK(cudaEventCreate(&event_)); }
    CudaEvent(const CudaEvent&) = delete;
    CudaEvent& operator=(const CudaEvent&) = delete;
    /// Takes over @p other's event.
    CudaEvent(CudaEvent&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
    /// Destroys this event, then takes over @p other's.
    CudaEvent& operator=(CudaEvent&& other) noexcept {
        if (this != &other) {
            if (event_ != nullptr) static_cast<void>(cudaEventDestroy(event_));
            event_ = std::exchange(other.event_, nullptr);
        }
        return *this;
    }
    /// Destroys the event (errors ignored, as in DeviceBuffer's destructor).
    ~CudaEvent() {
        if (event_ != nullptr) static_cast<void>(cudaEventDestroy(event_));
    }

    /// Records the event in the default stream.
    void record() { TILELAB_CUDA_CHECK(cudaEventRecord(event_)); }
    /// The underlying cudaEvent_t.
    cudaEvent_t get() const noexcept { return event_; }

private:
    cudaEvent_t event_ = nullptr;
};

/// Waits for @p stop, then returns the milliseconds between @p start and @p stop.
float elapsed_ms(const CudaEvent& start, const CudaEvent& stop);

}  // namespace tilelab
