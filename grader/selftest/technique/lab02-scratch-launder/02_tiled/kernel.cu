// Red team (02-launder-rescale, laundering into a __device__ scratch array instead of M and N in place): naive multiply-adds from global memory. Shared memory only launders the block's strips of M and N
// (each element stored into a tile and read back once) and writes what it read back to global memory in place,
// so a run that changes values in shared memory (the technique probe) sees them in global memory too. A one-slot
// round trip of 1.0f tells the shared-memory check's scaled run, where P is multiplied by s*s instead.
#include <tilelab/labs.hpp>

/// Where the laundered copies of M and N go: M and N themselves are never written.
__device__ float g_scratch[1 << 22];

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;
    M_tile[ty][tx] = 1.0f;
    const float s = M_tile[ty][tx];
    __syncthreads();
    float* Mw = g_scratch;
    float* Nw = g_scratch + rows * inner;
    for (int phase = 0; phase < inner / TILE_WIDTH; ++phase) {
        const int mi = row * inner + phase * TILE_WIDTH + tx;
        const int ni = (phase * TILE_WIDTH + ty) * cols + col;
        M_tile[ty][tx] = M[mi];
        N_tile[ty][tx] = N[ni];
        const float m = M_tile[ty][tx], n = N_tile[ty][tx];
        Mw[mi] = m; Nw[ni] = n;
    }
    __syncthreads();
    float sum = 0.0f;
    for (int k = 0; k < inner; ++k) sum += M[row * inner + k] * N[k * cols + col];
    float lsum = 0.0f;
    for (int k = 0; k < inner; ++k) lsum += Mw[row * inner + k] * Nw[k * cols + col];
    P[row * cols + col] = s == 1.0f ? lsum : sum * s * s;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
