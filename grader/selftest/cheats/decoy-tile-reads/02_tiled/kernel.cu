// CHEAT (red team, issue 27; stopped): tiles written and read as often as a tiled kernel's, and nothing computed from them.
// Each block fills its two tiles with zeros (not M and N) once per step along inner and reads two tile elements
// per multiply-add into a sum; P gets that sum (zeros, wrong). It earns "tiles in shared memory" without a tiled
// kernel: add lab 01's loop for P and it is untiled code with 9 of 9 where honest untiled code gets 7. Pure CUDA,
// valid on a GPU, no kit names. What it attacks: the CPU backend's shared-memory check counts tile reads and
// writes on a run whose P it does not check, not whether the product comes from the tiles, nor how often the
// kernel reads M and N from global memory (a tiled kernel reads each element TILE_WIDTH times less often).
// What stops it: the shared-memory check runs a graded multiply (random operands, P checked) twice, the second time
// with every float stored into shared memory scaled by s; P must come back scaled by s * s, and P from global
// memory (or from these decoys) comes back unchanged: "the tiles feed nothing" (grader/src/tile_sources.hpp).
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty, col = blockIdx.x * TILE_WIDTH + tx;
    float decoy = 0.0f;
    for (int base = 0; base < inner; base += TILE_WIDTH) {
        M_tile[ty][tx] = 0.0f;
        N_tile[ty][tx] = 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k) decoy += M_tile[ty][k] * N_tile[k][tx];
        __syncthreads();
    }
    if (row >= rows || col >= cols) return;
    P[row * cols + col] = decoy;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
