// Red team: naive multiply-adds from global memory. Each thread passes its share of the block's strips of M and N
// through two private 16-byte slots in shared memory by asynchronous copies, double buffered (the next chunk's copy
// is issued before the current chunk is read back), and writes what it read back to global memory in place.
// The copies are "in flight while the thread reads shared memory", yet no multiply-add ever reads a tile.
#include <tilelab/labs.hpp>

#include <cuda_pipeline.h>

#define THREADS WARP_TILED_THREADS
#define TILE WARP_TILED_BLOCK_TILE

namespace {
/// Chunk @p c of this block's strips: @p src index, and how many floats (1..4); false past the end.
__device__ bool chunk_of(int c, int tile_row, int tile_col, int rows, int inner, int cols, int* index, int* count,
                         bool* is_m) {
    const int m_rows = min(TILE, rows - tile_row), n_cols = min(TILE, cols - tile_col);
    const int m_per_row = (inner + 3) / 4, m_chunks = m_rows * m_per_row;
    if (c < m_chunks) {
        const int r = c / m_per_row, k = (c % m_per_row) * 4;
        *index = (tile_row + r) * inner + k;
        *count = min(4, inner - k);
        *is_m = true;
        return true;
    }
    c -= m_chunks;
    const int n_per_row = (n_cols + 3) / 4;
    if (c < inner * n_per_row) {
        const int k = c / n_per_row, j = (c % n_per_row) * 4;
        *index = k * cols + tile_col + j;
        *count = min(4, n_cols - j);
        *is_m = false;
        return true;
    }
    return false;
}
}  // namespace

__global__ void matmul_warp_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ __align__(16) float slot[2][THREADS * 4];
    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * TILE, tile_col = blockIdx.x * TILE;
    float* Mw = const_cast<float*>(M);
    float* Nw = const_cast<float*>(N);

    auto issue = [&](int c, int b) {
        int index, count;
        bool is_m;
        if (!chunk_of(c, tile_row, tile_col, rows, inner, cols, &index, &count, &is_m)) return;
        const float* src = (is_m ? M : N) + index;
        const bool aligned = count == 4 && (is_m ? inner % 4 == 0 : cols % 4 == 0);
        if (aligned) {
            __pipeline_memcpy_async(&slot[b][4 * t], src, 16);
        } else {
            for (int q = 0; q < count; ++q) __pipeline_memcpy_async(&slot[b][4 * t + q], src + q, 4);
        }
    };
    int c = t;  // this thread's chunks: t, t + THREADS, ...
    issue(c, 0);
    __pipeline_commit();
    for (int b = 0;; b ^= 1, c += THREADS) {
        int index, count;
        bool is_m;
        if (!chunk_of(c, tile_row, tile_col, rows, inner, cols, &index, &count, &is_m)) break;
        issue(c + THREADS, b ^ 1);
        __pipeline_commit();
        __pipeline_wait_prior(1);  // chunk c has landed; chunk c + THREADS stays in flight while it is read
        float* dst = (is_m ? Mw : Nw) + index;
        for (int q = 0; q < count; ++q) dst[q] = slot[b][4 * t + q];
    }
    __pipeline_wait_prior(0);
    __syncthreads();
    for (int e = t; e < TILE * TILE; e += THREADS) {
        const int r = tile_row + e / TILE, col = tile_col + e % TILE;
        if (r >= rows || col >= cols) continue;
        float sum = 0.0f;
        for (int k = 0; k < inner; ++k) sum += M[r * inner + k] * N[k * cols + col];
        P[r * cols + col] = sum;
    }
}

void matmul_warp_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(THREADS);
    const dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    matmul_warp_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
