/// @file grader/selftest/accept-styles/wmma-global-fragments/09_tensor_cores/kernel.cu
/// @brief Lab 09 with its fragments loaded straight from global memory, as the first tensor-core examples (NVIDIA's
/// "Programming Tensor Cores in CUDA 9" post, the CUDA Samples' simpleTensorCoreGEMM) do: no block tiles at all.
/// `load_matrix_sync` takes M and N in place wherever the 16 x 8 or 8 x 16 piece lies inside and its address and
/// leading dimension are what the function requires (a row length that is a multiple of 8 floats, the pointer
/// 32-byte aligned: tested on the address itself); elsewhere the warp copies the piece, zero-filled, into a small
/// staging buffer of its own in shared memory and loads from there. Warps in a 2 x 4 grid, each 64 x 32 of P.
#include <tilelab/labs.hpp>

#include <mma.h>

#include <cstdint>

namespace wmma = nvcuda::wmma;

namespace {
constexpr int kTile = TENSOR_CORE_BLOCK_TILE;
constexpr int kWarps = TENSOR_CORE_THREADS / 32;
constexpr int kWarpRows = 64, kWarpCols = 32;
constexpr int kA = kWarpRows / 16, kB = kWarpCols / 16;  // fragments of M and of N per step
static_assert((kTile / kWarpRows) * (kTile / kWarpCols) == kWarps, "eight warps tile the block");

using FragA = wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major>;
using FragB = wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major>;
using Acc = wmma::fragment<wmma::accumulator, 16, 16, 8, float>;

__device__ __forceinline__ bool aligned32(const float* p) { return reinterpret_cast<uintptr_t>(p) % 32 == 0; }
}  // namespace

__global__ void matmul_tensor_core_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // Each warp's staging: a 16 x 8 piece of M, an 8 x 16 piece of N, and a 16 x 16 accumulator for P's edges.
    __shared__ __align__(32) float stage_a[kWarps][16 * 8];
    __shared__ __align__(32) float stage_b[kWarps][8 * 16];
    __shared__ __align__(32) float stage_c[kWarps][16 * 16];

    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int row0 = blockIdx.y * kTile + (warp / (kTile / kWarpCols)) * kWarpRows;
    const int col0 = blockIdx.x * kTile + (warp % (kTile / kWarpCols)) * kWarpCols;
    const bool m_in_place = inner % 8 == 0 && aligned32(M);
    const bool n_in_place = cols % 8 == 0 && aligned32(N);

    Acc acc[kA][kB];
    for (int i = 0; i < kA; ++i)
        for (int j = 0; j < kB; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k = 0; k < inner; k += 8) {
        FragA a[kA];
        FragB b[kB];
        for (int i = 0; i < kA; ++i) {
            const int r = row0 + 16 * i;
            if (m_in_place && r + 16 <= rows && k + 8 <= inner) {
                wmma::load_matrix_sync(a[i], M + static_cast<long long>(r) * inner + k, inner);
            } else {
                for (int e = lane; e < 16 * 8; e += 32) {
                    const int rr = r + e / 8, kk = k + e % 8;
                    stage_a[warp][e] = rr < rows && kk < inner ? M[static_cast<long long>(rr) * inner + kk] : 0.0f;
                }
                __syncwarp();  // the piece is whole before the warp loads it
                wmma::load_matrix_sync(a[i], &stage_a[warp][0], 8);
                __syncwarp();  // every lane has loaded it before the next piece overwrites it
            }
            for (int t = 0; t < a[i].num_elements; ++t) a[i].x[t] = wmma::__float_to_tf32(a[i].x[t]);
        }
        for (int j = 0; j < kB; ++j) {
            const int c = col0 + 16 * j;
            if (n_in_place && c + 16 <= cols && k + 8 <= inner) {
                wmma::load_matrix_sync(b[j], N + static_cast<long long>(k) * cols + c, cols);
            } else {
                for (int e = lane; e < 8 * 16; e += 32) {
                    const int kk = k + e / 16, cc = c + e % 16;
                    stage_b[warp][e] = kk < inner && cc < cols ? N[static_cast<long long>(kk) * cols + cc] : 0.0f;
                }
                __syncwarp();
                wmma::load_matrix_sync(b[j], &stage_b[warp][0], 16);
                __syncwarp();
            }
            for (int t = 0; t < b[j].num_elements; ++t) b[j].x[t] = wmma::__float_to_tf32(b[j].x[t]);
        }
        for (int i = 0; i < kA; ++i)
            for (int j = 0; j < kB; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }

    const bool p_in_place = cols % 8 == 0 && aligned32(P);
    for (int i = 0; i < kA; ++i)
        for (int j = 0; j < kB; ++j) {
            const int r = row0 + 16 * i, c = col0 + 16 * j;
            if (p_in_place && r + 16 <= rows && c + 16 <= cols) {
                wmma::store_matrix_sync(P + static_cast<long long>(r) * cols + c, acc[i][j], cols, wmma::mem_row_major);
                continue;
            }
            wmma::store_matrix_sync(&stage_c[warp][0], acc[i][j], 16, wmma::mem_row_major);
            __syncwarp();
            for (int e = lane; e < 256; e += 32)
                if (r + e / 16 < rows && c + e % 16 < cols)
                    P[static_cast<long long>(r + e / 16) * cols + c + e % 16] = stage_c[warp][e];
            __syncwarp();
        }
}

void matmul_tensor_core(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 grid((cols + TENSOR_CORE_BLOCK_TILE - 1) / TENSOR_CORE_BLOCK_TILE,
                    (rows + TENSOR_CORE_BLOCK_TILE - 1) / TENSOR_CORE_BLOCK_TILE);
    matmul_tensor_core_kernel<<<grid, TENSOR_CORE_THREADS>>>(M, N, P, rows, inner, cols);
}
