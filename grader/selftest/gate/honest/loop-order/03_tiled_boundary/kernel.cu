// Gate calibration, honest variant "loop-order" (lab 03): the tiled kernel for any shape (partial tiles
// zero-filled) accumulating each phase in two partial sums, even k and odd k, added at the end of the phase.
// Honestly tiled: one global read per element per phase, reused TILE_WIDTH times from shared memory.
#include <tilelab/labs.hpp>

static_assert(TILE_WIDTH % 2 == 0, "the even/odd split needs an even tile width");

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float a[TILE_WIDTH][TILE_WIDTH];
    __shared__ float b[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;

    float total = 0.0f;
    for (int k0 = 0; k0 < inner; k0 += TILE_WIDTH) {
        a[ty][tx] = (row < rows && k0 + tx < inner) ? M[row * inner + k0 + tx] : 0.0f;
        b[ty][tx] = (k0 + ty < inner && col < cols) ? N[(k0 + ty) * cols + col] : 0.0f;
        __syncthreads();  // a and b hold other threads' loads: wait until all are written

        float even = 0.0f;
        float odd = 0.0f;
        for (int k = 0; k < TILE_WIDTH; k += 2) {
            even += a[ty][k] * b[k][tx];
            odd += a[ty][k + 1] * b[k + 1][tx];
        }
        total += even + odd;
        __syncthreads();  // all reads of a and b must finish before the next phase overwrites them
    }
    if (row < rows && col < cols) P[row * cols + col] = total;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
