// Style: XOR-swizzled shared tiles, element (i, j) kept at [i][j ^ i] (the bank-conflict swizzle of CUTLASS/"shared memory swizzling" blog posts, applied to the textbook tiled kernel).
/// @file labs/03_tiled_boundary/kernel.cu
/// @brief Lab 03: the tiled kernel for any shape. The handout is README.md in this folder.
#include <tilelab/labs.hpp>

namespace {
static_assert((TILE_WIDTH & (TILE_WIDTH - 1)) == 0, "the XOR swizzle needs a power-of-two tile");
/// Where column j of row i of a tile is stored: XOR keeps it inside the row and permutes each row differently.
__device__ __forceinline__ int swz(int i, int j) { return j ^ (i & (TILE_WIDTH - 1)); }
}  // namespace

/// Computes one TILE_WIDTH × TILE_WIDTH tile of P for any rows, inner and cols: tile elements outside M or N
/// are loaded as zero and threads outside P do not store.
__global__ void matmul_tiled_boundary_kernel(const float* __restrict__ M, const float* __restrict__ N,
                                             float* __restrict__ P, int rows, int inner, int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];  // M_tile[i][swz(i, j)] = M(by T + i, p T + j)
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];  // N_tile[i][swz(i, j)] = N(p T + i, bx T + j)

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;

    float sum = 0.0f;
    const int phases = (inner + TILE_WIDTH - 1) / TILE_WIDTH;
    for (int p = 0; p < phases; ++p) {
        const int m_col = p * TILE_WIDTH + tx, n_row = p * TILE_WIDTH + ty;
        M_tile[ty][swz(ty, tx)] = (row < rows && m_col < inner) ? M[row * inner + m_col] : 0.0f;
        N_tile[ty][swz(ty, tx)] = (n_row < inner && col < cols) ? N[n_row * cols + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE_WIDTH; ++k) sum += M_tile[ty][swz(ty, k)] * N_tile[k][swz(k, tx)];
        __syncthreads();
    }
    if (row < rows && col < cols) P[row * cols + col] = sum;
}

/// Launches matmul_tiled_boundary_kernel with one block per tile of P, partial tiles included.
void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
