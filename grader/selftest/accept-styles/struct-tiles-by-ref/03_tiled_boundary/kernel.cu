// Style: both tiles in one struct, the __shared__ instance handed by reference (Tiles& t) to __device__ helpers that load a phase and multiply it (course code that keeps the kernel's body to its phase loop).
/// @file labs/03_tiled_boundary/kernel.cu
/// @brief Lab 03: tiled product for any shape. The handout is README.md in this folder.
#include <tilelab/labs.hpp>

namespace {
/// The two tiles of a phase.
struct Tiles {
    float M[TILE_WIDTH][TILE_WIDTH];
    float N[TILE_WIDTH][TILE_WIDTH];
};

/// Stages this thread's element of M's and N's tiles for @p phase, 0.0f outside the matrices.
__device__ void load_phase(Tiles& t, const float* M, const float* N, int rows, int inner, int cols, int row, int col,
                           int phase) {
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int m_col = phase * TILE_WIDTH + tx;
    const int n_row = phase * TILE_WIDTH + ty;
    t.M[ty][tx] = (row < rows && m_col < inner) ? M[row * inner + m_col] : 0.0f;
    t.N[ty][tx] = (n_row < inner && col < cols) ? N[n_row * cols + col] : 0.0f;
}

/// This thread's dot product of a row of the M tile with a column of the N tile.
__device__ float multiply_phase(const Tiles& t) {
    float sum = 0.0f;
    for (int k = 0; k < TILE_WIDTH; ++k) sum += t.M[threadIdx.y][k] * t.N[k][threadIdx.x];
    return sum;
}
}  // namespace

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ Tiles tiles;
    const int row = blockIdx.y * TILE_WIDTH + threadIdx.y;
    const int col = blockIdx.x * TILE_WIDTH + threadIdx.x;

    float sum = 0.0f;
    for (int phase = 0; phase < (inner + TILE_WIDTH - 1) / TILE_WIDTH; ++phase) {
        load_phase(tiles, M, N, rows, inner, cols, row, col, phase);
        __syncthreads();  // the tiles are complete before any thread reads them
        sum += multiply_phase(tiles);
        __syncthreads();  // every thread is done with the tiles before the next phase overwrites them
    }
    if (row < rows && col < cols) P[row * cols + col] = sum;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
