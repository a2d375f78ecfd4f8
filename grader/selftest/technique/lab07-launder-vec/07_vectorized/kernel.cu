// Red team (vec launder): naive multiply-adds from global memory. Each block passes its strips of M and N once
// through shared memory by 16-byte loads, stores and reads and writes what it read back to global memory in place, so
// a run that replaces values on that path sees them in global memory; the multiply-adds never read shared memory.
#include <tilelab/labs.hpp>

#define THREADS VECTOR_THREADS
#define TILE VECTOR_BLOCK_TILE

__global__ void matmul_vectorized_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ __align__(16) float buf[4 * THREADS];
    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * TILE, tile_col = blockIdx.x * TILE;
    float* Mw = const_cast<float*>(M);
    float* Nw = const_cast<float*>(N);
    // M's strip: rows tile_row.., every column; N's strip: every row, columns tile_col..
    const int m_rows = min(TILE, rows - tile_row);
    const int n_cols = min(TILE, cols - tile_col);
    {
        const bool vec = inner % 4 == 0;
        for (int e = t * 4; e < m_rows * inner; e += THREADS * 4) {
            const int i = tile_row * inner + e;
            const float* src = M; float* dst = Mw; const int limit = (tile_row + m_rows) * inner;
        if (vec && i + 3 < limit) {
            const float4 v = *reinterpret_cast<const float4*>(src + i);
            *reinterpret_cast<float4*>(&buf[4 * t]) = v;
            const float4 w = *reinterpret_cast<const float4*>(&buf[4 * t]);
            dst[i] = w.x; dst[i + 1] = w.y; dst[i + 2] = w.z; dst[i + 3] = w.w;
        } else {
            for (int q = 0; q < 4 && i + q < limit; ++q) { buf[4 * t + q] = src[i + q]; dst[i + q] = buf[4 * t + q]; }
        }
        }
    }
    {
        const int per_row = (n_cols + 4 - 1) / 4;
        const bool vec = cols % 4 == 0 && tile_col % 4 == 0;
        for (int e = t; e < inner * per_row; e += THREADS) {
            const int k = e / per_row, c = (e % per_row) * 4;
            const int i = k * cols + tile_col + c;
            const float* src = N; float* dst = Nw; const int limit = k * cols + tile_col + n_cols;
        if (vec && i + 3 < limit) {
            const float4 v = *reinterpret_cast<const float4*>(src + i);
            *reinterpret_cast<float4*>(&buf[4 * t]) = v;
            const float4 w = *reinterpret_cast<const float4*>(&buf[4 * t]);
            dst[i] = w.x; dst[i + 1] = w.y; dst[i + 2] = w.z; dst[i + 3] = w.w;
        } else {
            for (int q = 0; q < 4 && i + q < limit; ++q) { buf[4 * t + q] = src[i + q]; dst[i + q] = buf[4 * t + q]; }
        }
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

void matmul_vectorized(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(THREADS);
    const dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    matmul_vectorized_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
