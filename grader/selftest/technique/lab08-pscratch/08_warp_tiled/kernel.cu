// Red team: the asynchronous copies do not feed the multiply-adds from shared memory. Each thread copies its own
// elements into its own private slots (double buffered, issued a phase ahead), reads back only its own slots, parks
// the values in its own elements of P, and every multiply-add reads both operands from P (global memory).
#include <tilelab/labs.hpp>

#include <cuda_pipeline.h>

namespace {
constexpr int kTile = WARP_TILED_BLOCK_TILE;    // 128
constexpr int kDepth = WARP_TILED_PHASE_DEPTH;  // 16
constexpr int kMicro = WARP_TILED_MICRO_TILE;   // 8
constexpr int kThreads = WARP_TILED_THREADS;    // 256
constexpr int kPer = kTile * kDepth / kThreads; // 8
constexpr int kSide = kTile / kMicro;           // 16
}  // namespace

__global__ void matmul_warp_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_stage[2][kTile * kDepth];
    __shared__ float N_stage[2][kTile * kDepth];
    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * kTile, tile_col = blockIdx.x * kTile;
    const int micro_row = (t / kSide) * kMicro, micro_col = (t % kSide) * kMicro;
    const bool whole = tile_row + kTile <= rows && tile_col + kTile <= cols;
    float* park = P + (size_t)tile_row * cols + tile_col;
    auto slot = [&](int e, int which) {
        const int u = e / kPer, j = e % kPer;
        return park + (size_t)((u / kSide) * kMicro + which) * cols + (u % kSide) * kMicro + j;
    };
    auto issue = [&](int phase, int s) {
        for (int j = 0; j < kPer; ++j) {
            const int e = t * kPer + j;
            const int mr = e / kDepth, mk = e % kDepth, nk = e / kTile, nc = e % kTile;
            if (tile_row + mr < rows && phase + mk < inner)
                __pipeline_memcpy_async(&M_stage[s][e], M + (tile_row + mr) * inner + phase + mk, 4);
            else M_stage[s][e] = 0.0f;
            if (phase + nk < inner && tile_col + nc < cols)
                __pipeline_memcpy_async(&N_stage[s][e], N + (phase + nk) * cols + tile_col + nc, 4);
            else N_stage[s][e] = 0.0f;
        }
        __pipeline_commit();
    };
    float sums[kMicro][kMicro] = {};
    issue(0, 0);
    for (int phase = 0, s = 0; phase < inner; phase += kDepth, s ^= 1) {
        if (phase + kDepth < inner) {
            issue(phase + kDepth, s ^ 1);
            __pipeline_wait_prior(1);
        } else {
            __pipeline_wait_prior(0);
        }
        if (whole)
            for (int j = 0; j < kPer; ++j) {
                const int e = t * kPer + j;
                *slot(e, 0) = M_stage[s][e];
                *slot(e, 1) = N_stage[s][e];
            }
        __syncthreads();
        for (int k = 0; k < kDepth; ++k)
            for (int i = 0; i < kMicro; ++i)
                for (int j = 0; j < kMicro; ++j) {
                    const int me = (micro_row + i) * kDepth + k, ne = k * kTile + micro_col + j;
                    sums[i][j] += whole ? *slot(me, 0) * *slot(ne, 1) : M_stage[s][me] * N_stage[s][ne];
                }
        __syncthreads();
    }
    for (int i = 0; i < kMicro; ++i)
        for (int j = 0; j < kMicro; ++j) {
            const int row = tile_row + micro_row + i, col = tile_col + micro_col + j;
            if (row < rows && col < cols) P[row * cols + col] = sums[i][j];
        }
}

void matmul_warp_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(kThreads);
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    matmul_warp_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
