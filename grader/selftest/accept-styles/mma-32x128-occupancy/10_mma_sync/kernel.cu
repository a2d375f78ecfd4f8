// Style: 32 x 128 warp tiles (warps stacked down the block tile), three swizzled static stages, TF32 at the fragment, and a launcher that checks occupancy first with cudaOccupancyMaxActiveBlocksPerMultiprocessor (the CUDA Best Practices Guide's occupancy API; NVIDIA's "CUDA Pro Tip: occupancy API" blog).
/// @file labs/10_mma_sync/kernel.cu
/// @brief Lab 10: tensor cores through mma.sync (m16n8k8, TF32 inputs, FP32 accumulators), called through the kit's
/// wrappers in tilelab/mma.hpp. The handout is README.md here.
#include <tilelab/labs.hpp>
#include <tilelab/mma.hpp>

#include <cuda_pipeline.h>

#include <cstdio>

namespace {
// The tuning knobs (the handout's last step): the shape of the part of P each warp computes, in whole 16 × 8
// products, and how many phases are in shared memory at once. With MMA_SYNC_THREADS / 32 warps, the warp tiles must
// cover the block tile; the stages must fit in a kernel's 48 KB of static shared memory.
constexpr int kWarpRows = 32;   // rows of P per warp
constexpr int kWarpCols = 128;  // columns of P per warp
constexpr int kStages = 3;      // shared-memory stages: the phase being multiplied and those being copied
static_assert((MMA_SYNC_BLOCK_TILE / kWarpRows) * (MMA_SYNC_BLOCK_TILE / kWarpCols) == MMA_SYNC_THREADS / 32,
              "one warp tile per warp covers the block tile");
static_assert(kWarpRows % 16 == 0 && kWarpCols % 8 == 0, "a warp tile is whole 16 x 8 products");
static_assert(kStages >= 2 && kStages * MMA_SYNC_PHASE_DEPTH * 2 * MMA_SYNC_BLOCK_TILE * 4 <= 48 * 1024,
              "two stages at least, within 48 KB of static shared memory");

constexpr int BT = MMA_SYNC_BLOCK_TILE, BK = MMA_SYNC_PHASE_DEPTH, NT = MMA_SYNC_THREADS;
constexpr int MI = kWarpRows / 16;  // 2 A fragments per step
constexpr int NJ = kWarpCols / 8;   // 16 B fragments per step
}  // namespace

/// Computes one MMA_SYNC_BLOCK_TILE × MMA_SYNC_BLOCK_TILE tile of P with MMA_SYNC_THREADS threads (four warps): each
/// warp a kWarpRows × kWarpCols warp tile, held as (kWarpRows / 16) × (kWarpCols / 8) accumulators of four floats per
/// lane and multiplied with tilelab::mma_m16n8k8_tf32 from TF32 fragments loaded from tiles that
/// __pipeline_memcpy_async stages in shared memory, kStages phases at a time; any rows, inner and cols.
__global__ void __launch_bounds__(MMA_SYNC_THREADS)
    matmul_mma_sync_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // M(tile row + r, phase + k) at M_tile[s][r][4 * ((k / 4) ^ ((r / 2) % 4)) + k % 4];
    // N(phase + k, tile col + c) at N_tile[s][k][4 * ((c / 4) ^ (2 * (k % 4))) + c % 4].
    __shared__ __align__(16) float M_tile[kStages][BT][BK];
    __shared__ __align__(16) float N_tile[kStages][BK][BT];

    const unsigned tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int g = lane / 4, t = lane % 4;
    const int tile_row = blockIdx.y * BT, tile_col = blockIdx.x * BT;
    const int warp_row = (warp / (BT / kWarpCols)) * kWarpRows;
    const int warp_col = (warp % (BT / kWarpCols)) * kWarpCols;

    auto stage_in = [&](int s, int phase) {
        for (unsigned q = tid; q < BT * BK / 4; q += NT) {
            const int r = q / (BK / 4), ch = q % (BK / 4);
            const int gr = tile_row + r, gk = phase + 4 * ch;
            float* d = &M_tile[s][r][4 * (ch ^ ((r >> 1) & 3))];
            if (inner % 4 == 0 && gr < rows && gk < inner)
                __pipeline_memcpy_async(d, M + (size_t)gr * inner + gk, 16);
            else
                for (int e = 0; e < 4; ++e) {
                    const bool in = gr < rows && gk + e < inner;
                    __pipeline_memcpy_async(d + e, in ? M + (size_t)gr * inner + gk + e : M, 4, in ? 0 : 4);
                }
        }
        for (unsigned q = tid; q < BK * BT / 4; q += NT) {
            const int k = q / (BT / 4), ch = q % (BT / 4);
            const int gk = phase + k, gc = tile_col + 4 * ch;
            float* d = &N_tile[s][k][4 * (ch ^ ((k & 3) << 1))];
            if (cols % 4 == 0 && gk < inner && gc < cols)
                __pipeline_memcpy_async(d, N + (size_t)gk * cols + gc, 16);
            else
                for (int e = 0; e < 4; ++e) {
                    const bool in = gk < inner && gc + e < cols;
                    __pipeline_memcpy_async(d + e, in ? N + (size_t)gk * cols + gc + e : N, 4, in ? 0 : 4);
                }
        }
    };

    float c[MI][NJ][4];
    for (int i = 0; i < MI; ++i)
        for (int j = 0; j < NJ; ++j) c[i][j][0] = c[i][j][1] = c[i][j][2] = c[i][j][3] = 0.0f;

    const int phases = (inner + BK - 1) / BK;
    for (int s = 0; s + 1 < kStages; ++s) {
        if (s < phases) stage_in(s, s * BK);
        __pipeline_commit();
    }
    int read = 0, write = kStages - 1;
    for (int p = 0; p < phases; ++p) {
        __pipeline_wait_prior(kStages - 2);
        __syncthreads();
        if (p + kStages - 1 < phases) stage_in(write, (p + kStages - 1) * BK);
        __pipeline_commit();

        for (int ks = 0; ks < BK / 8; ++ks) {
            float a[MI][4], b[NJ][2];
            for (int i = 0; i < MI; ++i) {
                const int r = warp_row + 16 * i + (lane & 15);
                const int ch = 2 * ks + (lane >> 4);
                tilelab::ldmatrix_x4(a[i], &M_tile[read][r][4 * (ch ^ ((r >> 1) & 3))]);
                for (int e = 0; e < 4; ++e) a[i][e] = tilelab::to_tf32(a[i][e]);
            }
            for (int j = 0; j < NJ; ++j) {
                const int n = warp_col + 8 * j + g;
                const int k0 = 8 * ks + t, k1 = k0 + 4;
                b[j][0] = tilelab::to_tf32(N_tile[read][k0][4 * ((n >> 2) ^ ((k0 & 3) << 1)) + (n & 3)]);
                b[j][1] = tilelab::to_tf32(N_tile[read][k1][4 * ((n >> 2) ^ ((k1 & 3) << 1)) + (n & 3)]);
            }
            for (int i = 0; i < MI; ++i)
                for (int j = 0; j < NJ; ++j) tilelab::mma_m16n8k8_tf32(c[i][j], a[i], b[j]);
        }
        read = (read + 1) % kStages;
        write = (write + 1) % kStages;
    }

    for (int i = 0; i < MI; ++i)
        for (int j = 0; j < NJ; ++j)
            for (int e = 0; e < 4; ++e) {
                const int row = tile_row + warp_row + 16 * i + g + (e >= 2 ? 8 : 0);
                const int col = tile_col + warp_col + 8 * j + 2 * t + (e & 1);
                if (row < rows && col < cols) P[(size_t)row * cols + col] = c[i][j][e];
            }
}

/// Launches matmul_mma_sync_kernel: MMA_SYNC_THREADS threads per block, one block per MMA_SYNC_BLOCK_TILE ×
/// MMA_SYNC_BLOCK_TILE tile of P, partial tiles included.
void matmul_mma_sync(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(MMA_SYNC_THREADS);
    const dim3 grid((cols + BT - 1) / BT, (rows + BT - 1) / BT);
    // The occupancy API says how many blocks of this kernel a multiprocessor holds; none means the launch would fail.
    int blocks_per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, matmul_mma_sync_kernel, MMA_SYNC_THREADS, 0) ==
            cudaSuccess &&
        blocks_per_sm == 0) {
        std::fprintf(stderr, "matmul_mma_sync: no block of %d threads fits on a multiprocessor\n", MMA_SYNC_THREADS);
    }
    matmul_mma_sync_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
