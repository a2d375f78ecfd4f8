// Red team: no register tiles. Each thread passes its staged values through its own shared slots once, parks them
// in its own elements of P (global memory), and every multiply-add reads both operands back from P.
#include <tilelab/labs.hpp>

namespace {
constexpr int kTile = REGISTER_BLOCK_TILE;
constexpr int kDepth = REGISTER_PHASE_DEPTH;
constexpr int kMicro = REGISTER_MICRO_TILE;
constexpr int kThreads = REGISTER_THREADS;
constexpr int kPer = kTile * kDepth / kThreads;  // elements of each tile a thread stages (4)
constexpr int kSide = kTile / kMicro;            // micro-tiles per side (16)
}  // namespace

__global__ void matmul_register_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[kTile][kDepth];
    __shared__ float N_tile[kDepth][kTile];
    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * kTile, tile_col = blockIdx.x * kTile;
    const int micro_row = (t / kSide) * kMicro, micro_col = (t % kSide) * kMicro;
    const bool whole = tile_row + kTile <= rows && tile_col + kTile <= cols;
    float* park = P + (size_t)tile_row * cols + tile_col;
    // Thread u parks its j-th value in row 0 of its micro-tile, column j.
    auto slot = [&](int u, int j) { return park + (size_t)((u / kSide) * kMicro) * cols + (u % kSide) * kMicro + j; };
    float sums[kMicro][kMicro] = {};
    for (int phase = 0; phase < inner; phase += kDepth) {
        for (int j = 0; j < kPer; ++j) {
            const int e = t * kPer + j;
            const int mr = e / kDepth, mk = e % kDepth;
            const int nk = e / kTile, nc = e % kTile;
            M_tile[mr][mk] = (tile_row + mr < rows && phase + mk < inner) ? M[(tile_row + mr) * inner + phase + mk] : 0.0f;
            N_tile[nk][nc] = (phase + nk < inner && tile_col + nc < cols) ? N[(phase + nk) * cols + tile_col + nc] : 0.0f;
            if (whole) {
                *slot(t, j) = M_tile[mr][mk];
                *slot(t, kPer + j) = N_tile[nk][nc];
            }
        }
        __syncthreads();
        for (int k = 0; k < kDepth; ++k)
            for (int i = 0; i < kMicro; ++i)
                for (int j = 0; j < kMicro; ++j) {
                    const int me = (micro_row + i) * kDepth + k, ne = k * kTile + micro_col + j;
                    sums[i][j] += whole ? *slot(me / kPer, me % kPer) * *slot(ne / kPer, kPer + ne % kPer)
                                        : M_tile[micro_row + i][k] * N_tile[k][micro_col + j];
                }
        __syncthreads();
    }
    for (int i = 0; i < kMicro; ++i)
        for (int j = 0; j < kMicro; ++j) {
            const int row = tile_row + micro_row + i, col = tile_col + micro_col + j;
            if (row < rows && col < cols) P[row * cols + col] = sums[i][j];
        }
}

void matmul_register_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(kThreads);
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    matmul_register_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
