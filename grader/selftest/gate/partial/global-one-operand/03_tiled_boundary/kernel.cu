// Gate calibration, partly tiled variant "global-one-operand" (lab 03): both tiles are loaded each phase and
// M is read from its tile, but N from global memory in the inner product (its tile is never read). Fast enough
// to pass the GPU gate; the CPU backend's shared-memory check, which counts tile reads, rejects it.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    // volatile: this tile is written but never read, and nvcc would otherwise delete it.
    __shared__ volatile float N_tile[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;

    float sum = 0.0f;
    const int phases = (inner + TILE_WIDTH - 1) / TILE_WIDTH;
    for (int phase = 0; phase < phases; ++phase) {
        const int k0 = phase * TILE_WIDTH;
        M_tile[ty][tx] = (row < rows && k0 + tx < inner) ? M[row * inner + k0 + tx] : 0.0f;
        N_tile[ty][tx] = (k0 + ty < inner && col < cols) ? N[(k0 + ty) * cols + col] : 0.0f;
        __syncthreads();  // the tile of M is complete before the threads of the row read it

        if (col < cols) {  // N is read straight from global memory, so stay inside it
            const int k_end = (inner - k0 < TILE_WIDTH) ? inner - k0 : TILE_WIDTH;
            for (int k = 0; k < k_end; ++k) sum += M_tile[ty][k] * N[(k0 + k) * cols + col];
        }
        __syncthreads();  // every thread is done with the tile of M before the next phase overwrites it
    }
    if (row < rows && col < cols) P[row * cols + col] = sum;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
