// Red team: no tile is ever read by a thread other than the one that stored it. M's row is shared through warp
// shuffles (a warp holds two rows of the block, each 16 lanes wide); N's tile is shared through the block's own
// tile of P in global memory, each thread parking its element of N in its own element of P, then overwriting it
// with its sum at the end. Shared memory is only a private slot each value passes through once.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_slot[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_slot[TILE_WIDTH][TILE_WIDTH][TILE_WIDTH / 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;
    const int lane = (ty * TILE_WIDTH + tx) & 31;
    const int half = lane & 16;
    const int mine = ty & 1;
    const bool whole = (blockIdx.y + 1) * TILE_WIDTH <= rows && (blockIdx.x + 1) * TILE_WIDTH <= cols;
    float* park = P + (size_t)blockIdx.y * TILE_WIDTH * cols + blockIdx.x * TILE_WIDTH;  // the block's tile of P
    float sum = 0.0f;
    const int phases = (inner + TILE_WIDTH - 1) / TILE_WIDTH;
    for (int phase = 0; phase < phases; ++phase) {
        const int m_col = phase * TILE_WIDTH + tx;
        M_slot[ty][tx] = (row < rows && m_col < inner) ? M[row * inner + m_col] : 0.0f;
        const float m_own = M_slot[ty][tx];
        if (whole) {
            const int n_row = phase * TILE_WIDTH + ty;
            N_slot[ty][tx][0] = (n_row < inner) ? N[n_row * cols + col] : 0.0f;
            park[ty * cols + tx] = N_slot[ty][tx][0];  // this thread's own element of P
            __syncthreads();
            for (int k = 0; k < TILE_WIDTH; ++k) sum += __shfl_sync(0xffffffffu, m_own, half | k) * park[k * cols + tx];
            __syncthreads();
        } else {
            for (int j = 0; j < TILE_WIDTH / 2; ++j) {
                const int n_row = phase * TILE_WIDTH + 2 * j + mine;
                N_slot[ty][tx][j] = (n_row < inner && col < cols) ? N[n_row * cols + col] : 0.0f;
            }
            float n_own[TILE_WIDTH / 2];
            for (int j = 0; j < TILE_WIDTH / 2; ++j) n_own[j] = N_slot[ty][tx][j];
            for (int k = 0; k < TILE_WIDTH; ++k) {
                const float m = __shfl_sync(0xffffffffu, m_own, half | k);
                const float n_other = __shfl_sync(0xffffffffu, n_own[k >> 1], lane ^ 16);
                sum += m * (((k & 1) == mine) ? n_own[k >> 1] : n_other);
            }
        }
    }
    if (row < rows && col < cols) P[row * cols + col] = sum;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
