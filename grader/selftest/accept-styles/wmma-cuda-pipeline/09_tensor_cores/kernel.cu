/// @file grader/selftest/accept-styles/wmma-cuda-pipeline/09_tensor_cores/kernel.cu
/// @brief Lab 09 staged with the C++ pipeline API, as the CUDA Programming Guide's "Asynchronous Data Copies using
/// cuda::pipeline" section writes it: a thread-scope `cuda::pipeline` from `cuda::make_pipeline()`, two stages,
/// `cuda::memcpy_async` of 16-byte groups (`cuda::aligned_size_t<16>`) where the source address is aligned and the
/// group inside M or N, element copies or stored zeros elsewhere; producer_acquire / producer_commit ahead, and
/// consumer_wait, __syncthreads(), the warp's mma_sync and consumer_release for each phase. Warps in a 2 x 4 grid,
/// each 64 x 32 of P; fragments rounded to TF32 after each load.
#include <tilelab/labs.hpp>

#include <cuda/pipeline>
#include <mma.h>

#include <cstdint>

using namespace nvcuda;

namespace {
constexpr int kTile = TENSOR_CORE_BLOCK_TILE;
constexpr int kDepth = TENSOR_CORE_PHASE_DEPTH;
constexpr int kThreads = TENSOR_CORE_THREADS;
constexpr int kStages = 2;
constexpr int kLdA = kDepth + TENSOR_CORE_SHARED_PADDING;
constexpr int kLdB = kTile + TENSOR_CORE_SHARED_PADDING;
constexpr int kWarpRows = 64, kWarpCols = 32;
constexpr int kFr = kWarpRows / 16, kFc = kWarpCols / 16;
constexpr int kGroups = kTile * kDepth / (4 * kThreads);
static_assert((kTile / kWarpRows) * (kTile / kWarpCols) * 32 == kThreads, "eight warps tile the block");
static_assert(kStages * (kTile * kLdA + kDepth * kLdB) * sizeof(float) <= 48 * 1024, "static shared memory");
}  // namespace

__global__ void __launch_bounds__(TENSOR_CORE_THREADS)
    matmul_tensor_core_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ __align__(32) float As[kStages][kTile][kLdA];
    __shared__ __align__(32) float Bs[kStages][kDepth][kLdB];

    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
    const int wr = (warp / (kTile / kWarpCols)) * kWarpRows, wc = (warp % (kTile / kWarpCols)) * kWarpCols;

    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    const auto group = cuda::aligned_size_t<16>(16);

    // This thread's copies of the phase at @p k0 into stage @p s.
    auto stage = [&](int s, int k0) {
        for (int g = 0; g < kGroups; ++g) {
            const int q = g * kThreads + static_cast<int>(threadIdx.x);
            const int ar = q / (kDepth / 4), ak = (q % (kDepth / 4)) * 4;
            const int r = row0 + ar, k = k0 + ak;
            const float* a = M + static_cast<long long>(r) * inner + k;
            if (r < rows && k + 3 < inner && reinterpret_cast<uintptr_t>(a) % 16 == 0) {
                cuda::memcpy_async(&As[s][ar][ak], a, group, pipe);
            } else {
                for (int e = 0; e < 4; ++e) {
                    if (r < rows && k + e < inner)
                        cuda::memcpy_async(&As[s][ar][ak + e], a + e, sizeof(float), pipe);
                    else
                        As[s][ar][ak + e] = 0.0f;
                }
            }
            const int bk = q / (kTile / 4), bc = (q % (kTile / 4)) * 4;
            const int kk = k0 + bk, c = col0 + bc;
            const float* b = N + static_cast<long long>(kk) * cols + c;
            if (kk < inner && c + 3 < cols && reinterpret_cast<uintptr_t>(b) % 16 == 0) {
                cuda::memcpy_async(&Bs[s][bk][bc], b, group, pipe);
            } else {
                for (int e = 0; e < 4; ++e) {
                    if (kk < inner && c + e < cols)
                        cuda::memcpy_async(&Bs[s][bk][bc + e], b + e, sizeof(float), pipe);
                    else
                        Bs[s][bk][bc + e] = 0.0f;
                }
            }
        }
    };

    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[kFr][kFc];
    for (int i = 0; i < kFr; ++i)
        for (int j = 0; j < kFc; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

    const int phases = (inner + kDepth - 1) / kDepth;
    pipe.producer_acquire();
    stage(0, 0);
    pipe.producer_commit();
    for (int p = 0; p < phases; ++p) {
        pipe.consumer_wait();  // this thread's copies of phase p have landed
        __syncthreads();       // everyone's have, and every warp is done with the other stage
        pipe.producer_acquire();
        if (p + 1 < phases) stage((p + 1) % kStages, (p + 1) * kDepth);
        pipe.producer_commit();
        const int s = p % kStages;
        for (int k = 0; k < kDepth; k += 8) {
            wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a[kFr];
            wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b[kFc];
            for (int i = 0; i < kFr; ++i) {
                wmma::load_matrix_sync(a[i], &As[s][wr + 16 * i][k], kLdA);
                for (int t = 0; t < a[i].num_elements; ++t) a[i].x[t] = wmma::__float_to_tf32(a[i].x[t]);
            }
            for (int j = 0; j < kFc; ++j) {
                wmma::load_matrix_sync(b[j], &Bs[s][k][wc + 16 * j], kLdB);
                for (int t = 0; t < b[j].num_elements; ++t) b[j].x[t] = wmma::__float_to_tf32(b[j].x[t]);
            }
            for (int i = 0; i < kFr; ++i)
                for (int j = 0; j < kFc; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        pipe.consumer_release();
    }

    __syncthreads();  // every warp is done with the stages: the first stage's M tile is the warps' scratch
    constexpr int kLdC = 16 + 4;
    float* scratch = &As[0][0][0] + warp * 16 * kLdC;
    for (int i = 0; i < kFr; ++i)
        for (int j = 0; j < kFc; ++j) {
            wmma::store_matrix_sync(scratch, acc[i][j], kLdC, wmma::mem_row_major);
            __syncwarp();
            for (int e = lane; e < 256; e += 32) {
                const int r = row0 + wr + 16 * i + e / 16, c = col0 + wc + 16 * j + e % 16;
                if (r < rows && c < cols) P[static_cast<long long>(r) * cols + c] = scratch[(e / 16) * kLdC + e % 16];
            }
            __syncwarp();
        }
}

void matmul_tensor_core(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 grid((cols + TENSOR_CORE_BLOCK_TILE - 1) / TENSOR_CORE_BLOCK_TILE,
                    (rows + TENSOR_CORE_BLOCK_TILE - 1) / TENSOR_CORE_BLOCK_TILE);
    matmul_tensor_core_kernel<<<grid, TENSOR_CORE_THREADS>>>(M, N, P, rows, inner, cols);
}
