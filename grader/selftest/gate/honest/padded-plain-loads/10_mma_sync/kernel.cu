// Gate calibration, honest variant "padded-plain-loads" (lab 10): mma.sync m16n8k8 on TF32 fragments, written
// otherwise than the model: tiles padded instead of swizzled (M_tile's rows 20 floats, N_tile's 136, so that A's and
// B's fragment loads each hit 32 different banks), every fragment register a plain 4-byte load (no ldmatrix), two
// stages of asynchronous copies (16 bytes where a row allows), one copy loop with its bounds tests for every block, and 128 x 32 warp tiles. It
// does lab 10's idea (each lane loads the documented layout itself and reuses each fragment across its warp tile), so
// it must pass every check, the gate included.
#include <tilelab/labs.hpp>
#include <tilelab/mma.hpp>

#include <cuda_pipeline.h>

namespace {
constexpr int kTile = MMA_SYNC_BLOCK_TILE, kDepth = MMA_SYNC_PHASE_DEPTH, kThreads = MMA_SYNC_THREADS;
constexpr int kWarpRows = 128, kWarpCols = 32;  // four warps side by side, each all of the block tile's rows
constexpr int kStages = 2;
constexpr int kLdM = kDepth + 4;  // 20: rows g of a fragment 20 words apart, 8 of them in 8 distinct groups of 4 banks
constexpr int kLdN = kTile + 8;   // 136: rows t of a fragment 8 banks apart, 4 of them covering 32 banks
constexpr int kRowsOfA = kWarpRows / 16, kColsOfB = kWarpCols / 8;
static_assert((kTile / kWarpRows) * (kTile / kWarpCols) == kThreads / 32, "the warp tiles cover the block tile");
static_assert(kStages * (kTile * kLdM + kDepth * kLdN) * 4 <= 48 * 1024, "within 48 KB of static shared memory");
}  // namespace

/// One block per kTile × kTile tile of P; warp w the kWarpRows × kWarpCols strip at column w · kWarpCols.
__global__ void __launch_bounds__(MMA_SYNC_THREADS, 2)
    matmul_mma_sync_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ __align__(16) float M_tile[kStages][kTile][kLdM];
    __shared__ __align__(16) float N_tile[kStages][kDepth][kLdN];
    const int tile_row = blockIdx.y * kTile, tile_col = blockIdx.x * kTile;
    const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    const int warp_col = (threadIdx.x / 32) * kWarpCols;

    // The phase starting at k0 into stage s: 16-byte copies of four elements where the row allows (its length a
    // multiple of 4, the four inside), else four 4-byte copies, zero-filled outside M or N.
    auto copy_four = [&](auto to, const float* from, bool vector, int inside) {
        if (vector && inside == 4) {
            __pipeline_memcpy_async(to, from, 16);
            return;
        }
        for (int x = 0; x < 4; ++x)
            __pipeline_memcpy_async(to + x, x < inside ? from + x : from, 4, x < inside ? 0 : 4);
    };
    auto copy = [&](int s, int k0) {
        for (int q = threadIdx.x; q < kTile * kDepth / 4; q += kThreads) {
            const int r = q / (kDepth / 4), k = 4 * (q % (kDepth / 4));
            const int m_inside = tile_row + r < rows ? min(4, max(0, inner - (k0 + k))) : 0;
            copy_four(&M_tile[s][r][k], m_inside > 0 ? M + static_cast<long long>(tile_row + r) * inner + k0 + k : M,
                      inner % 4 == 0, m_inside);
            const int kn = q / (kTile / 4), c = 4 * (q % (kTile / 4));
            const int n_inside = k0 + kn < inner ? min(4, max(0, cols - (tile_col + c))) : 0;
            copy_four(&N_tile[s][kn][c], n_inside > 0 ? N + static_cast<long long>(k0 + kn) * cols + tile_col + c : N,
                      cols % 4 == 0, n_inside);
        }
    };

    float acc[kRowsOfA][kColsOfB][4] = {};
    const int phases = (inner + kDepth - 1) / kDepth;
    copy(0, 0);
    __pipeline_commit();
    for (int p = 0; p < phases; ++p) {
        const int s = p % kStages;
        __pipeline_wait_prior(0);
        __syncthreads();  // this phase's copies have landed everywhere; every warp is done with the other stage
        if (p + 1 < phases) copy((p + 1) % kStages, (p + 1) * kDepth);
        __pipeline_commit();
        for (int k = 0; k < kDepth; k += 8) {
            float b[kColsOfB][2];
            for (int j = 0; j < kColsOfB; ++j) {
                b[j][0] = tilelab::to_tf32(N_tile[s][k + t][warp_col + 8 * j + g]);
                b[j][1] = tilelab::to_tf32(N_tile[s][k + t + 4][warp_col + 8 * j + g]);
            }
            for (int i = 0; i < kRowsOfA; ++i) {
                const int r = 16 * i + g;
                const float a[4] = {tilelab::to_tf32(M_tile[s][r][k + t]), tilelab::to_tf32(M_tile[s][r + 8][k + t]),
                                    tilelab::to_tf32(M_tile[s][r][k + t + 4]),
                                    tilelab::to_tf32(M_tile[s][r + 8][k + t + 4])};
                for (int j = 0; j < kColsOfB; ++j) tilelab::mma_m16n8k8_tf32(acc[i][j], a, b[j]);
            }
        }
    }
    // Lane (g, t) holds P(g, 2t), P(g, 2t + 1) and the same 8 rows down, of each 16 x 8 product.
    for (int i = 0; i < kRowsOfA; ++i)
        for (int j = 0; j < kColsOfB; ++j)
            for (int e = 0; e < 4; ++e) {
                const int row = tile_row + 16 * i + g + 8 * (e / 2), col = tile_col + warp_col + 8 * j + 2 * t + e % 2;
                if (row < rows && col < cols) P[static_cast<long long>(row) * cols + col] = acc[i][j][e];
            }
}

/// One block of MMA_SYNC_THREADS threads per MMA_SYNC_BLOCK_TILE² tile of P.
void matmul_mma_sync(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 grid((cols + MMA_SYNC_BLOCK_TILE - 1) / MMA_SYNC_BLOCK_TILE,
                    (rows + MMA_SYNC_BLOCK_TILE - 1) / MMA_SYNC_BLOCK_TILE);
    matmul_mma_sync_kernel<<<grid, MMA_SYNC_THREADS>>>(M, N, P, rows, inner, cols);
}
