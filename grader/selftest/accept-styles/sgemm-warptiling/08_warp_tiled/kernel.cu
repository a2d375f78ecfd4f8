/// @file grader/selftest/accept-styles/sgemm-warptiling/08_warp_tiled/kernel.cu
/// @brief Lab 08 as siboehm's SGEMM_CUDA kernel 10 ("Warptiling", from "How to Optimize a CUDA Matmul Kernel for
/// cuBLAS-like Performance") writes it (style: a namespace wt of __device__ templates loadFromGmem and
/// processFromSmem taking the shared tiles as float pointers; BM, BN, BK, WM, WN, WNITER, WMITER, WSUBM, WSUBN,
/// TM, TN; warpIdx, warpRow/warpCol, threadIdxInWarp, threadRowInWarp/threadColInWarp; As transposed (k-major),
/// regM/regN/threadResults; C advanced to the warp's corner and written through C_interim), at the lab's 256
/// threads (8 warps of 32 × 64, WNITER 2, TM 8, TN 4) and with the loads of the lab: two stages filled by
/// __pipeline_memcpy_async, As transposed by one 4-byte copy per element (a copy cannot transpose four at once),
/// Bs by 16-byte copies. What the original leaves out for square multiples of 128: zero-fill outside A and B,
/// 4-byte copies of B where N is not a multiple of 4, and bounds on the stores.
#include <tilelab/labs.hpp>

#include <cuda_pipeline.h>

namespace {
constexpr int WARPSIZE = 32;
constexpr int BM = WARP_TILED_BLOCK_TILE;
constexpr int BN = WARP_TILED_BLOCK_TILE;
constexpr int BK = WARP_TILED_PHASE_DEPTH;
constexpr int WM = 32;
constexpr int WN = 64;
constexpr int WNITER = 2;
constexpr int TM = 8;
constexpr int TN = 4;
constexpr int NUM_THREADS = WARP_TILED_THREADS;
constexpr int STAGES = 2;
static_assert((BM / WM) * (BN / WN) == NUM_THREADS / WARPSIZE, "one warp tile per warp");
}  // namespace

namespace wt {
/// Starts the copies of one phase (columns bkIdx.. of A's rows, rows bkIdx.. of B) into As (k-major) and Bs.
template <const int rowStrideA, const int rowStrideB>
__device__ void loadFromGmem(int M, int N, int K, int bkIdx, const float* A, const float* B, const float* Abase,
                             const float* Bbase, float* As, float* Bs, uint innerRowA, uint innerColA,
                             uint innerRowB, uint innerColB, uint rowsLeft, uint colsLeft) {
    for (uint offset = 0; offset + rowStrideA <= BM; offset += rowStrideA) {
        const uint r = innerRowA + offset;
        for (uint e = 0; e < 4; ++e) {
            const uint k = innerColA * 4 + e;
            const bool in = r < rowsLeft && bkIdx + k < (uint)K;
            // transposed: element (r, k) of the tile goes to As[k * BM + r]
            __pipeline_memcpy_async(&As[k * BM + r], in ? &A[r * K + k] : Abase, 4, in ? 0 : 4);
        }
    }
    for (uint offset = 0; offset + rowStrideB <= BK; offset += rowStrideB) {
        const uint k = innerRowB + offset;
        const uint c = innerColB * 4;
        if (N % 4 == 0 && bkIdx + k < (uint)K && c + 3 < colsLeft) {
            __pipeline_memcpy_async(&Bs[k * BN + c], &B[k * N + c], 16);
        } else {
            for (uint e = 0; e < 4; ++e) {
                const bool in = bkIdx + k < (uint)K && c + e < colsLeft;
                __pipeline_memcpy_async(&Bs[k * BN + c + e], in ? &B[k * N + c + e] : Bbase, 4, in ? 0 : 4);
            }
        }
    }
    (void)M;
}

/// The warptile's multiply-adds from one stage.
template <const int WMITER, const int WSUBM, const int WSUBN>
__device__ void processFromSmem(float* regM, float* regN, float* threadResults, const float* As, const float* Bs,
                                const uint warpRow, const uint warpCol, const uint threadRowInWarp,
                                const uint threadColInWarp) {
    for (uint dotIdx = 0; dotIdx < BK; ++dotIdx) {
        // populate registers for whole warptile
        for (uint wSubRowIdx = 0; wSubRowIdx < WMITER; ++wSubRowIdx) {
            for (uint i = 0; i < TM; ++i) {
                regM[wSubRowIdx * TM + i] =
                    As[(dotIdx * BM) + warpRow * WM + wSubRowIdx * WSUBM + threadRowInWarp * TM + i];
            }
        }
        for (uint wSubColIdx = 0; wSubColIdx < WNITER; ++wSubColIdx) {
            for (uint i = 0; i < TN; ++i) {
                regN[wSubColIdx * TN + i] =
                    Bs[(dotIdx * BN) + warpCol * WN + wSubColIdx * WSUBN + threadColInWarp * TN + i];
            }
        }
        // execute warptile matmul
        for (uint wSubRowIdx = 0; wSubRowIdx < WMITER; ++wSubRowIdx) {
            for (uint wSubColIdx = 0; wSubColIdx < WNITER; ++wSubColIdx) {
                // calculate per-thread results
                for (uint resIdxM = 0; resIdxM < TM; ++resIdxM) {
                    for (uint resIdxN = 0; resIdxN < TN; ++resIdxN) {
                        threadResults[(wSubRowIdx * TM + resIdxM) * (WNITER * TN) + (wSubColIdx * TN) + resIdxN] +=
                            regM[wSubRowIdx * TM + resIdxM] * regN[wSubColIdx * TN + resIdxN];
                    }
                }
            }
        }
    }
}
}  // namespace wt

__global__ void matmul_warp_tiled_kernel(const float* A, const float* B, float* C, int M, int K, int N) {
    const uint cRow = blockIdx.y;
    const uint cCol = blockIdx.x;

    // Placement of the warp in the threadblock tile
    const uint warpIdx = threadIdx.x / WARPSIZE;
    const uint warpCol = warpIdx % (BN / WN);
    const uint warpRow = warpIdx / (BN / WN);

    // size of the warp subtile
    constexpr uint WMITER = (WM * WN) / (WARPSIZE * TM * TN * WNITER);
    constexpr uint WSUBM = WM / WMITER;
    constexpr uint WSUBN = WN / WNITER;

    // Placement of the thread in the warp subtile
    const uint threadIdxInWarp = threadIdx.x % WARPSIZE;
    const uint threadColInWarp = threadIdxInWarp % (WSUBN / TN);
    const uint threadRowInWarp = threadIdxInWarp / (WSUBN / TN);

    // allocate space for the current blocktile in SMEM, one per stage
    __shared__ __align__(16) float As[STAGES][BM * BK];
    __shared__ __align__(16) float Bs[STAGES][BK * BN];

    const float* const Abase = A;
    const float* const Bbase = B;
    const uint rowsLeft = M - cRow * BM;
    const uint colsLeft = N - cCol * BN;

    // Move blocktile to beginning of A's row and B's column
    A += cRow * BM * K;
    B += cCol * BN;
    // Move C_ptr to warp's output tile
    C += (cRow * BM + warpRow * WM) * N + cCol * BN + warpCol * WN;

    // calculating the indices that this thread will load into SMEM
    // we'll load 128bit / 32bit = 4 elements per thread at each step
    const uint innerRowA = threadIdx.x / (BK / 4);
    const uint innerColA = threadIdx.x % (BK / 4);
    constexpr uint rowStrideA = (NUM_THREADS * 4) / BK;
    const uint innerRowB = threadIdx.x / (BN / 4);
    const uint innerColB = threadIdx.x % (BN / 4);
    constexpr uint rowStrideB = NUM_THREADS / (BN / 4);

    // allocate thread-local cache for results in registerfile
    float threadResults[WMITER * TM * WNITER * TN] = {0.0};
    // we cache into registers on the warptile level
    float regM[WMITER * TM] = {0.0};
    float regN[WNITER * TN] = {0.0};

    // the first phase in flight
    wt::loadFromGmem<rowStrideA, rowStrideB>(M, N, K, 0, A, B, Abase, Bbase, &As[0][0], &Bs[0][0], innerRowA,
                                             innerColA, innerRowB, innerColB, rowsLeft, colsLeft);
    __pipeline_commit();

    // outer-most loop over block tiles
    uint stage = 0;
    for (uint bkIdx = 0; bkIdx < (uint)K; bkIdx += BK) {
        __pipeline_wait_prior(0);  // this thread's copies of this phase have landed
        __syncthreads();           // everyone's have, and everyone is done with the other stage
        if (bkIdx + BK < (uint)K)
            wt::loadFromGmem<rowStrideA, rowStrideB>(M, N, K, bkIdx + BK, A + BK, B + BK * N, Abase, Bbase,
                                                     &As[stage ^ 1][0], &Bs[stage ^ 1][0], innerRowA, innerColA,
                                                     innerRowB, innerColB, rowsLeft, colsLeft);
        __pipeline_commit();
        wt::processFromSmem<WMITER, WSUBM, WSUBN>(regM, regN, threadResults, &As[stage][0], &Bs[stage][0], warpRow,
                                                  warpCol, threadRowInWarp, threadColInWarp);
        A += BK;      // move BK columns to right
        B += BK * N;  // move BK rows down
        stage ^= 1;
    }

    // write out the results
    const int warpRowsLeft = static_cast<int>(rowsLeft) - static_cast<int>(warpRow * WM);  // may be <= 0
    const int warpColsLeft = static_cast<int>(colsLeft) - static_cast<int>(warpCol * WN);
    for (uint wSubRowIdx = 0; wSubRowIdx < WMITER; ++wSubRowIdx) {
        for (uint wSubColIdx = 0; wSubColIdx < WNITER; ++wSubColIdx) {
            // move C pointer to current warp subtile
            float* C_interim = C + (wSubRowIdx * WSUBM) * N + wSubColIdx * WSUBN;
            for (uint resIdxM = 0; resIdxM < TM; resIdxM += 1) {
                const int r = static_cast<int>(wSubRowIdx * WSUBM + threadRowInWarp * TM + resIdxM);
                if (r >= warpRowsLeft) continue;
                for (uint resIdxN = 0; resIdxN < TN; resIdxN += 4) {
                    const int c = static_cast<int>(wSubColIdx * WSUBN + threadColInWarp * TN + resIdxN);
                    const uint i = (wSubRowIdx * TM + resIdxM) * (WNITER * TN) + wSubColIdx * TN + resIdxN;
                    float* dst = &C_interim[(threadRowInWarp * TM + resIdxM) * N + threadColInWarp * TN + resIdxN];
                    if (N % 4 == 0 && c + 3 < warpColsLeft) {
                        float4 tmp;
                        tmp.x = threadResults[i + 0];
                        tmp.y = threadResults[i + 1];
                        tmp.z = threadResults[i + 2];
                        tmp.w = threadResults[i + 3];
                        reinterpret_cast<float4*>(dst)[0] = tmp;
                    } else {
                        for (int e = 0; e < 4; ++e)
                            if (c + e < warpColsLeft) dst[e] = threadResults[i + e];
                    }
                }
            }
        }
    }
}

#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))

void matmul_warp_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 blockDim(NUM_THREADS);
    dim3 gridDim(CEIL_DIV(cols, BN), CEIL_DIV(rows, BM));
    matmul_warp_tiled_kernel<<<gridDim, blockDim>>>(M, N, P, rows, inner, cols);
}
