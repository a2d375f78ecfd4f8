// Style: phases and the k-loop counting down to zero, int64_t index math, if/else guarded loads (reverse loops as in loop-optimisation blogs; 64-bit indexing as in CUTLASS/PyTorch kernels).
/// @file labs/03_tiled_boundary/kernel.cu
/// @brief Lab 03: the tiled kernel for any shape. The handout is README.md in this folder.
#include <tilelab/labs.hpp>

#include <cstdint>

/// Computes one TILE_WIDTH × TILE_WIDTH tile of P for any rows, inner and cols: tile elements outside M or N
/// are loaded as zero and threads outside P do not store.
__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t row = static_cast<int64_t>(blockIdx.y) * TILE_WIDTH + ty;
    const int64_t col = static_cast<int64_t>(blockIdx.x) * TILE_WIDTH + tx;
    const int64_t n_rows = rows, n_inner = inner, n_cols = cols;

    float sum = 0.0f;
    // The phases in reverse: the last (partial) strip of the inner dimension first.
    for (int64_t p = (n_inner + TILE_WIDTH - 1) / TILE_WIDTH - 1; p >= 0; --p) {
        const int64_t m_k = p * TILE_WIDTH + tx;
        const int64_t n_k = p * TILE_WIDTH + ty;
        if (row < n_rows && m_k < n_inner) {
            M_tile[ty][tx] = M[row * n_inner + m_k];
        } else {
            M_tile[ty][tx] = 0.0f;
        }
        if (n_k < n_inner && col < n_cols) {
            N_tile[ty][tx] = N[n_k * n_cols + col];
        } else {
            N_tile[ty][tx] = 0.0f;
        }
        __syncthreads();

        for (int k = TILE_WIDTH - 1; k >= 0; --k) {
            sum += M_tile[ty][k] * N_tile[k][tx];
        }
        __syncthreads();
    }

    if (row < n_rows && col < n_cols) {
        P[row * n_cols + col] = sum;
    }
}

/// Launches matmul_tiled_boundary_kernel with one block per tile of P, partial tiles included.
void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(static_cast<unsigned>((static_cast<int64_t>(cols) + TILE_WIDTH - 1) / TILE_WIDTH),
                    static_cast<unsigned>((static_cast<int64_t>(rows) + TILE_WIDTH - 1) / TILE_WIDTH));
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
