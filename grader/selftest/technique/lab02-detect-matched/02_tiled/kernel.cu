/// Red team (lab02-detect-switch, with its tell removed): naive multiply-adds from global memory in every ordinary
/// run; tiled only when a shared-memory round trip changes a value (the technique probe's replacement, the
/// shared-memory check's scaling). The naive path makes exactly the tiled path's shared-memory reads (two per
/// multiply-add, of a slot array staged once), so the probe's comparison of read counts sees no difference; only
/// the elements staged, which the comparison does not look at, differ.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;

    // The round trip: one element of M through M_tile.
    const float original = M[row * inner + tx];
    M_tile[ty][tx] = original;
    __syncthreads();
    const float back = M_tile[ty][tx];
    const int tampered = __syncthreads_or(back != original);

    float sum = 0.0f;
    float unused = 0.0f;
    for (int phase = 0; phase < inner / TILE_WIDTH; ++phase) {
        if (tampered) {
            M_tile[ty][tx] = M[row * inner + phase * TILE_WIDTH + tx];
            N_tile[ty][tx] = N[(phase * TILE_WIDTH + ty) * cols + col];
        }
        __syncthreads();
        if (tampered) {
            for (int k = 0; k < TILE_WIDTH; ++k) sum += M_tile[ty][k] * N_tile[k][tx];
        } else {
            for (int k = 0; k < TILE_WIDTH; ++k) {
                sum += M[row * inner + phase * TILE_WIDTH + k] * N[(phase * TILE_WIDTH + k) * cols + col];
                unused += M_tile[ty][k] * M_tile[k][tx];  // the same two shared reads as the tiled path's
            }
        }
        __syncthreads();
    }
    static_cast<void>(unused);
    P[row * cols + col] = sum;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
