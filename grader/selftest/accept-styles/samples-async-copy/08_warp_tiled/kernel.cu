/// @file grader/selftest/accept-styles/samples-async-copy/08_warp_tiled/kernel.cu
/// @brief Lab 08 as the CUDA Samples' globalToShmemAsyncCopy writes MatrixMulAsyncCopyMultiStageLargeChunk in its
/// primitives form (USE_CPP_API 0, CUDA 11.0; style: aBegin/aEnd/aStep and bBegin/bStep walking A and B, a rotating
/// buffer of maxPipelineStages stages indexed by iStage % maxPipelineStages, a producer loop that runs aStage ahead
/// of a, t4x and A4s/B4s float4 pointers handed to __pipeline_memcpy_async, __pipeline_commit() on every turn of
/// the producer loop, __pipeline_wait_prior(maxPipelineStages - 1), Csub), grown to the lab's 128 × 128 block
/// tile, 16-deep phases and 256 threads: each thread sums an 8 × 8 grid of outputs spaced 16 apart (ty + 16·i,
/// tx + 16·j), as the sample's one output per thread repeated, reading M's tile in M's own layout (no swizzle, no
/// warp tiles). What the sample leaves out for square multiples of the block: 4-byte copies, with zero-fill, where
/// a row's length is not a multiple of 4 or a group lies partly outside, and bounds on the stores; and a
/// __syncthreads() at the end of each phase, which the sample leaves out ("next iteration is loading to a different
/// buffer") though its producer loop refills the stage that slower threads may still read: two barriers a phase.
#include <tilelab/labs.hpp>

#include <cuda_pipeline.h>

namespace {
constexpr int BLOCK_SIZE = WARP_TILED_BLOCK_TILE;  // rows and columns of C per block
constexpr int BLOCK_K = WARP_TILED_PHASE_DEPTH;    // columns of A (rows of B) per stage
constexpr int THREADS = WARP_TILED_THREADS;
constexpr int SPREAD = 16;                          // tx, ty in 0..15; outputs 16 apart
constexpr int PER_THREAD = BLOCK_SIZE / SPREAD;     // 8 × 8 outputs per thread
constexpr int maxPipelineStages = 3;
static_assert(maxPipelineStages * BLOCK_K * 2 * BLOCK_SIZE * sizeof(float) <= 48 * 1024, "static shared memory");
static_assert(SPREAD * SPREAD == THREADS, "one thread per (ty, tx)");
}  // namespace

__global__ void matmul_warp_tiled_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                         float* __restrict__ C, int hA, int wA, int wB) {
    // Declaration of the shared memory array As used to store the sub-matrix of A for each stage
    __shared__ __align__(16) float As[maxPipelineStages][BLOCK_SIZE][BLOCK_K];
    // Declaration of the shared memory array Bs used to store the sub-matrix of B for each stage
    __shared__ __align__(16) float Bs[maxPipelineStages][BLOCK_K][BLOCK_SIZE];

    float Csub[PER_THREAD][PER_THREAD] = {};

    const int tx = threadIdx.x % SPREAD;
    const int ty = threadIdx.x / SPREAD;
    const int rowBegin = BLOCK_SIZE * blockIdx.y;
    const int colBegin = BLOCK_SIZE * blockIdx.x;

    // Index of the first sub-matrix of A processed by the block (a column of A), the last, and the step
    const int aBegin = 0;
    const int aEnd = wA - 1;
    const int aStep = BLOCK_K;
    // B's sub-matrices start at the same k, one row of B (wB floats) apart
    const bool a16 = wA % 4 == 0, b16 = wB % 4 == 0;

    // Each thread copies two groups of four of each tile: t4x is the group's first column in its row.
    auto load_stage = [&](int j, int aStage) {
#pragma unroll
        for (int g = 0; g < 2; ++g) {
            const int q = g * THREADS + threadIdx.x;
            // A: 128 rows of 4 groups
            const int aRow = q / (BLOCK_K / 4), t4x = (q % (BLOCK_K / 4)) * 4;
            const int r = rowBegin + aRow, k = aStage + t4x;
            if (a16 && r < hA && k < wA) {
                float4* const A4s = reinterpret_cast<float4*>(&As[j][aRow][t4x]);
                const float4* const A4 = reinterpret_cast<const float4*>(&A[static_cast<long long>(r) * wA + k]);
                __pipeline_memcpy_async(A4s, A4, sizeof(float4));
            } else {
                for (int e = 0; e < 4; ++e) {
                    const bool in = r < hA && k + e < wA;
                    __pipeline_memcpy_async(&As[j][aRow][t4x + e], in ? &A[static_cast<long long>(r) * wA + k + e] : A,
                                            sizeof(float), in ? 0 : sizeof(float));
                }
            }
            // B: 16 rows of 32 groups
            const int bRow = q / (BLOCK_SIZE / 4), t4c = (q % (BLOCK_SIZE / 4)) * 4;
            const int kb = aStage + bRow, c = colBegin + t4c;
            if (b16 && kb < wA && c < wB) {
                float4* const B4s = reinterpret_cast<float4*>(&Bs[j][bRow][t4c]);
                const float4* const B4 = reinterpret_cast<const float4*>(&B[static_cast<long long>(kb) * wB + c]);
                __pipeline_memcpy_async(B4s, B4, sizeof(float4));
            } else {
                for (int e = 0; e < 4; ++e) {
                    const bool in = kb < wA && c + e < wB;
                    __pipeline_memcpy_async(&Bs[j][bRow][t4c + e], in ? &B[static_cast<long long>(kb) * wB + c + e] : B,
                                            sizeof(float), in ? 0 : sizeof(float));
                }
            }
        }
    };

    // Loop over all the sub-matrices of A and B required to compute the block sub-matrix
    for (int a = aBegin, i = 0, aStage = aBegin, iStage = 0; a <= aEnd; a += aStep, ++i) {
        // Keep maxPipelineStages - 1 stages ahead of a: one committed batch per stage, empty past the end
        for (; aStage <= a + aStep * (maxPipelineStages - 1); aStage += aStep, ++iStage) {
            if (aStage <= aEnd) {
                // Rotating buffer
                const int j = iStage % maxPipelineStages;
                load_stage(j, aStage);
            }
            __pipeline_commit();
        }
        __pipeline_wait_prior(maxPipelineStages - 1);
        // Synchronize to make sure the matrices are loaded
        __syncthreads();

        // Rotating buffer
        const int j = i % maxPipelineStages;

        // Multiply the two matrices together; each thread computes 8 × 8 elements of the block sub-matrix
#pragma unroll
        for (int k = 0; k < BLOCK_K; ++k) {
            float b[PER_THREAD];
#pragma unroll
            for (int jj = 0; jj < PER_THREAD; ++jj) b[jj] = Bs[j][k][tx + SPREAD * jj];
#pragma unroll
            for (int ii = 0; ii < PER_THREAD; ++ii) {
                const float a_ik = As[j][ty + SPREAD * ii][k];
#pragma unroll
                for (int jj = 0; jj < PER_THREAD; ++jj) Csub[ii][jj] += a_ik * b[jj];
            }
        }
        // Synchronize so that the producer loop of the next iteration, which refills the stage read two
        // iterations before this one, never overwrites a stage a slower thread still reads
        __syncthreads();
    }

    // Write the block sub-matrix to device memory; each thread writes 64 elements
#pragma unroll
    for (int ii = 0; ii < PER_THREAD; ++ii) {
        const int row = rowBegin + ty + SPREAD * ii;
        if (row >= hA) break;
#pragma unroll
        for (int jj = 0; jj < PER_THREAD; ++jj) {
            const int col = colBegin + tx + SPREAD * jj;
            if (col < wB) C[static_cast<long long>(row) * wB + col] = Csub[ii][jj];
        }
    }
}

void matmul_warp_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // Setup execution parameters
    dim3 threads(THREADS);
    dim3 grid((cols + BLOCK_SIZE - 1) / BLOCK_SIZE, (rows + BLOCK_SIZE - 1) / BLOCK_SIZE);
    matmul_warp_tiled_kernel<<<grid, threads>>>(M, N, P, rows, inner, cols);
}
