/// @file grader/selftest/accept-styles/managed-memory/04_timing/timing.cu
/// @brief Lab 04 with unified memory (style: Mark Harris's NVIDIA blog post "An Even Easier Introduction to CUDA":
/// cudaMallocManaged for every array, the host filling and reading the arrays itself (std::copy) with no
/// cudaMemcpy, cudaDeviceSynchronize before the host touches the result, cudaFree; the later "Unified Memory for
/// CUDA Beginners" post's cudaMemPrefetchAsync to move M and N to the GPU before the timed launch so that page
/// faults are not timed; in CUDA 13's form, a cudaMemLocation, where the toolkit is 13 or newer). The events and the error path are the lab's: checked calls, and a guard that frees on
/// every path.
#include <tilelab/cuda_check.hpp>
#include <tilelab/labs.hpp>

#include <algorithm>
#include <cstddef>

namespace {
/// The managed arrays and events of one call, given back by the destructor.
struct Managed {
    float* x = nullptr;
    float* y = nullptr;
    float* z = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
    Managed() = default;
    Managed(const Managed&) = delete;
    Managed& operator=(const Managed&) = delete;
    ~Managed() {
        cudaFree(x);
        cudaFree(y);
        cudaFree(z);
        if (start != nullptr) cudaEventDestroy(start);
        if (stop != nullptr) cudaEventDestroy(stop);
    }
};
}  // namespace

float matmul_timed(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const std::size_t m_count = static_cast<std::size_t>(rows) * inner;
    const std::size_t n_count = static_cast<std::size_t>(inner) * cols;
    const std::size_t p_count = static_cast<std::size_t>(rows) * cols;

    Managed a;
    // Allocate Unified Memory -- accessible from CPU or GPU
    TILELAB_CUDA_CHECK(cudaMallocManaged(&a.x, m_count * sizeof(float)));
    TILELAB_CUDA_CHECK(cudaMallocManaged(&a.y, n_count * sizeof(float)));
    TILELAB_CUDA_CHECK(cudaMallocManaged(&a.z, p_count * sizeof(float)));
    TILELAB_CUDA_CHECK(cudaEventCreate(&a.start));
    TILELAB_CUDA_CHECK(cudaEventCreate(&a.stop));

    // initialize x and y arrays on the host
    std::copy(M, M + m_count, a.x);
    std::copy(N, N + n_count, a.y);

    // Prefetch the data to the GPU so that the kernel's time has no page faults in it
    int device = -1;
    TILELAB_CUDA_CHECK(cudaGetDevice(&device));
    // CUDA 13's form (the destination is a cudaMemLocation, and flags follow); CUDA 12's took the device's number
    cudaMemLocation location{};
    location.type = cudaMemLocationTypeDevice;
    location.id = device;
    TILELAB_CUDA_CHECK(cudaMemPrefetchAsync(a.x, m_count * sizeof(float), location, 0, 0));
    TILELAB_CUDA_CHECK(cudaMemPrefetchAsync(a.y, n_count * sizeof(float), location, 0, 0));

    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    TILELAB_CUDA_CHECK(cudaEventRecord(a.start));
    matmul_tiled_boundary_kernel<<<grid, block>>>(a.x, a.y, a.z, rows, inner, cols);
    TILELAB_CUDA_CHECK(cudaGetLastError());
    TILELAB_CUDA_CHECK(cudaEventRecord(a.stop));

    // Wait for GPU to finish before accessing on host
    TILELAB_CUDA_CHECK(cudaDeviceSynchronize());
    float ms = 0.0f;
    TILELAB_CUDA_CHECK(cudaEventElapsedTime(&ms, a.start, a.stop));
    std::copy(a.z, a.z + p_count, P);
    return ms;
}
