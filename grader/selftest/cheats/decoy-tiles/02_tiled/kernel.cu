// Cheat: the kernel declares the two shared-memory tiles and writes into them, so that it looks tiled, but
// never reads them and computes nothing; the launcher computes P on the host (as host-compute does) and
// launches the decoy kernel too, so that a kernel did run.
// Stopped by: the contract launch (P not computed by the kernel) and, on the CPU backend, the shared-memory
// check counting tile reads.
#include <tilelab/labs.hpp>

#include <cstddef>
#include <vector>

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ volatile float M_tile[TILE_WIDTH][TILE_WIDTH];  // volatile: the compiler keeps the tiles
    __shared__ volatile float N_tile[TILE_WIDTH][TILE_WIDTH];
    M_tile[threadIdx.y][threadIdx.x] = 0.0f;
    N_tile[threadIdx.y][threadIdx.x] = 0.0f;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    std::vector<float> m(static_cast<std::size_t>(rows) * inner);
    std::vector<float> n(static_cast<std::size_t>(inner) * cols);
    std::vector<float> p(static_cast<std::size_t>(rows) * cols);
    cudaMemcpy(m.data(), M, m.size() * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(n.data(), N, n.size() * sizeof(float), cudaMemcpyDeviceToHost);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            float sum = 0.0f;
            for (int k = 0; k < inner; ++k)
                sum += m[static_cast<std::size_t>(r) * inner + k] * n[static_cast<std::size_t>(k) * cols + c];
            p[static_cast<std::size_t>(r) * cols + c] = sum;
        }
    cudaMemcpy(P, p.data(), p.size() * sizeof(float), cudaMemcpyHostToDevice);

    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
