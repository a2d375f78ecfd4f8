// Cheat: matmul_timed multiplies on the host, returns a made-up time, and throws the error the grader expects when
// the first allocation would be huge (one probe cudaMalloc of M's size). Where nothing checked that the device did
// the work, this earned 6 of 8 points on the CPU backend and 6 of 10 on an H100.
// Stopped by: the kit's lab 03 kernel records its launches; no launch, no points beyond the build's
// ("matmul_timed never launched matmul_tiled_boundary_kernel").
#include <tilelab/cuda_check.hpp>
#include <tilelab/labs.hpp>

#include <cstddef>

float matmul_timed(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const std::size_t m_bytes = static_cast<std::size_t>(rows) * inner * sizeof(float);
    void* probe = nullptr;
    TILELAB_CUDA_CHECK(cudaMalloc(&probe, m_bytes));  // fails as the grader expects for a huge M
    TILELAB_CUDA_CHECK(cudaFree(probe));
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            float sum = 0.0f;
            for (int k = 0; k < inner; ++k)
                sum += M[static_cast<std::size_t>(r) * inner + k] * N[static_cast<std::size_t>(k) * cols + c];
            P[static_cast<std::size_t>(r) * cols + c] = sum;
        }
    return 0.5f;
}
