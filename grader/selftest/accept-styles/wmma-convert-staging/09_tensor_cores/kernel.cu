/// @file grader/selftest/accept-styles/wmma-convert-staging/09_tensor_cores/kernel.cu
/// @brief Lab 09 with its inputs rounded to TF32 once, as they are staged into shared memory, rather than after
/// every fragment load (CUTLASS converts in its global-to-shared iterators the same way): the fragments then hold
/// TF32 values already and go straight to mma_sync. The next phase's tiles are read into registers (float4 where the
/// address is 16-byte aligned) while the current one is multiplied, the "register prefetch" of NVIDIA's SGEMM
/// write-ups; rows padded by 4 floats; each warp a 128 x 16 column of the block tile (8 warps side by side), so a
/// step loads one fragment of N and eight of M.
#include <tilelab/labs.hpp>

#include <mma.h>

#include <cstdint>

using namespace nvcuda;

namespace {
constexpr int kTile = TENSOR_CORE_BLOCK_TILE;
constexpr int kDepth = TENSOR_CORE_PHASE_DEPTH;
constexpr int kThreads = TENSOR_CORE_THREADS;
constexpr int kLdA = kDepth + TENSOR_CORE_SHARED_PADDING;  // As[r][k]
constexpr int kLdB = kTile + TENSOR_CORE_SHARED_PADDING;   // Bs[k][c]
constexpr int kGroups = kTile * kDepth / (4 * kThreads);  // groups of four of each tile per thread
constexpr int kFrags = kTile / 16;                         // accumulators per warp: its 128 rows
static_assert(kGroups == 2, "two groups of four of each tile per thread");

/// Four elements of a row of length @p length from @p col on, zeros past it: one float4 where all four are inside
/// and the address is 16-byte aligned.
__device__ __forceinline__ float4 four(const float* row, int col, int length) {
    const float* p = row + col;
    if (col + 3 < length && reinterpret_cast<uintptr_t>(p) % 16 == 0) return *reinterpret_cast<const float4*>(p);
    return make_float4(col < length ? p[0] : 0.0f, col + 1 < length ? p[1] : 0.0f, col + 2 < length ? p[2] : 0.0f,
                       col + 3 < length ? p[3] : 0.0f);
}
}  // namespace

__global__ void __launch_bounds__(TENSOR_CORE_THREADS)
    matmul_tensor_core_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ __align__(32) float As[kTile][kLdA];
    __shared__ __align__(32) float Bs[kDepth][kLdB];
    __shared__ __align__(32) float Cs[kThreads / 32][16][16 + 4];

    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile, wc = warp * 16;

    // This thread's groups: (row, k) of M's tile and (k, column) of N's, four consecutive elements each.
    int a_r[kGroups], a_k[kGroups], b_k[kGroups], b_c[kGroups];
    for (int g = 0; g < kGroups; ++g) {
        const int q = g * kThreads + threadIdx.x;
        a_r[g] = q / (kDepth / 4), a_k[g] = (q % (kDepth / 4)) * 4;
        b_k[g] = q / (kTile / 4), b_c[g] = (q % (kTile / 4)) * 4;
    }
    float4 ra[kGroups], rb[kGroups];
    auto fetch = [&](int k0) {
        for (int g = 0; g < kGroups; ++g) {
            const int r = row0 + a_r[g], k = k0 + b_k[g];
            ra[g] = r < rows ? four(M + static_cast<long long>(r) * inner, k0 + a_k[g], inner)
                             : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            rb[g] = k < inner ? four(N + static_cast<long long>(k) * cols, col0 + b_c[g], cols)
                              : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
    };

    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[kFrags];
    for (int i = 0; i < kFrags; ++i) wmma::fill_fragment(acc[i], 0.0f);

    fetch(0);
    for (int k0 = 0; k0 < inner; k0 += kDepth) {
        for (int g = 0; g < kGroups; ++g) {  // rounded to TF32 on the way in: the tiles hold TF32 values
            float* a = &As[a_r[g]][a_k[g]];
            a[0] = wmma::__float_to_tf32(ra[g].x), a[1] = wmma::__float_to_tf32(ra[g].y);
            a[2] = wmma::__float_to_tf32(ra[g].z), a[3] = wmma::__float_to_tf32(ra[g].w);
            float* b = &Bs[b_k[g]][b_c[g]];
            b[0] = wmma::__float_to_tf32(rb[g].x), b[1] = wmma::__float_to_tf32(rb[g].y);
            b[2] = wmma::__float_to_tf32(rb[g].z), b[3] = wmma::__float_to_tf32(rb[g].w);
        }
        __syncthreads();
        if (k0 + kDepth < inner) fetch(k0 + kDepth);  // in flight while this phase is multiplied
        for (int k = 0; k < kDepth; k += 8) {
            wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
            wmma::load_matrix_sync(b, &Bs[k][wc], kLdB);
            for (int i = 0; i < kFrags; ++i) {
                wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
                wmma::load_matrix_sync(a, &As[16 * i][k], kLdA);
                wmma::mma_sync(acc[i], a, b, acc[i]);
            }
        }
        __syncthreads();
    }

    for (int i = 0; i < kFrags; ++i) {
        const int r = row0 + 16 * i, c = col0 + wc;
        float* out = P + static_cast<long long>(r) * cols + c;
        if (r + 16 <= rows && c + 16 <= cols && cols % 4 == 0 && reinterpret_cast<uintptr_t>(out) % 32 == 0) {
            wmma::store_matrix_sync(out, acc[i], cols, wmma::mem_row_major);
            continue;
        }
        wmma::store_matrix_sync(&Cs[warp][0][0], acc[i], 16 + 4, wmma::mem_row_major);
        __syncwarp();
        for (int e = lane; e < 256; e += 32)
            if (r + e / 16 < rows && c + e % 16 < cols)
                P[static_cast<long long>(r + e / 16) * cols + c + e % 16] = Cs[warp][e / 16][e % 16];
        __syncwarp();
    }
}

void matmul_tensor_core(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 grid((cols + TENSOR_CORE_BLOCK_TILE - 1) / TENSOR_CORE_BLOCK_TILE,
                    (rows + TENSOR_CORE_BLOCK_TILE - 1) / TENSOR_CORE_BLOCK_TILE);
    matmul_tensor_core_kernel<<<grid, TENSOR_CORE_THREADS>>>(M, N, P, rows, inner, cols);
}
