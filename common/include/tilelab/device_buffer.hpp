/// @file device_buffer.hpp
/// @brief DeviceBuffer: device memory that frees itself.
#pragma once

#include "tilelab/cuda_check.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

namespace tilelab {

/// An array of @p T in device memory, allocated with cudaMalloc and freed when the buffer goes away.
/// Move-only, so that exactly one owner frees it.
template <typename T>
class DeviceBuffer {
public:
    /// An empty buffer that owns nothing.
    DeviceBuffer() = default;

    /// Allocates room for @p count elements (uninitialised). Throws CudaError when the allocation fails.
    explicit DeviceBuffer(std::size_t count) : count_(count) {
        if (count_ > 0) TILELAB_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), count_ * sizeof(T)));
    }

    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    /// Takes over @p other's memory, leaving it empty.
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}

    /// Frees this buffer's memory, then takes over @p other's.
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        if (this != &other) {
            release();
            data_ = std::exchange(other.data_, nullptr);
            count_ = std::exchange(other.count_, 0);
        }
        return *this;
    }

    /// Frees the memory. An error here is ignored: after a kernel fault every call fails, and the
    /// fault itself has already been reported where it happened.
    ~DeviceBuffer() { release(); }

    /// The device pointer (nullptr when empty).
    T* data() const noexcept { return data_; }
    /// Number of elements.
    std::size_t size() const noexcept { return count_; }

    /// Copies @p count elements from host memory at @p source to the start of the buffer.
    void copy_from_host(const T* source, std::size_t count) {
        TILELAB_CUDA_CHECK(cudaMemcpy(data_, source, count * sizeof(T), cudaMemcpyHostToDevice));
    }

    /// Copies @p count elements from the start of the buffer to host memory at @p destination.
    void copy_to_host(T* destination, std::size_t count) const {
        TILELAB_CUDA_CHECK(cudaMemcpy(destination, data_, count * sizeof(T), cudaMemcpyDeviceToHost));
    }

private:
    void release() noexcept {
        if (data_ != nullptr) static_cast<void>(cudaFree(data_));
        data_ = nullptr;
        count_ = 0;
    }

    T* data_ = nullptr;
    std::size_t count_ = 0;
};

}  // namespace tilelab
