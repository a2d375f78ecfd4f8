/// @file grader/selftest/bad/half-fragments/09_tensor_cores/kernel.cu
/// @brief Lab 09 on half-precision warp matrices (m16n16k16, __half inputs converted while staging, FP32
/// accumulators), as NVIDIA's "Programming Tensor Cores in CUDA 9" post writes them: CUDA that the CPU backend does
/// not emulate. Its build check must name that first (<cuda_fp16.h>, half precision), not the errors the rest of
/// the file gives without it. (Half inputs are also coarser than lab 09's TF32 allows: its input-range check fails
/// them on a GPU.)
#include <tilelab/labs.hpp>

#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

namespace {
constexpr int kTile = TENSOR_CORE_BLOCK_TILE;
constexpr int kK = 16;  // one m16n16k16 step per phase
constexpr int kLdA = kK + 8, kLdB = kTile + 8, kLdC = 16 + 4;
}  // namespace

__global__ void matmul_tensor_core_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ __align__(32) __half As[kTile][kLdA];
    __shared__ __align__(32) __half Bs[kK][kLdB];
    __shared__ __align__(32) float Cs[TENSOR_CORE_THREADS / 32][16][kLdC];
    const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[kTile / 16];
    for (int j = 0; j < kTile / 16; ++j) wmma::fill_fragment(acc[j], 0.0f);
    for (int k0 = 0; k0 < inner; k0 += kK) {
        for (int e = threadIdx.x; e < kTile * kK; e += TENSOR_CORE_THREADS) {
            const int r = e / kK, k = e % kK;
            As[r][k] = __float2half(row0 + r < rows && k0 + k < inner ? M[(row0 + r) * inner + k0 + k] : 0.0f);
            const int bk = e / kTile, c = e % kTile;
            Bs[bk][c] = __float2half(k0 + bk < inner && col0 + c < cols ? N[(k0 + bk) * cols + col0 + c] : 0.0f);
        }
        __syncthreads();
        wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
        wmma::load_matrix_sync(a, &As[warp * 16][0], kLdA);
        for (int j = 0; j < kTile / 16; ++j) {
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
            wmma::load_matrix_sync(b, &Bs[0][j * 16], kLdB);
            wmma::mma_sync(acc[j], a, b, acc[j]);
        }
        __syncthreads();
    }
    for (int j = 0; j < kTile / 16; ++j) {
        wmma::store_matrix_sync(&Cs[warp][0][0], acc[j], kLdC, wmma::mem_row_major);
        __syncwarp();
        for (int e = lane; e < 256; e += 32) {
            const int r = row0 + warp * 16 + e / 16, c = col0 + j * 16 + e % 16;
            if (r < rows && c < cols) P[r * cols + c] = Cs[warp][e / 16][e % 16];
        }
        __syncwarp();
    }
}

void matmul_tensor_core(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    matmul_tensor_core_kernel<<<grid, TENSOR_CORE_THREADS>>>(M, N, P, rows, inner, cols);
}
