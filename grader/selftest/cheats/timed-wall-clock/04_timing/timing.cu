// Cheat: everything right except the time, taken with the host's clock (std::chrono) around the launch and the
// wait, instead of the events'. It is a plausible number; it is not the kernel's time on a GPU.
// Stopped by: on the CPU backend the events carry the emulator's own device clock, never the host's, and the time
// returned must be the one the events around the kernel measured.
#include <tilelab/cuda_check.hpp>
#include <tilelab/cuda_event.hpp>
#include <tilelab/device_buffer.hpp>
#include <tilelab/labs.hpp>

#include <chrono>
#include <cstddef>

float matmul_timed(const float* M, const float* N, float* P, int rows, int inner, int cols) {
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
    const auto host_start = std::chrono::steady_clock::now();
    start.record();
    matmul_tiled_boundary_kernel<<<grid, block>>>(device_M.data(), device_N.data(), device_P.data(), rows, inner,
                                                  cols);
    stop.record();
    TILELAB_CUDA_CHECK(cudaGetLastError());
    tilelab::elapsed_ms(start, stop);
    const float ms = std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - host_start).count();
    device_P.copy_to_host(P, p_count);
    return ms;
}
