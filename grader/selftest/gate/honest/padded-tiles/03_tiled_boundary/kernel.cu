// Gate calibration, honest variant "padded-tiles" (lab 03): the tiled kernel for any shape with every tile
// row padded by one float ([TILE_WIDTH][TILE_WIDTH + 1]); partial tiles are zero-filled. Honestly tiled: each
// element of M and N is read from global memory once per phase and then used from shared memory.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float Ms[TILE_WIDTH][TILE_WIDTH + 1];
    __shared__ float Ns[TILE_WIDTH][TILE_WIDTH + 1];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;

    float acc = 0.0f;
    const int num_phases = (inner + TILE_WIDTH - 1) / TILE_WIDTH;
    for (int ph = 0; ph < num_phases; ++ph) {
        const int k0 = ph * TILE_WIDTH;
        // Out-of-range elements become 0, so they add nothing to the dot product.
        Ms[ty][tx] = (row < rows && k0 + tx < inner) ? M[row * inner + k0 + tx] : 0.0f;
        Ns[ty][tx] = (k0 + ty < inner && col < cols) ? N[(k0 + ty) * cols + col] : 0.0f;
        __syncthreads();  // both tiles must be fully loaded before any thread reads them

        for (int k = 0; k < TILE_WIDTH; ++k) acc += Ms[ty][k] * Ns[k][tx];
        __syncthreads();  // nobody may overwrite the tiles (next phase) while others still read them
    }
    if (row < rows && col < cols) P[row * cols + col] = acc;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
