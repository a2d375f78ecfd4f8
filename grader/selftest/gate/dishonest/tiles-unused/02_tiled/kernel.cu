// Gate calibration, DISHONEST variant "tiles-unused" (lab 02): each phase fills both shared tiles from global
// memory exactly as a tiled kernel does (barriers included), but the inner product reads M and N from global
// memory again instead of from the tiles. Not honestly tiled: correct, so only the performance gate can tell.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // volatile: the tiles are written but never read, and nvcc would otherwise delete them (and with them
    // the kernel's static shared memory).
    __shared__ volatile float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ volatile float N_tile[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;

    float sum = 0.0f;
    for (int phase = 0; phase < inner / TILE_WIDTH; ++phase) {
        const int k0 = phase * TILE_WIDTH;
        M_tile[ty][tx] = M[row * inner + k0 + tx];
        N_tile[ty][tx] = N[(k0 + ty) * cols + col];
        __syncthreads();  // the tiles are complete before the phase's product (which then ignores them)

        for (int k = 0; k < TILE_WIDTH; ++k) sum += M[row * inner + k0 + k] * N[(k0 + k) * cols + col];
        __syncthreads();  // the phase is over for every thread before the tiles are overwritten
    }
    P[row * cols + col] = sum;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);  // exact: sizes are multiples of TILE_WIDTH
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
