// Gate calibration, honest variant "padded-tiles" (lab 02): the textbook tiled kernel with every tile row
// padded by one float ([TILE_WIDTH][TILE_WIDTH + 1]). Honestly tiled: each element of M and N is read from
// global memory once per phase and then used TILE_WIDTH times from shared memory.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float Ms[TILE_WIDTH][TILE_WIDTH + 1];
    __shared__ float Ns[TILE_WIDTH][TILE_WIDTH + 1];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;

    float acc = 0.0f;
    const int num_phases = inner / TILE_WIDTH;  // inner is a multiple of TILE_WIDTH in this lab
    for (int ph = 0; ph < num_phases; ++ph) {
        const int k0 = ph * TILE_WIDTH;
        Ms[ty][tx] = M[row * inner + k0 + tx];
        Ns[ty][tx] = N[(k0 + ty) * cols + col];
        __syncthreads();  // both tiles must be fully loaded before any thread reads them

        for (int k = 0; k < TILE_WIDTH; ++k) acc += Ms[ty][k] * Ns[k][tx];
        __syncthreads();  // nobody may overwrite the tiles (next phase) while others still read them
    }
    P[row * cols + col] = acc;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);  // exact: sizes are multiples of TILE_WIDTH
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
