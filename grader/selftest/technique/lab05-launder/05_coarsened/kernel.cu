// Red team (scalar launder): naive multiply-adds from global memory. Each block passes its strips of M and N once
// through shared memory and writes what it read back to global memory in place, so
// a run that replaces values on that path sees them in global memory; the multiply-adds never read shared memory.
#include <tilelab/labs.hpp>

#define THREADS COARSENED_THREADS
#define TILE COARSENED_BLOCK_TILE

__global__ void matmul_coarsened_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float buf[THREADS];
    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * TILE, tile_col = blockIdx.x * TILE;
    float* Mw = const_cast<float*>(M);
    float* Nw = const_cast<float*>(N);
    // M's strip: rows tile_row.., every column; N's strip: every row, columns tile_col..
    const int m_rows = min(TILE, rows - tile_row);
    const int n_cols = min(TILE, cols - tile_col);
    {
        const bool vec = inner % 4 == 0;
        for (int e = t * 1; e < m_rows * inner; e += THREADS * 1) {
            const int i = tile_row * inner + e;
            const float* src = M; float* dst = Mw; const int limit = (tile_row + m_rows) * inner;
        buf[t] = src[i];
        dst[i] = buf[t];
        }
    }
    {
        const int per_row = (n_cols + 1 - 1) / 1;
        const bool vec = cols % 4 == 0 && tile_col % 4 == 0;
        for (int e = t; e < inner * per_row; e += THREADS) {
            const int k = e / per_row, c = (e % per_row) * 1;
            const int i = k * cols + tile_col + c;
            const float* src = N; float* dst = Nw; const int limit = k * cols + tile_col + n_cols;
        buf[t] = src[i];
        dst[i] = buf[t];
        }
    }
    __syncthreads();
    for (int e = t; e < TILE * TILE; e += THREADS) {
        const int r = tile_row + e / TILE, c = tile_col + e % TILE;
        if (r >= rows || c >= cols) continue;
        float sum = 0.0f;
        for (int k = 0; k < inner; ++k) sum += M[r * inner + k] * N[k * cols + c];
        P[r * cols + c] = sum;
    }
}

void matmul_coarsened(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(THREADS);
    const dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    matmul_coarsened_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
