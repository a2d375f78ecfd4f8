// Gate calibration, honest variant "transposed-loads" (lab 03): each tile is stored transposed in shared
// memory (M_tile_t[k][row], N_tile_t[col][k]), padded against bank conflicts, zero-filled at the edges; the global reads stay
// coalesced. Honestly tiled: one global read per element per phase, reused from shared memory.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float M_tile_t[TILE_WIDTH][TILE_WIDTH + 1];  // [k within the tile][row within the tile]
    __shared__ float N_tile_t[TILE_WIDTH][TILE_WIDTH + 1];  // [column within the tile][k within the tile]

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row0 = blockIdx.y * TILE_WIDTH;
    const int col0 = blockIdx.x * TILE_WIDTH;

    float sum = 0.0f;
    for (int k0 = 0; k0 < inner; k0 += TILE_WIDTH) {
        // Coalesced reads (x walks along a row of M and of N), stored transposed in the tiles.
        const int m_row = row0 + ty, m_col = k0 + tx;
        const int n_row = k0 + ty, n_col = col0 + tx;
        M_tile_t[tx][ty] = (m_row < rows && m_col < inner) ? M[m_row * inner + m_col] : 0.0f;
        N_tile_t[tx][ty] = (n_row < inner && n_col < cols) ? N[n_row * cols + n_col] : 0.0f;
        __syncthreads();  // the tiles are filled by other threads: wait until all loads have landed

        for (int k = 0; k < TILE_WIDTH; ++k) sum += M_tile_t[k][ty] * N_tile_t[tx][k];
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
