// Style: 1-D shared tiles indexed ty*TILE+tx, unsigned index math and while loops (common in blog/tutorial code, e.g. "CUDA by Example"-style flat arrays).
/// @file labs/02_tiled/kernel.cu
/// @brief Lab 02: the tiled kernel for sizes that are multiples of TILE_WIDTH. The handout is README.md here.
#include <tilelab/labs.hpp>

/// Computes one TILE_WIDTH × TILE_WIDTH tile of P from tiles of M and N staged in shared memory.
/// rows, inner and cols are multiples of TILE_WIDTH.
__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // Each tile is one flat array of TILE_WIDTH * TILE_WIDTH floats, element (r, c) at r * TILE_WIDTH + c.
    __shared__ float M_tile[TILE_WIDTH * TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH * TILE_WIDTH];

    const unsigned tx = threadIdx.x;
    const unsigned ty = threadIdx.y;
    const unsigned row = blockIdx.y * blockDim.y + ty;
    const unsigned col = blockIdx.x * blockDim.x + tx;
    const unsigned width = static_cast<unsigned>(inner);
    const unsigned ncols = static_cast<unsigned>(cols);
    const unsigned phases = width / TILE_WIDTH;

    float sum = 0.0f;
    unsigned p = 0;
    while (p < phases) {
        M_tile[ty * TILE_WIDTH + tx] = M[row * width + p * TILE_WIDTH + tx];
        N_tile[ty * TILE_WIDTH + tx] = N[(p * TILE_WIDTH + ty) * ncols + col];
        __syncthreads();

        unsigned k = 0;
        while (k < TILE_WIDTH) {
            sum += M_tile[ty * TILE_WIDTH + k] * N_tile[k * TILE_WIDTH + tx];
            ++k;
        }
        __syncthreads();
        ++p;
    }
    P[row * ncols + col] = sum;
}

/// Launches matmul_tiled_kernel with one TILE_WIDTH × TILE_WIDTH block per tile of P.
void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(static_cast<unsigned>(cols) / TILE_WIDTH, static_cast<unsigned>(rows) / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
