// CHEAT (red team, issue 27; stopped): tiles only for the shared-memory check's probe. That check runs the kit's launch of
// the kernel once on a fixed, public shape (rows = cols = TILE_WIDTH, inner = 4 * TILE_WIDTH) filled with zeros,
// counts the tile reads and writes, and never looks at P. This kernel recognises that run (the shape, and zeros
// in M and N) and only then goes through its tiles (filled, read twice per multiply-add, result unused); on every
// graded multiply it computes nothing (put lab 01's naive loop there and it is untiled code that earns 9 of 9).
// What it attacks: a measurement taken on inputs the lab can recognise, on a run whose result is not checked.
// What stops it: the shared-memory check now runs one of the correctness checks' shapes (picked by the seed) with
// random operands and checks P, then runs it again with shared-memory stores scaled (grader/src/tile_sources.hpp).
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty, col = blockIdx.x * TILE_WIDTH + tx;
    const bool probed = rows == TILE_WIDTH && cols == TILE_WIDTH && inner == 4 * TILE_WIDTH && M[0] == 0.0f &&
                        N[0] == 0.0f && M[inner - 1] == 0.0f;
    if (probed) {
        float unused = 0.0f;
        for (int base = 0; base < inner; base += TILE_WIDTH) {
            M_tile[ty][tx] = M[row * inner + base + tx];
            N_tile[ty][tx] = N[(base + ty) * cols + col];
            __syncthreads();
            for (int k = 0; k < TILE_WIDTH; ++k) unused += M_tile[ty][k] * N_tile[k][tx];
            __syncthreads();
        }
        P[row * cols + col] = unused;
        return;
    }
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
