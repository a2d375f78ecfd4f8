// Gate calibration, honest variant "transposed-loads" (lab 02): padded tiles loaded with the thread roles
// swapped (thread (tx, ty) fetches M(row0 + tx, k0 + ty) and N(k0 + tx, col0 + ty)), so the global loads are
// not coalesced. Still honestly tiled: one global read per element per phase, reused from shared memory.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // Both tiles are indexed [row within the tile][column within the tile], as usual.
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH + 1];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH + 1];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row0 = blockIdx.y * TILE_WIDTH;
    const int col0 = blockIdx.x * TILE_WIDTH;

    float sum = 0.0f;
    for (int k0 = 0; k0 < inner; k0 += TILE_WIDTH) {
        // Each thread loads the element at the transposed position of its own: x walks down the rows.
        M_tile[tx][ty] = M[(row0 + tx) * inner + (k0 + ty)];
        N_tile[tx][ty] = N[(k0 + tx) * cols + (col0 + ty)];
        __syncthreads();  // the tiles are filled by other threads: wait until all loads have landed

        for (int k = 0; k < TILE_WIDTH; ++k) sum += M_tile[ty][k] * N_tile[k][tx];
        __syncthreads();  // finish reading these tiles before any thread loads the next phase into them
    }
    P[(row0 + ty) * cols + (col0 + tx)] = sum;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);  // exact: sizes are multiples of TILE_WIDTH
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
