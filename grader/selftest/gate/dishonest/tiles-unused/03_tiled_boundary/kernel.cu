// Gate calibration, DISHONEST variant "tiles-unused" (lab 03): each phase fills both shared tiles (zero-filled
// at the edges, barriers included) as a tiled kernel does, but the inner product reads M and N from global
// memory again instead of from the tiles. Not honestly tiled: correct, so only the performance gate can tell.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    // volatile: the tiles are written but never read, and nvcc would otherwise delete them (and with them
    // the kernel's static shared memory).
    __shared__ volatile float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ volatile float N_tile[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;
    const bool inside = row < rows && col < cols;

    float sum = 0.0f;
    const int phases = (inner + TILE_WIDTH - 1) / TILE_WIDTH;
    for (int phase = 0; phase < phases; ++phase) {
        const int k0 = phase * TILE_WIDTH;
        M_tile[ty][tx] = (row < rows && k0 + tx < inner) ? M[row * inner + k0 + tx] : 0.0f;
        N_tile[ty][tx] = (k0 + ty < inner && col < cols) ? N[(k0 + ty) * cols + col] : 0.0f;
        __syncthreads();  // the tiles are complete before the phase's product (which then ignores them)

        const int k_end = (inner - k0 < TILE_WIDTH) ? inner - k0 : TILE_WIDTH;  // the last phase may be short
        if (inside) {
            for (int k = 0; k < k_end; ++k) sum += M[row * inner + k0 + k] * N[(k0 + k) * cols + col];
        }
        __syncthreads();  // the phase is over for every thread before the tiles are overwritten
    }
    if (inside) P[row * cols + col] = sum;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
