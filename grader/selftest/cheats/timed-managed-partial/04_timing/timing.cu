// Cheat: matmul_timed in unified memory, dishonestly. It knows that the kit's lab 03 kernel records the two elements
// of P that it stores first and last (P[0] and P[rows * cols - 1]), so it puts into managed memory only the rows of M
// those two need (the first and the last) and all of N, launches the kernel there between two events (an honest
// time), computes P on the host, and copies the kernel's two recorded elements into it. No cudaMemcpy at all: on the
// CPU backend the trace cannot see host stores into managed memory.
// Stopped by (CPU backend): the kit kernel's digest of the M it read, which the checker compares with its own M
// ("the managed (or pinned) memory the kernel read as M (...) did not hold M when the kernel started").
#include <tilelab/cuda_check.hpp>
#include <tilelab/labs.hpp>

#include <algorithm>
#include <cstddef>

float matmul_timed(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const std::size_t m_count = static_cast<std::size_t>(rows) * inner;
    const std::size_t n_count = static_cast<std::size_t>(inner) * cols;
    const std::size_t p_count = static_cast<std::size_t>(rows) * cols;
    float* m = nullptr;
    float* n = nullptr;
    float* p = nullptr;
    TILELAB_CUDA_CHECK(cudaMallocManaged(&m, m_count * sizeof(float)));
    TILELAB_CUDA_CHECK(cudaMallocManaged(&n, n_count * sizeof(float)));
    TILELAB_CUDA_CHECK(cudaMallocManaged(&p, p_count * sizeof(float)));
    std::fill(m, m + m_count, 0.0f);
    std::copy(M, M + inner, m);                                       // the first row of M
    std::copy(M + m_count - inner, M + m_count, m + m_count - inner);  // and the last
    std::copy(N, N + n_count, n);
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    TILELAB_CUDA_CHECK(cudaEventCreate(&start));
    TILELAB_CUDA_CHECK(cudaEventCreate(&stop));
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    TILELAB_CUDA_CHECK(cudaEventRecord(start));
    matmul_tiled_boundary_kernel<<<grid, block>>>(m, n, p, rows, inner, cols);
    TILELAB_CUDA_CHECK(cudaGetLastError());
    TILELAB_CUDA_CHECK(cudaEventRecord(stop));
    TILELAB_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    TILELAB_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            float sum = 0.0f;
            for (int k = 0; k < inner; ++k)
                sum += M[static_cast<std::size_t>(r) * inner + k] * N[static_cast<std::size_t>(k) * cols + c];
            P[static_cast<std::size_t>(r) * cols + c] = sum;
        }
    P[0] = p[0];
    P[p_count - 1] = p[p_count - 1];
    TILELAB_CUDA_CHECK(cudaEventDestroy(start));
    TILELAB_CUDA_CHECK(cudaEventDestroy(stop));
    TILELAB_CUDA_CHECK(cudaFree(m));
    TILELAB_CUDA_CHECK(cudaFree(n));
    TILELAB_CUDA_CHECK(cudaFree(p));
    return ms;
}
