/// @file grader/selftest/accept-styles/size-t-min/03_tiled_boundary/kernel.cu
/// @brief Lab 03 with std::size_t and unsigned indices throughout and the partial phase cut short by
/// `min(static_cast<size_t>(TILE_WIDTH), K - t)` (style: the CUDA Best Practices Guide's 64-bit index arithmetic
/// with CUDA's min overloads), launched as `<<<grid, block, 0, 0>>>`: the CPU backend once had only min(int, int)
/// and min(unsigned, unsigned), so min of two size_t was ambiguous there.
#include <tilelab/labs.hpp>

#include <cstddef>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float Ms[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Ns[TILE_WIDTH][TILE_WIDTH];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    const size_t R = rows, K = inner, C = cols;
    const size_t row = static_cast<size_t>(blockIdx.y) * TILE_WIDTH + ty;
    const size_t col = static_cast<size_t>(blockIdx.x) * TILE_WIDTH + tx;
    float acc = 0.0f;
    for (size_t t = 0; t < K; t += TILE_WIDTH) {
        const size_t width = min(static_cast<size_t>(TILE_WIDTH), K - t);  // the last phase may be partial
        Ms[ty][tx] = (row < R && tx < width) ? M[row * K + t + tx] : 0.0f;
        Ns[ty][tx] = (ty < width && col < C) ? N[(t + ty) * C + col] : 0.0f;
        __syncthreads();
        for (size_t k = 0; k < width; ++k) acc = fmaf(Ms[ty][k], Ns[k][tx], acc);
        __syncthreads();
    }
    if (row < R && col < C) P[row * C + col] = acc;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_boundary_kernel<<<grid, block, 0, 0>>>(M, N, P, rows, inner, cols);
}
