// Cheat: everything right (device memory, copies, the launch between two events, P copied back) except the time
// it returns: a constant instead of the events' elapsed time. Where the CPU backend skipped the clock check and
// asked only for a positive time, this earned full marks there.
// Stopped by: on the CPU backend the events carry the emulator's own device clock, and the time returned must be
// the one the events around the kernel measured ("... but its events around the kernel measured ...").
#include <tilelab/cuda_check.hpp>
#include <tilelab/cuda_event.hpp>
#include <tilelab/device_buffer.hpp>
#include <tilelab/labs.hpp>

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
    start.record();
    matmul_tiled_boundary_kernel<<<grid, block>>>(device_M.data(), device_N.data(), device_P.data(), rows, inner,
                                                  cols);
    stop.record();
    TILELAB_CUDA_CHECK(cudaGetLastError());
    tilelab::elapsed_ms(start, stop);
    device_P.copy_to_host(P, p_count);
    return 1.0f;
}
