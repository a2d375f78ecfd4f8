/// @file grader/selftest/accept-styles/sgemm-2d-blocktiling/06_register_tiled/kernel.cu
/// @brief Lab 06 as siboehm's SGEMM_CUDA kernel 5 ("2D blocktiling", from "How to Optimize a CUDA Matmul Kernel
/// for cuBLAS-like Performance") writes it (style: BM, BN, BK, TM, TN; pointers advanced to the block tile;
/// strideA/strideB load loops; regM/regN register caches; a flat threadResults[TM * TN]), with bounds checks added
/// so that any shape is right. Its BM = BN = 128, BK = 8, TM = TN = 8 and 256 threads are the lab's configuration.
#include <tilelab/labs.hpp>

namespace {
constexpr int BM = REGISTER_BLOCK_TILE;
constexpr int BN = REGISTER_BLOCK_TILE;
constexpr int BK = REGISTER_PHASE_DEPTH;
constexpr int TM = REGISTER_MICRO_TILE;
constexpr int TN = REGISTER_MICRO_TILE;
}  // namespace

__global__ void __launch_bounds__((BM * BN) / (TM * TN), 1)
    matmul_register_tiled_kernel(const float* A, const float* B, float* C, int M, int K, int N) {
    const uint cRow = blockIdx.y;
    const uint cCol = blockIdx.x;

    const uint totalResultsBlocktile = BM * BN;
    // A thread is responsible for calculating TM*TN elements in the blocktile
    const uint numThreadsBlocktile = totalResultsBlocktile / (TM * TN);

    // BN/TN are the number of threads to span a column
    const int threadCol = threadIdx.x % (BN / TN);
    const int threadRow = threadIdx.x / (BN / TN);

    // allocate space for the current blocktile in smem
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];

    // Move blocktile to beginning of A's row and B's column
    A += cRow * BM * K;
    B += cCol * BN;
    C += cRow * BM * N + cCol * BN;
    const uint rowsLeft = M - cRow * BM;  // rows of C from this block's first; may be fewer than BM
    const uint colsLeft = N - cCol * BN;

    // calculating the indices that this thread will load into SMEM
    const uint innerRowA = threadIdx.x / BK;
    const uint innerColA = threadIdx.x % BK;
    // calculates the number of rows of As that are being loaded in a single step by a single block
    const uint strideA = numThreadsBlocktile / BK;
    const uint innerRowB = threadIdx.x / BN;
    const uint innerColB = threadIdx.x % BN;
    // for both As and Bs we want each load to span the full column-width, for better GMEM coalescing (as opposed
    // to spanning full row-width and iterating across columns)
    const uint strideB = numThreadsBlocktile / BN;

    // allocate thread-local cache for results in registerfile
    float threadResults[TM * TN] = {0.0};
    // register caches for As and Bs
    float regM[TM] = {0.0};
    float regN[TN] = {0.0};

    // outer-most loop over block tiles
    for (uint bkIdx = 0; bkIdx < (uint)K; bkIdx += BK) {
        // populate the SMEM caches
        for (uint loadOffset = 0; loadOffset < BM; loadOffset += strideA) {
            const uint r = innerRowA + loadOffset;
            As[r * BK + innerColA] = (r < rowsLeft && bkIdx + innerColA < (uint)K) ? A[r * K + innerColA] : 0.0f;
        }
        for (uint loadOffset = 0; loadOffset < BK; loadOffset += strideB) {
            const uint r = innerRowB + loadOffset;
            Bs[r * BN + innerColB] = (bkIdx + r < (uint)K && innerColB < colsLeft) ? B[r * N + innerColB] : 0.0f;
        }
        __syncthreads();

        // advance blocktile
        A += BK;      // move BK columns to right
        B += BK * N;  // move BK rows down

        // calculate per-thread results
#pragma unroll
        for (uint dotIdx = 0; dotIdx < BK; ++dotIdx) {
            // block into registers
#pragma unroll
            for (uint i = 0; i < TM; ++i) regM[i] = As[(threadRow * TM + i) * BK + dotIdx];
#pragma unroll
            for (uint i = 0; i < TN; ++i) regN[i] = Bs[dotIdx * BN + threadCol * TN + i];
#pragma unroll
            for (uint resIdxM = 0; resIdxM < TM; ++resIdxM) {
#pragma unroll
                for (uint resIdxN = 0; resIdxN < TN; ++resIdxN) {
                    threadResults[resIdxM * TN + resIdxN] += regM[resIdxM] * regN[resIdxN];
                }
            }
        }
        __syncthreads();
    }

    // write out the results
#pragma unroll
    for (uint resIdxM = 0; resIdxM < TM; ++resIdxM) {
#pragma unroll
        for (uint resIdxN = 0; resIdxN < TN; ++resIdxN) {
            const uint r = threadRow * TM + resIdxM, c = threadCol * TN + resIdxN;
            if (r < rowsLeft && c < colsLeft) C[r * N + c] = threadResults[resIdxM * TN + resIdxN];
        }
    }
}

#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))

void matmul_register_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 gridDim(CEIL_DIV(cols, BN), CEIL_DIV(rows, BM));
    dim3 blockDim((BM * BN) / (TM * TN));
    matmul_register_tiled_kernel<<<gridDim, blockDim>>>(M, N, P, rows, inner, cols);
}
