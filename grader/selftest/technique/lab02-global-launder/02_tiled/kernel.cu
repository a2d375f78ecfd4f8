// Red team: naive multiply-adds from global memory; shared memory only launders the block's strips of M and N
// (each element through a one-slot "tile" per thread) and writes them back to global memory in place.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;
    float* Mw = const_cast<float*>(M);
    float* Nw = const_cast<float*>(N);
    for (int phase = 0; phase < inner / TILE_WIDTH; ++phase) {
        const int mi = row * inner + phase * TILE_WIDTH + tx;
        const int ni = (phase * TILE_WIDTH + ty) * cols + col;
        M_tile[ty][tx] = M[mi];
        N_tile[ty][tx] = N[ni];
        Mw[mi] = M_tile[ty][tx];
        Nw[ni] = N_tile[ty][tx];
    }
    __syncthreads();
    float sum = 0.0f;
    for (int k = 0; k < inner; ++k) sum += M[row * inner + k] * N[k * cols + col];
    P[row * cols + col] = sum;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
