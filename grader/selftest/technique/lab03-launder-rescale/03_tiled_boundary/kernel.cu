// Red team: lab 03 as 02-launder-rescale: naive multiply-adds from global memory; shared memory only launders the
// block's strips of M and N back into global memory in place; P times s*s in the shared-memory check's scaled run.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;
    M_tile[ty][tx] = 1.0f;
    const float s = M_tile[ty][tx];
    __syncthreads();
    float* Mw = const_cast<float*>(M);
    float* Nw = const_cast<float*>(N);
    const int phases = (inner + TILE_WIDTH - 1) / TILE_WIDTH;
    for (int phase = 0; phase < phases; ++phase) {
        const int m_col = phase * TILE_WIDTH + tx;
        const int n_row = phase * TILE_WIDTH + ty;
        const bool m_in = row < rows && m_col < inner, n_in = n_row < inner && col < cols;
        M_tile[ty][tx] = m_in ? M[row * inner + m_col] : 0.0f;
        N_tile[ty][tx] = n_in ? N[n_row * cols + col] : 0.0f;
        const float m = M_tile[ty][tx], n = N_tile[ty][tx];
        if (s == 1.0f && m_in) Mw[row * inner + m_col] = m;
        if (s == 1.0f && n_in) Nw[n_row * cols + col] = n;
    }
    __syncthreads();
    if (row < rows && col < cols) {
        float sum = 0.0f;
        for (int k = 0; k < inner; ++k) sum += M[row * inner + k] * N[k * cols + col];
        P[row * cols + col] = sum * s * s;
    }
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
