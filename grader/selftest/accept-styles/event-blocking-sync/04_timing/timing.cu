/// @file grader/selftest/accept-styles/event-blocking-sync/04_timing/timing.cu
/// @brief Lab 04 with blocking-sync events and RAII through std::unique_ptr (style: the CUDA C++ Best Practices
/// Guide's "Using CUDA GPU Timers" with the events created as the CUDA Samples' simpleStreams creates them,
/// cudaEventCreateWithFlags(&e, cudaEventBlockingSync), so that cudaEventSynchronize sleeps instead of spinning;
/// cudaMemcpyAsync on the default stream 0 and cudaStreamSynchronize(0) before P is read; every device buffer and
/// event owned by a std::unique_ptr whose deleter is cudaFree or cudaEventDestroy, the usual modern-C++ wrapping
/// of the runtime API, so that a throw on any line frees what was taken).
#include <tilelab/cuda_check.hpp>
#include <tilelab/labs.hpp>

#include <cstddef>
#include <memory>
#include <type_traits>

namespace {
using device_ptr = std::unique_ptr<float, decltype(&cudaFree)>;
using event_ptr = std::unique_ptr<std::remove_pointer_t<cudaEvent_t>, decltype(&cudaEventDestroy)>;

/// cudaMalloc into a unique_ptr: the buffer is freed when the pointer goes out of scope, thrown past or not.
device_ptr make_device(std::size_t count) {
    void* raw = nullptr;
    TILELAB_CUDA_CHECK(cudaMalloc(&raw, count * sizeof(float)));
    return device_ptr(static_cast<float*>(raw), &cudaFree);
}

/// A blocking-sync event in a unique_ptr.
event_ptr make_event() {
    cudaEvent_t e = nullptr;
    TILELAB_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventBlockingSync));
    return event_ptr(e, &cudaEventDestroy);
}
}  // namespace

float matmul_timed(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const std::size_t m_count = static_cast<std::size_t>(rows) * inner;
    const std::size_t n_count = static_cast<std::size_t>(inner) * cols;
    const std::size_t p_count = static_cast<std::size_t>(rows) * cols;

    device_ptr d_M = make_device(m_count);
    device_ptr d_N = make_device(n_count);
    device_ptr d_P = make_device(p_count);
    event_ptr start = make_event();
    event_ptr stop = make_event();

    TILELAB_CUDA_CHECK(cudaMemcpyAsync(d_M.get(), M, m_count * sizeof(float), cudaMemcpyHostToDevice, 0));
    TILELAB_CUDA_CHECK(cudaMemcpyAsync(d_N.get(), N, n_count * sizeof(float), cudaMemcpyHostToDevice, 0));

    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    TILELAB_CUDA_CHECK(cudaEventRecord(start.get(), 0));
    matmul_tiled_boundary_kernel<<<grid, block>>>(d_M.get(), d_N.get(), d_P.get(), rows, inner, cols);
    TILELAB_CUDA_CHECK(cudaGetLastError());
    TILELAB_CUDA_CHECK(cudaEventRecord(stop.get(), 0));

    TILELAB_CUDA_CHECK(cudaEventSynchronize(stop.get()));  // blocks the host thread until the kernel is done
    float ms = 0.0f;
    TILELAB_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));

    TILELAB_CUDA_CHECK(cudaMemcpyAsync(P, d_P.get(), p_count * sizeof(float), cudaMemcpyDeviceToHost, 0));
    TILELAB_CUDA_CHECK(cudaStreamSynchronize(0));  // P has landed before the host reads it
    return ms;
}
