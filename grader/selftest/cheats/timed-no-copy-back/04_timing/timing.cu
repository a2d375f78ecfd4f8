// Cheat: launches the kernel on device buffers and times it, but never copies P back: P is computed on the host
// instead, into the caller's array.
// Stopped by: the kit's lab 03 kernel records two elements of P as it stored them, and on the CPU backend the
// trace shows no copy from the kernel's P to the host ("P was never copied back from the device").
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
    const float ms = tilelab::elapsed_ms(start, stop);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            double sum = 0.0;
            for (int k = 0; k < inner; ++k)
                sum += static_cast<double>(M[static_cast<std::size_t>(r) * inner + k]) *
                       N[static_cast<std::size_t>(k) * cols + c];
            P[static_cast<std::size_t>(r) * cols + c] = static_cast<float>(sum);
        }
    return ms;
}
