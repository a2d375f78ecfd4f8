// Kernels for the CPU backend's tests of the kit's tensor-core wrappers (tilelab/mma.hpp: mma.sync m16n8k8 TF32,
// ldmatrix), in CUDA as a student writes them: the build rewrites this file as it rewrites a lab, and nvcc
// compiles it as it is for sm_80 and later (nvcc -arch=sm_90 -I common/include -c mma_sync_kernels.cu). Each
// launcher returns the launch's error, else the kernel's.
#include "mma_sync_kernels.hpp"
#include "launch_result.hpp"

#include <tilelab/mma.hpp>

using tilelab::unit::launch_result;

namespace {

/// One warp: D = A B + C with the fragments read from global memory as @p layout says (FragmentLayout).
__global__ void one_kernel(const float* A, const float* B, const float* C, float* D, bool convert, int layout) {
    const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    float a[4] = {A[g * 8 + t], A[(g + 8) * 8 + t], A[g * 8 + t + 4], A[(g + 8) * 8 + t + 4]};
    float b[2] = {B[t * 8 + g], B[(t + 4) * 8 + g]};
    float c[4] = {C[g * 8 + 2 * t], C[g * 8 + 2 * t + 1], C[(g + 8) * 8 + 2 * t], C[(g + 8) * 8 + 2 * t + 1]};
    if (layout == static_cast<int>(FragmentLayout::a_swapped)) {
        const float x = a[1];  // (wrong on purpose)
        a[1] = a[2];
        a[2] = x;
    } else if (layout == static_cast<int>(FragmentLayout::b_transposed)) {
        b[0] = B[g * 8 + t];  // (wrong on purpose)
        b[1] = B[g * 8 + t + 4];
    }
    if (convert) {
        for (float& x : a) x = tilelab::to_tf32(x);
        for (float& x : b) x = tilelab::to_tf32(x);
    }
    tilelab::mma_m16n8k8_tf32(c, a, b);
    D[g * 8 + 2 * t] = c[0];
    D[g * 8 + 2 * t + 1] = c[1];
    D[(g + 8) * 8 + 2 * t] = c[2];
    D[(g + 8) * 8 + 2 * t + 1] = c[3];
}

__global__ void to_tf32_kernel(const float* in, float* out) { out[threadIdx.x] = tilelab::to_tf32(in[threadIdx.x]); }

constexpr int ld_tile = 12;  // floats per row of the shared tile: 48 bytes, so that every row starts 16-byte aligned

/// See mma_sync_ldmatrix.
__global__ void ldmatrix_kernel(const float* in, float* out, int matrices, bool sync, int column_offset,
                                bool from_global) {
    __shared__ __align__(16) float tile[16][ld_tile];
    const int lane = threadIdx.x % 32;
    for (int e = lane; e < 16 * 8; e += 32) tile[e / 8][e % 8] = in[e];
    if (sync) __syncwarp();  // every lane's elements are in the tile before the warp loads it
    float fragment[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if (matrices == 4) {
        float x4[4];
        const int row = lane % 16, column = 4 * (lane / 16) + column_offset;
        if (from_global)
            tilelab::ldmatrix_x4(x4, in + row * 8 + column);
        else
            tilelab::ldmatrix_x4(x4, &tile[row][column]);
        for (int j = 0; j < 4; ++j) fragment[j] = x4[j];
    } else {
        float x2[2];
        const float* row = &tile[lane % 8][4 * (lane / 8) % 8 + column_offset];  // lanes 16-31: not read
        tilelab::ldmatrix_x2(x2, row);
        fragment[0] = x2[0];
        fragment[1] = x2[1];
    }
    for (int j = 0; j < 4; ++j) out[4 * lane + j] = fragment[j];
}

constexpr int tile = 32;   // the block's tile of P: 32 x 32, four warps of 16 x 16
constexpr int depth = 16;  // a phase: two k-steps of 8
constexpr int pad_m = 4;   // M's tile rows 20 floats: 16-byte aligned, and ldmatrix's eight rows in eight bank groups
constexpr int pad_n = 8;   // N's tile rows 40 floats: B's plain loads (rows t, columns g) hit 32 different banks

/// See mma_sync_tiled.
__global__ void tiled_kernel(const float* M, const float* N, float* P, int size, int skip) {
    __shared__ __align__(16) float Ms[tile][depth + pad_m];
    __shared__ __align__(16) float Ns[depth][tile + pad_n];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    const int warp_row = (warp / 2) * 16, warp_col = (warp % 2) * 16;
    const int row0 = blockIdx.y * tile, col0 = blockIdx.x * tile;
    float acc[2][4] = {};
    for (int k0 = 0; k0 < size; k0 += depth) {
        for (int e = threadIdx.x; e < tile * depth; e += blockDim.x) {
            Ms[e / depth][e % depth] = M[(row0 + e / depth) * size + k0 + e % depth];
            Ns[e / tile][e % tile] = N[(k0 + e / tile) * size + col0 + e % tile];
        }
        if (skip != 1) __syncthreads();  // the tiles are complete before any warp loads fragments from them
        for (int k = 0; k < depth; k += 8) {
            float a[4];
            tilelab::ldmatrix_x4(a, &Ms[warp_row + lane % 16][k + 4 * (lane / 16)]);
            for (float& x : a) x = tilelab::to_tf32(x);
            for (int j = 0; j < 2; ++j) {
                const int n = warp_col + 8 * j + g;
                float b[2] = {tilelab::to_tf32(Ns[k + t][n]), tilelab::to_tf32(Ns[k + t + 4][n])};
                tilelab::mma_m16n8k8_tf32(acc[j], a, b);
            }
        }
        if (skip != 2) __syncthreads();  // every warp has read the tiles before the next phase overwrites them
    }
    for (int j = 0; j < 2; ++j) {
        const int row = row0 + warp_row + g, col = col0 + warp_col + 8 * j + 2 * t;
        P[row * size + col] = acc[j][0];
        P[row * size + col + 1] = acc[j][1];
        P[(row + 8) * size + col] = acc[j][2];
        P[(row + 8) * size + col + 1] = acc[j][3];
    }
}

}  // namespace

/// The line of the mma that only half of a warp reaches (in divergent_kernel), for the test's expectation.
const int mma_sync_divergent_line = __LINE__ + 8;

namespace {

/// Lanes 0-15 multiply, lanes 16-31 skip the product and go on to the store (wrong on purpose).
__global__ void divergent_kernel(float* out) {
    float a[4] = {1.0f, 1.0f, 1.0f, 1.0f}, b[2] = {1.0f, 1.0f}, c[4] = {};
    const int lane = threadIdx.x % 32;
    if (lane < 16) tilelab::mma_m16n8k8_tf32(c, a, b);  // (wrong on purpose) a per-thread test around a warp call
    __syncwarp();
    for (int j = 0; j < 4; ++j) out[4 * lane + j] = c[j];
}

/// Every thread calls the product, the second warp of a 48-thread block having only 16 lanes.
__global__ void partial_warp_kernel(float* out) {
    float a[4] = {1.0f, 1.0f, 1.0f, 1.0f}, b[2] = {1.0f, 1.0f}, c[4] = {};
    tilelab::mma_m16n8k8_tf32(c, a, b);
    out[threadIdx.x] = c[0];
}

}  // namespace

cudaError_t mma_sync_one(const float* A, const float* B, const float* C, float* D, bool convert,
                         FragmentLayout layout) {
    one_kernel<<<1, 32>>>(A, B, C, D, convert, static_cast<int>(layout));
    return launch_result();
}

cudaError_t mma_sync_to_tf32(const float* in, float* out) {
    to_tf32_kernel<<<1, 32>>>(in, out);
    return launch_result();
}

cudaError_t mma_sync_ldmatrix(const float* in, float* out, int matrices, bool sync, int column_offset,
                              bool from_global) {
    ldmatrix_kernel<<<1, 32>>>(in, out, matrices, sync, column_offset, from_global);
    return launch_result();
}

cudaError_t mma_sync_tiled(const float* M, const float* N, float* P, int size, int skip) {
    tiled_kernel<<<dim3(size / tile, size / tile), 128>>>(M, N, P, size, skip);
    return launch_result();
}

cudaError_t mma_sync_divergent(float* out) {
    divergent_kernel<<<1, 32>>>(out);
    return launch_result();
}

cudaError_t mma_sync_partial_warp(float* out) {
    partial_warp_kernel<<<1, 48>>>(out);
    return launch_result();
}
