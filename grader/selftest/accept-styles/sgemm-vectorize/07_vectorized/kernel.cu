/// @file grader/selftest/accept-styles/sgemm-vectorize/07_vectorized/kernel.cu
/// @brief Lab 07 as siboehm's SGEMM_CUDA kernel 6 ("Vectorize SMEM and GMEM accesses", from "How to Optimize a
/// CUDA Matmul Kernel for cuBLAS-like Performance") writes it (style: BM, BN, BK, TM, TN; A loaded as a float4 by
/// reinterpret_cast<float4 *>(&A[...])[0] and stored transposed into As; B copied float4 to float4 into Bs; C
/// written as float4s), with what the original leaves out for square multiples of 128: a scalar, guarded path
/// where a row's length is not a multiple of 4 or the four lie partly outside, and the bounds on the stores. As is
/// padded by the lab's 4 floats a row, and both tiles are __align__(16) for the float4 accesses.
#include <tilelab/labs.hpp>

namespace {
constexpr int BM = VECTOR_BLOCK_TILE;
constexpr int BN = VECTOR_BLOCK_TILE;
constexpr int BK = VECTOR_PHASE_DEPTH;
constexpr int TM = VECTOR_MICRO_TILE;
constexpr int TN = VECTOR_MICRO_TILE;
constexpr int AS_ROW = BM + VECTOR_SHARED_PADDING;  // a row of the transposed As: one k, BM rows of A

/// Four consecutive floats of a row from column `c`: one float4 when the row's length allows it and all four
/// lie inside, else one guarded load each (zero past the row's end).
__device__ float4 load4(const float* row, uint c, uint length, bool vector_ok) {
    if (vector_ok && c + 3 < length) return reinterpret_cast<const float4*>(&row[c])[0];
    float4 v;
    v.x = c + 0 < length ? row[c + 0] : 0.0f;
    v.y = c + 1 < length ? row[c + 1] : 0.0f;
    v.z = c + 2 < length ? row[c + 2] : 0.0f;
    v.w = c + 3 < length ? row[c + 3] : 0.0f;
    return v;
}
}  // namespace

__global__ void matmul_vectorized_kernel(const float* A, const float* B, float* C, int M, int K, int N) {
    const uint cRow = blockIdx.y;
    const uint cCol = blockIdx.x;

    // BN/TN are the number of threads to span a column
    const int threadCol = threadIdx.x % (BN / TN);
    const int threadRow = threadIdx.x / (BN / TN);

    // allocate space for the current blocktile in smem
    __shared__ __align__(16) float As[BK * AS_ROW];
    __shared__ __align__(16) float Bs[BK * BN];

    // Move blocktile to beginning of A's row and B's column
    A += cRow * BM * K;
    B += cCol * BN;
    C += cRow * BM * N + cCol * BN;
    const uint rowsLeft = M - cRow * BM;
    const uint colsLeft = N - cCol * BN;
    // A row of A (B, C) starts on 16 bytes when its length is a multiple of 4 floats.
    const bool vecA = K % 4 == 0, vecB = N % 4 == 0;

    // calculating the indices that this thread will load into SMEM
    // we'll load 128bit / 32bit = 4 elements per thread at each step
    const uint innerRowA = threadIdx.x / (BK / 4);
    const uint innerColA = threadIdx.x % (BK / 4);
    const uint innerRowB = threadIdx.x / (BN / 4);
    const uint innerColB = threadIdx.x % (BN / 4);

    // allocate thread-local cache for results in registerfile
    float threadResults[TM * TN] = {0.0};
    float regM[TM] = {0.0};
    float regN[TN] = {0.0};

    // outer-most loop over block tiles
    for (uint bkIdx = 0; bkIdx < (uint)K; bkIdx += BK) {
        // populate the SMEM caches; transpose A while loading it
        const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        float4 tmp = innerRowA < rowsLeft ? load4(&A[innerRowA * K], innerColA * 4, K - bkIdx, vecA) : zero;
        As[(innerColA * 4 + 0) * AS_ROW + innerRowA] = tmp.x;
        As[(innerColA * 4 + 1) * AS_ROW + innerRowA] = tmp.y;
        As[(innerColA * 4 + 2) * AS_ROW + innerRowA] = tmp.z;
        As[(innerColA * 4 + 3) * AS_ROW + innerRowA] = tmp.w;

        reinterpret_cast<float4*>(&Bs[innerRowB * BN + innerColB * 4])[0] =
            bkIdx + innerRowB < (uint)K ? load4(&B[innerRowB * N], innerColB * 4, colsLeft, vecB) : zero;
        __syncthreads();

        // advance blocktile
        A += BK;      // move BK columns to right
        B += BK * N;  // move BK rows down

        // calculate per-thread results
#pragma unroll
        for (uint dotIdx = 0; dotIdx < BK; ++dotIdx) {
            // block into registers
#pragma unroll
            for (uint i = 0; i < TM; ++i) regM[i] = As[dotIdx * AS_ROW + threadRow * TM + i];
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
        const uint r = threadRow * TM + resIdxM;
        if (r >= rowsLeft) continue;
#pragma unroll
        for (uint resIdxN = 0; resIdxN < TN; resIdxN += 4) {
            const uint c = threadCol * TN + resIdxN;
            const float* res = &threadResults[resIdxM * TN + resIdxN];
            if (vecB && c + 3 < colsLeft) {
                // load C vector into registers
                float4 tmp;
                tmp.x = res[0];
                tmp.y = res[1];
                tmp.z = res[2];
                tmp.w = res[3];
                // write back
                reinterpret_cast<float4*>(&C[r * N + c])[0] = tmp;
            } else {
                for (uint j = 0; j < 4; ++j)
                    if (c + j < colsLeft) C[r * N + c + j] = res[j];
            }
        }
    }
}

#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))

void matmul_vectorized(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 gridDim(CEIL_DIV(cols, BN), CEIL_DIV(rows, BM));
    dim3 blockDim((BM * BN) / (TM * TN));
    matmul_vectorized_kernel<<<gridDim, blockDim>>>(M, N, P, rows, inner, cols);
}
