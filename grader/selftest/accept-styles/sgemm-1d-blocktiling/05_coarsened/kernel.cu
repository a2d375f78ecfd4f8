/// @file grader/selftest/accept-styles/sgemm-1d-blocktiling/05_coarsened/kernel.cu
/// @brief Lab 05 as siboehm's SGEMM_CUDA kernel 4 ("1D blocktiling for calculating multiple results per thread",
/// from "How to Optimize a CUDA Matmul Kernel for cuBLAS-like Performance") writes it (style: BM, BN, BK, TM;
/// A, B, C advanced to the block's tile by pointer arithmetic; innerRowA/innerColA; threadResults[TM]; dotIdx
/// and resIdx loops), with the bounds checks the original leaves out, so that any shape is right. Its BM = BN = 64,
/// BK = 8, TM = 8 and 512 threads are exactly the lab's configuration.
#include <tilelab/labs.hpp>

namespace {
constexpr int BM = COARSENED_BLOCK_TILE;
constexpr int BN = COARSENED_BLOCK_TILE;
constexpr int BK = COARSENED_PHASE_DEPTH;
constexpr int TM = COARSENED_OUTPUTS;
}  // namespace

// A is M x K, B is K x N, C is M x N, as in the original; the lab's rows, inner, cols are M, K, N.
__global__ void matmul_coarsened_kernel(const float* A, const float* B, float* C, int M, int K, int N) {
    // If we flip x and y here we get ~30% less performance for large matrices.
    const uint cRow = blockIdx.y;
    const uint cCol = blockIdx.x;

    // Each warp will calculate 32*TM elements, with 32 being the columnar dim.
    const int threadCol = threadIdx.x % BN;
    const int threadRow = threadIdx.x / BN;

    // Allocate space for the current blocktile in SMEM
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];

    // Move blocktile to beginning of A's row and B's column
    A += cRow * BM * K;
    B += cCol * BN;
    C += cRow * BM * N + cCol * BN;

    // The rows and columns of A, B and C this block may touch (the original assumes full tiles).
    const uint rowsLeft = M - cRow * BM;
    const uint colsLeft = N - cCol * BN;

    const uint innerColA = threadIdx.x % BK;  // warp-level GMEM coalescing
    const uint innerRowA = threadIdx.x / BK;
    const uint innerColB = threadIdx.x % BN;  // warp-level GMEM coalescing
    const uint innerRowB = threadIdx.x / BN;

    // Allocate thread-local cache for results in registerfile
    float threadResults[TM] = {0.0};

    // Outer loop over block tiles
    for (uint bkIdx = 0; bkIdx < (uint)K; bkIdx += BK) {
        // Populate the SMEM caches, zeros outside A and B
        As[innerRowA * BK + innerColA] =
            (innerRowA < rowsLeft && bkIdx + innerColA < (uint)K) ? A[innerRowA * K + innerColA] : 0.0f;
        Bs[innerRowB * BN + innerColB] =
            (bkIdx + innerRowB < (uint)K && innerColB < colsLeft) ? B[innerRowB * N + innerColB] : 0.0f;
        __syncthreads();

        // Advance blocktile (the last step leaves A and B past their ends, never dereferenced)
        A += BK;
        B += BK * N;

        // Calculate per-thread results
        for (uint dotIdx = 0; dotIdx < BK; ++dotIdx) {
            // We make the dotproduct loop the outside loop, which facilitates reuse of the Bs entry, which we can
            // cache in a tmp var.
            float tmpB = Bs[dotIdx * BN + threadCol];
            for (uint resIdx = 0; resIdx < TM; ++resIdx) {
                threadResults[resIdx] += As[(threadRow * TM + resIdx) * BK + dotIdx] * tmpB;
            }
        }
        __syncthreads();
    }

    // Write out the results
    for (uint resIdx = 0; resIdx < TM; ++resIdx) {
        if (threadRow * TM + resIdx < rowsLeft && (uint)threadCol < colsLeft)
            C[(threadRow * TM + resIdx) * N + threadCol] = threadResults[resIdx];
    }
}

#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))

void matmul_coarsened(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 gridDim(CEIL_DIV(cols, BN), CEIL_DIV(rows, BM));
    dim3 blockDim((BM * BN) / TM);
    matmul_coarsened_kernel<<<gridDim, blockDim>>>(M, N, P, rows, inner, cols);
}
