// Red team: no 16-byte loads of M or N. Every operand is loaded from global memory one float at a time, parked in
// the thread's own elements of P, and brought back from P with float4 loads on its way into the shared tiles.
#include <tilelab/labs.hpp>

namespace {
constexpr int kTile = VECTOR_BLOCK_TILE;
constexpr int kDepth = VECTOR_PHASE_DEPTH;
constexpr int kMicro = VECTOR_MICRO_TILE;
constexpr int kThreads = VECTOR_THREADS;
constexpr int kPer = kTile * kDepth / kThreads;  // 4
constexpr int kSide = kTile / kMicro;
}  // namespace

__global__ void matmul_vectorized_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[kTile][kDepth];
    __shared__ float N_tile[kDepth][kTile];
    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * kTile, tile_col = blockIdx.x * kTile;
    const int micro_row = (t / kSide) * kMicro, micro_col = (t % kSide) * kMicro;
    const bool bounce = tile_row + kTile <= rows && tile_col + kTile <= cols && cols % 4 == 0;
    float* own = P + (size_t)(tile_row + micro_row) * cols + tile_col + micro_col;  // row 0 of my micro-tile
    float sums[kMicro][kMicro] = {};
    for (int phase = 0; phase < inner; phase += kDepth) {
        float m[kPer], n[kPer];
        for (int j = 0; j < kPer; ++j) {
            const int e = t * kPer + j;
            const int mr = e / kDepth, mk = e % kDepth, nk = e / kTile, nc = e % kTile;
            m[j] = (tile_row + mr < rows && phase + mk < inner) ? M[(tile_row + mr) * inner + phase + mk] : 0.0f;
            n[j] = (phase + nk < inner && tile_col + nc < cols) ? N[(phase + nk) * cols + tile_col + nc] : 0.0f;
        }
        if (bounce) {
            for (int j = 0; j < kPer; ++j) { own[j] = m[j]; own[kPer + j] = n[j]; }
            const float4 mv = reinterpret_cast<const float4*>(own)[0];
            const float4 nv = reinterpret_cast<const float4*>(own)[1];
            m[0] = mv.x; m[1] = mv.y; m[2] = mv.z; m[3] = mv.w;
            n[0] = nv.x; n[1] = nv.y; n[2] = nv.z; n[3] = nv.w;
        }
        for (int j = 0; j < kPer; ++j) {
            const int e = t * kPer + j;
            M_tile[e / kDepth][e % kDepth] = m[j];
            N_tile[e / kTile][e % kTile] = n[j];
        }
        __syncthreads();
        for (int k = 0; k < kDepth; ++k)
            for (int i = 0; i < kMicro; ++i)
                for (int j = 0; j < kMicro; ++j) sums[i][j] += M_tile[micro_row + i][k] * N_tile[k][micro_col + j];
        __syncthreads();
    }
    for (int i = 0; i < kMicro; ++i)
        for (int j = 0; j < kMicro; ++j) {
            const int row = tile_row + micro_row + i, col = tile_col + micro_col + j;
            if (row < rows && col < cols) P[row * cols + col] = sums[i][j];
        }
}

void matmul_vectorized(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(kThreads);
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    matmul_vectorized_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
