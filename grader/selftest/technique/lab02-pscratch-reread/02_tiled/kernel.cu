// Red team (lab02-pscratch, each slot read twice so that the reads-per-staged-element rule's 2.00 is met):
// no tile is ever read by a thread other than the one that stored it. M's row is shared through warp
// shuffles; N's tile through the block's own tile of P in global memory (each thread parks its element of N in its
// own element of P, then overwrites it with its sum). Shared memory is a private slot each value passes once.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_slot[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_slot[TILE_WIDTH][TILE_WIDTH];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;
    const int lane = (ty * TILE_WIDTH + tx) % warpSize;
    const int base = lane - tx;  // lane of this row's tx = 0 (TILE_WIDTH 8, 16: several rows per warp)
    float* park = P + (size_t)blockIdx.y * TILE_WIDTH * cols + blockIdx.x * TILE_WIDTH;
    float sum = 0.0f;
    for (int phase = 0; phase < inner / TILE_WIDTH; ++phase) {
        M_slot[ty][tx] = M[row * inner + phase * TILE_WIDTH + tx];
        N_slot[ty][tx] = N[(phase * TILE_WIDTH + ty) * cols + col];
        const float m_own = M_slot[ty][tx];
        park[ty * cols + tx] = N_slot[ty][tx];
        const float again = M_slot[ty][tx] + N_slot[ty][tx];  // the second read of each slot: read twice on average
        static_cast<void>(again);
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k) {
            const float m = __shfl_sync(0xffffffffu, m_own, base + k);
            sum += m * park[k * cols + tx];
        }
        __syncthreads();
    }
    P[row * cols + col] = sum;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
