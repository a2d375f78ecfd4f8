/// @file grader/selftest/accept-styles/launch-kernel-ex/03_tiled_boundary/kernel.cu
/// @brief Lab 03 launched with cudaLaunchKernelEx and a cudaLaunchConfig_t (style: the CUDA Programming Guide's
/// extensible launch API of CUDA 12, as code that sets launch attributes writes it), cudaPeekAtLastError after the
/// launch: the CPU backend once had neither cudaLaunchConfig_t nor cudaLaunchKernelEx.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float Ms[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Ns[TILE_WIDTH][TILE_WIDTH];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;
    float acc = 0.0f;
    for (int t = 0; t < inner; t += TILE_WIDTH) {
        Ms[ty][tx] = (row < rows && t + tx < inner) ? M[row * inner + t + tx] : 0.0f;
        Ns[ty][tx] = (t + ty < inner && col < cols) ? N[(t + ty) * cols + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k) acc += Ms[ty][k] * Ns[k][tx];
        __syncthreads();
    }
    if (row < rows && col < cols) P[row * cols + col] = acc;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    config.blockDim = dim3(TILE_WIDTH, TILE_WIDTH);
    config.dynamicSmemBytes = 0;
    config.stream = 0;
    config.attrs = nullptr;
    config.numAttrs = 0;
    cudaLaunchKernelEx(&config, matmul_tiled_boundary_kernel, M, N, P, rows, inner, cols);
    (void)cudaPeekAtLastError();
}
