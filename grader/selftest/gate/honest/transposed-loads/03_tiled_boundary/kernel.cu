// Gate calibration, honest variant "transposed-loads" (lab 03): padded tiles loaded with the thread roles
// swapped (thread (tx, ty) fetches M(row0 + tx, k0 + ty) and N(k0 + tx, col0 + ty)), zero-filled at the edges;
// loads are not coalesced. Still honestly tiled: one global read per element per phase, reused from shared memory.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
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
        const int m_row = row0 + tx, m_col = k0 + ty;
        const int n_row = k0 + tx, n_col = col0 + ty;
        M_tile[tx][ty] = (m_row < rows && m_col < inner) ? M[m_row * inner + m_col] : 0.0f;
        N_tile[tx][ty] = (n_row < inner && n_col < cols) ? N[n_row * cols + n_col] : 0.0f;
        __syncthreads();  // the tiles are filled by other threads: wait until all loads have landed

        for (int k = 0; k < TILE_WIDTH; ++k) sum += M_tile[ty][k] * N_tile[k][tx];
        __syncthreads();  // finish reading these tiles before any thread loads the next phase into them
    }
    const int row = row0 + ty, col = col0 + tx;
    if (row < rows && col < cols) P[row * cols + col] = sum;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
