/// @file grader/selftest/accept-styles/dynamic-shared/08_warp_tiled/kernel.cu
/// @brief Lab 08 with its stages in dynamic shared memory, more than 48 KB of them: one
/// `extern __shared__ __align__(16) float smem[]` carved into three stages of M's tile (M's layout, rows padded)
/// and N's tile, filled by __pipeline_memcpy_async two phases ahead of the multiply-adds. The launcher opts the
/// kernel in to the 55 KB with cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, ...) and
/// passes them as the third <<< >>> argument (the CUDA Programming Guide's shared-memory opt-in; CUTLASS's
/// multistage mainloop). Warps in a 2 x 4 grid, each lane an 8 x 8 block of its warp's 64 x 32 tile.
#include <tilelab/labs.hpp>

#include <cuda_pipeline.h>

#include <cstddef>

namespace {
constexpr int kTile = WARP_TILED_BLOCK_TILE;
constexpr int kDepth = WARP_TILED_PHASE_DEPTH;
constexpr int kThreads = WARP_TILED_THREADS;
constexpr int kMicro = WARP_TILED_MICRO_TILE;
constexpr int kStages = 3;
constexpr int kWarpRows = 64, kWarpCols = 32;
constexpr int kLdM = kDepth + 4;  // M_tile[r][k], rows padded by 16 bytes
constexpr int kLdN = kTile + 4;   // N_tile[k][c]
constexpr int kStage = kTile * kLdM + kDepth * kLdN;  // floats of one stage
constexpr std::size_t kSharedBytes = kStages * kStage * sizeof(float);
constexpr int kGroups = kTile * kDepth / (4 * kThreads);  // 16-byte groups of each tile per thread and phase
static_assert((kTile / kWarpRows) * (kTile / kWarpCols) * 32 == kThreads, "eight warps tile the block");
static_assert((kWarpRows / kMicro) * (kWarpCols / kMicro) == 32, "32 lanes tile the warp's tile");
static_assert(kSharedBytes > 48 * 1024, "this style shows the opt-in above 48 KB");

}  // namespace

__global__ void __launch_bounds__(WARP_TILED_THREADS)
    matmul_warp_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    extern __shared__ __align__(16) float smem[];
    const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int my_row = (warp / (kTile / kWarpCols)) * kWarpRows + (lane / (kWarpCols / kMicro)) * kMicro;
    const int my_col = (warp % (kTile / kWarpCols)) * kWarpCols + (lane % (kWarpCols / kMicro)) * kMicro;

    // Issues this thread's copies of the phase at @p k0 into stage @p s: 16 bytes where a group of four lies inside
    // and the row's length keeps it aligned, else 4 bytes at a time, zero-filled outside M or N.
    auto copy_phase = [&](int s, int k0) {
        float* Ms = smem + s * kStage;
        float* Ns = Ms + kTile * kLdM;
        for (int g = 0; g < kGroups; ++g) {
            const int q = g * kThreads + threadIdx.x;
            const int r = q / (kDepth / 4), k = (q % (kDepth / 4)) * 4;
            const int gr = row0 + r, gk = k0 + k;
            if (inner % 4 == 0 && gr < rows && gk < inner) {
                __pipeline_memcpy_async(&Ms[r * kLdM + k], &M[gr * inner + gk], 16);
            } else {
                for (int e = 0; e < 4; ++e) {
                    const bool inside = gr < rows && gk + e < inner;
                    __pipeline_memcpy_async(&Ms[r * kLdM + k + e], inside ? &M[gr * inner + gk + e] : M, 4,
                                            inside ? 0 : 4);
                }
            }
            const int nk = q / (kTile / 4), c = (q % (kTile / 4)) * 4;
            const int gnk = k0 + nk, gc = col0 + c;
            if (cols % 4 == 0 && gnk < inner && gc < cols) {
                __pipeline_memcpy_async(&Ns[nk * kLdN + c], &N[gnk * cols + gc], 16);
            } else {
                for (int e = 0; e < 4; ++e) {
                    const bool inside = gnk < inner && gc + e < cols;
                    __pipeline_memcpy_async(&Ns[nk * kLdN + c + e], inside ? &N[gnk * cols + gc + e] : N, 4,
                                            inside ? 0 : 4);
                }
            }
        }
    };

    const int phases = (inner + kDepth - 1) / kDepth;
    for (int s = 0; s < kStages - 1; ++s) {
        if (s < phases) copy_phase(s, s * kDepth);
        __pipeline_commit();
    }
    float acc[kMicro][kMicro] = {};
    for (int p = 0; p < phases; ++p) {
        __pipeline_wait_prior(kStages - 2);
        __syncthreads();  // phase p is everyone's, and phase p - 1's stage is free to refill
        const int ahead = p + kStages - 1;
        if (ahead < phases) copy_phase(ahead % kStages, ahead * kDepth);
        __pipeline_commit();
        const float* Ms = smem + (p % kStages) * kStage;
        const float* Ns = Ms + kTile * kLdM;
        for (int k = 0; k < kDepth; ++k) {
            float a[kMicro], b[kMicro];
            for (int i = 0; i < kMicro; ++i) a[i] = Ms[(my_row + i) * kLdM + k];
            for (int j = 0; j < kMicro; ++j) b[j] = Ns[k * kLdN + my_col + j];
            for (int i = 0; i < kMicro; ++i)
                for (int j = 0; j < kMicro; ++j) acc[i][j] += a[i] * b[j];
        }
    }
    for (int i = 0; i < kMicro; ++i) {
        const int r = row0 + my_row + i;
        for (int j = 0; j < kMicro; ++j) {
            const int c = col0 + my_col + j;
            if (r < rows && c < cols) P[r * cols + c] = acc[i][j];
        }
    }
}

void matmul_warp_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    cudaFuncSetAttribute(matmul_warp_tiled_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         static_cast<int>(kSharedBytes));
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    matmul_warp_tiled_kernel<<<grid, kThreads, kSharedBytes>>>(M, N, P, rows, inner, cols);
}
