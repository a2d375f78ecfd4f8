// Style: wmma with a col_major matrix_b: N's tile staged transposed (N_tile_T[c][k]) by 4-byte asynchronous copies, 32 x 64 warp tiles (4 down, 2 across), as the CUDA Programming Guide's wmma example declares b col_major.
/// @file labs/09_tensor_cores/kernel.cu
/// @brief Lab 09: tensor cores through CUDA's warp matrix functions (nvcuda::wmma, TF32 inputs, FP32 accumulators).
/// The handout is README.md here.
#include <tilelab/labs.hpp>

#include <cuda_pipeline.h>
#include <mma.h>

#include <cstdint>

using namespace nvcuda;

namespace {
// The tuning knob (the handout's last step): the shape of the part of P each warp computes, in whole 16 × 16
// accumulator fragments. With TENSOR_CORE_THREADS / 32 warps, the warp tiles must cover the block tile.
constexpr int kWarpRows = 32;  // rows of P per warp
constexpr int kWarpCols = 64;  // columns of P per warp
static_assert((TENSOR_CORE_BLOCK_TILE / kWarpRows) * (TENSOR_CORE_BLOCK_TILE / kWarpCols) == TENSOR_CORE_THREADS / 32,
              "one warp tile per warp covers the block tile");
static_assert(kWarpRows % 16 == 0 && kWarpCols % 16 == 0, "a warp tile is whole 16 x 16 accumulator fragments");

constexpr int BT = TENSOR_CORE_BLOCK_TILE;                  // 128
constexpr int BK = TENSOR_CORE_PHASE_DEPTH;                 // 16
constexpr int LD = BK + TENSOR_CORE_SHARED_PADDING;         // 20: both tiles are BT rows of BK (+ padding)
constexpr int NT = TENSOR_CORE_THREADS;                     // 256
constexpr int FR = kWarpRows / 16, FC = kWarpCols / 16;     // fragments per warp: 2 x 4
constexpr int GROUPS = BT * BK / (4 * NT);                  // groups of four per tile per thread: 2
static_assert(2 * (2 * BT * LD) * 4 + (NT / 32) * 256 * 4 <= 48 * 1024, "two stages and the scratch fit");
}  // namespace

/// Computes one TENSOR_CORE_BLOCK_TILE × TENSOR_CORE_BLOCK_TILE tile of P with TENSOR_CORE_THREADS threads (eight
/// warps): each warp a kWarpRows × kWarpCols warp tile, held in m16n16k8 float accumulator fragments and
/// multiplied on tensor cores from TF32 fragments of tiles that __pipeline_memcpy_async stages in shared memory,
/// double buffered; any rows, inner and cols.
__global__ void matmul_tensor_core_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ __align__(32) float M_tile[2][BT][LD];    // M_tile[s][r][k]   = M(tile row + r, phase + k)
    __shared__ __align__(32) float N_tile_T[2][BT][LD];  // N_tile_T[s][c][k] = N(phase + k, tile col + c)
    __shared__ __align__(32) float scratch[NT / 32][16 * 16];

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int tile_row = blockIdx.y * BT, tile_col = blockIdx.x * BT;
    const int warp_row = (warp / (BT / kWarpCols)) * kWarpRows;
    const int warp_col = (warp % (BT / kWarpCols)) * kWarpCols;

    auto issue = [&](int s, int phase) {
        for (int g = 0; g < GROUPS; ++g) {
            const int q = g * NT + tid;
            // M: four consecutive k of one row, 16 bytes where the row allows it.
            const int mr = q / (BK / 4), mk = (q % (BK / 4)) * 4;
            const int r = tile_row + mr, k = phase + mk;
            if (inner % 4 == 0 && r < rows && k < inner) {
                __pipeline_memcpy_async(&M_tile[s][mr][mk], M + (long long)r * inner + k, 16);
            } else {
                for (int i = 0; i < 4; ++i) {
                    const bool in = r < rows && k + i < inner;
                    __pipeline_memcpy_async(&M_tile[s][mr][mk + i], in ? M + (long long)r * inner + k + i : M, 4,
                                            in ? 0 : 4);
                }
            }
            // N: four consecutive columns of one row of N, each to its own row of the transposed tile.
            const int nk = q / (BT / 4), nc = (q % (BT / 4)) * 4;
            const int kk = phase + nk, c = tile_col + nc;
            for (int j = 0; j < 4; ++j) {
                const bool in = kk < inner && c + j < cols;
                __pipeline_memcpy_async(&N_tile_T[s][nc + j][nk], in ? N + (long long)kk * cols + c + j : N, 4,
                                        in ? 0 : 4);
            }
        }
    };

    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[FR][FC];
    for (int i = 0; i < FR; ++i)
        for (int j = 0; j < FC; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

    const int phases = (inner + BK - 1) / BK;
    if (phases > 0) issue(0, 0);
    __pipeline_commit();
    for (int p = 0; p < phases; ++p) {
        const int s = p & 1;
        __pipeline_wait_prior(0);
        __syncthreads();
        if (p + 1 < phases) issue(s ^ 1, (p + 1) * BK);
        __pipeline_commit();

        for (int k = 0; k < BK; k += 8) {
            wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a[FR];
            wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b[FC];
            for (int i = 0; i < FR; ++i) {
                wmma::load_matrix_sync(a[i], &M_tile[s][warp_row + 16 * i][k], LD);
                for (int e = 0; e < a[i].num_elements; ++e) a[i].x[e] = wmma::__float_to_tf32(a[i].x[e]);
            }
            for (int j = 0; j < FC; ++j) {
                // col_major: element (k', n) of the 8 x 16 piece is at [n * LD + k'], i.e. N_tile_T[..][n][k + k'].
                wmma::load_matrix_sync(b[j], &N_tile_T[s][warp_col + 16 * j][k], LD);
                for (int e = 0; e < b[j].num_elements; ++e) b[j].x[e] = wmma::__float_to_tf32(b[j].x[e]);
            }
            for (int i = 0; i < FR; ++i)
                for (int j = 0; j < FC; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
    }

    const bool direct = tile_row + BT <= rows && tile_col + BT <= cols && cols % 8 == 0 &&
                        reinterpret_cast<std::uintptr_t>(P) % 32 == 0;
    for (int i = 0; i < FR; ++i)
        for (int j = 0; j < FC; ++j) {
            const int r0 = tile_row + warp_row + 16 * i, c0 = tile_col + warp_col + 16 * j;
            if (direct) {
                wmma::store_matrix_sync(P + (long long)r0 * cols + c0, acc[i][j], cols, wmma::mem_row_major);
            } else {
                wmma::store_matrix_sync(scratch[warp], acc[i][j], 16, wmma::mem_row_major);
                __syncwarp();
                for (int e = lane; e < 256; e += 32) {
                    const int r = r0 + e / 16, c = c0 + e % 16;
                    if (r < rows && c < cols) P[(long long)r * cols + c] = scratch[warp][e];
                }
                __syncwarp();
            }
        }
}

/// Launches matmul_tensor_core_kernel: TENSOR_CORE_THREADS threads per block, one block per
/// TENSOR_CORE_BLOCK_TILE × TENSOR_CORE_BLOCK_TILE tile of P, partial tiles included.
void matmul_tensor_core(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TENSOR_CORE_THREADS);
    const dim3 grid((cols + BT - 1) / BT, (rows + BT - 1) / BT);
    matmul_tensor_core_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
