// Red team: mma.sync multiplies nothing of P. Each phase's tiles go through mma.sync against identity matrices (so
// the accumulators come out as the tiles themselves, TF32-rounded), repeated so that the count of mma.sync
// multiply-adds matches a real kernel's; every product of P is then a scalar multiply-add.
#include <tilelab/labs.hpp>
#include <tilelab/mma.hpp>

namespace {
constexpr int kTile = MMA_SYNC_BLOCK_TILE;    // 128
constexpr int kDepth = MMA_SYNC_PHASE_DEPTH;  // 16
constexpr int kThreads = MMA_SYNC_THREADS;    // 128
constexpr int kRepeatM = 8, kRepeatN = 4;
}  // namespace

__global__ void matmul_mma_sync_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_stage[kTile][kDepth];
    __shared__ float N_stage[kDepth][kTile];
    __shared__ float M_plain[kDepth][kTile];
    __shared__ float N_plain[kDepth][kTile];
    const int t = threadIdx.x, warp = t / 32, lane = t % 32, g = lane / 4, q = lane % 4;
    const int tile_row = blockIdx.y * kTile, tile_col = blockIdx.x * kTile;
    const int out_row = (t / 16) * 16, out_col = (t % 16) * 8;
    float sums[16][8] = {};
    for (int phase = 0; phase < inner; phase += kDepth) {
        for (int e = t; e < kTile * kDepth; e += kThreads) {
            const int mr = e / kDepth, mk = e % kDepth, nk = e / kTile, nc = e % kTile;
            M_stage[mr][mk] = (tile_row + mr < rows && phase + mk < inner) ? M[(tile_row + mr) * inner + phase + mk] : 0.0f;
            N_stage[nk][nc] = (phase + nk < inner && tile_col + nc < cols) ? N[(phase + nk) * cols + tile_col + nc] : 0.0f;
        }
        __syncthreads();
        for (int c = warp * 4; c < warp * 4 + 4; ++c) {  // 16 chunks of M, 16 x 8 each
            const int r0 = (c / 2) * 16, k0 = (c % 2) * 8;
            const float a[4] = {tilelab::to_tf32(M_stage[r0 + g][k0 + q]), tilelab::to_tf32(M_stage[r0 + g + 8][k0 + q]),
                                tilelab::to_tf32(M_stage[r0 + g][k0 + q + 4]), tilelab::to_tf32(M_stage[r0 + g + 8][k0 + q + 4])};
            const float b[2] = {q == g ? 1.0f : 0.0f, q + 4 == g ? 1.0f : 0.0f};
            float d[4];
            for (int rep = 0; rep < kRepeatM; ++rep) {
                d[0] = d[1] = d[2] = d[3] = 0.0f;
                tilelab::mma_m16n8k8_tf32(d, a, b);
            }
            M_plain[k0 + 2 * q][r0 + g] = d[0];
            M_plain[k0 + 2 * q + 1][r0 + g] = d[1];
            M_plain[k0 + 2 * q][r0 + g + 8] = d[2];
            M_plain[k0 + 2 * q + 1][r0 + g + 8] = d[3];
        }
        for (int c = warp * 8; c < warp * 8 + 8; ++c) {  // 32 chunks of N, 8 x 8 each
            const int k0 = (c / 16) * 8, n0 = (c % 16) * 8;
            const float a[4] = {g == q ? 1.0f : 0.0f, 0.0f, g == q + 4 ? 1.0f : 0.0f, 0.0f};
            const float b[2] = {tilelab::to_tf32(N_stage[k0 + q][n0 + g]), tilelab::to_tf32(N_stage[k0 + q + 4][n0 + g])};
            float d[4];
            for (int rep = 0; rep < kRepeatN; ++rep) {
                d[0] = d[1] = d[2] = d[3] = 0.0f;
                tilelab::mma_m16n8k8_tf32(d, a, b);
            }
            N_plain[k0 + g][n0 + 2 * q] = d[0];
            N_plain[k0 + g][n0 + 2 * q + 1] = d[1];
        }
        __syncthreads();
        for (int k = 0; k < kDepth; ++k)
            for (int i = 0; i < 16; ++i)
                for (int j = 0; j < 8; ++j) sums[i][j] += M_plain[k][out_row + i] * N_plain[k][out_col + j];
        __syncthreads();
    }
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 8; ++j) {
            const int row = tile_row + out_row + i, col = tile_col + out_col + j;
            if (row < rows && col < cols) P[row * cols + col] = sums[i][j];
        }
}

void matmul_mma_sync(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(kThreads);
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    matmul_mma_sync_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
