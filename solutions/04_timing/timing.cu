/// @file solutions/04_timing/timing.cu
/// @brief Lab 04 model answer: the host code around a kernel, timed with CUDA events.
#include <tilelab/cuda_check.hpp>
#include <tilelab/cuda_event.hpp>
#include <tilelab/device_buffer.hpp>
#include <tilelab/labs.hpp>

/// Allocates, copies in, launches and times matmul_tiled_boundary_kernel, copies P back; the buffers free
/// the device memory when they go out of scope, on the error path too.
float matmul_timed(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // Sizes in size_t: rows * inner overflows int long before the GPU runs out of memory.
    const std::size_t m_count = static_cast<std::size_t>(rows) * inner;
    const std::size_t n_count = static_cast<std::size_t>(inner) * cols;
    const std::size_t p_count = static_cast<std::size_t>(rows) * cols;

    tilelab::DeviceBuffer<float> device_M(m_count);
    tilelab::DeviceBuffer<float> device_N(n_count);
    tilelab::DeviceBuffer<float> device_P(p_count);
    device_M.copy_from_host(M, m_count);
    device_N.copy_from_host(N, n_count);

    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);

    tilelab::CudaEvent start;
    tilelab::CudaEvent stop;
    start.record();
    matmul_tiled_boundary_kernel<<<grid, block>>>(device_M.data(), device_N.data(), device_P.data(), rows, inner,
                                                  cols);
    stop.record();
    TILELAB_CUDA_CHECK(cudaGetLastError());          // a launch the runtime refused
    const float ms = tilelab::elapsed_ms(start, stop);  // waits for the kernel; a fault inside it shows here

    device_P.copy_to_host(P, p_count);
    return ms;
}
