// Kernels for the CPU backend's tests of the warp matrix functions (<mma.h>, TF32), in CUDA as a student writes it:
// the build rewrites this file as it rewrites a lab, and nvcc compiles it as it is for sm_80 and later
// (nvcc -arch=sm_90 -c wmma_kernels.cu). Each launcher returns the launch's error, else the kernel's.
#include "wmma_kernels.hpp"
#include "launch_result.hpp"

#include <mma.h>

using namespace nvcuda;

using tilelab::unit::launch_result;

namespace {

/// Converts every element of this lane's part of @p f to TF32: element-wise code that holds for any mapping.
template <class Fragment>
__device__ void to_tf32(Fragment& f) {
    for (int i = 0; i < f.num_elements; ++i) f.x[i] = wmma::__float_to_tf32(f.x[i]);
}

/// One warp: D = A B + C for a 16 x 8 A, an 8 x 16 B and a 16 x 16 C (row major, ldm 16, as is D), A and B in the
/// layouts LayoutA and LayoutB with leading dimensions @p lda and @p ldb; converted to TF32 first when @p convert.
template <class LayoutA, class LayoutB>
__global__ void mma_kernel(const float* A, int lda, const float* B, int ldb, const float* C, float* D, bool convert) {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, LayoutA> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, LayoutB> b;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
    wmma::load_matrix_sync(a, A, lda);
    wmma::load_matrix_sync(b, B, ldb);
    wmma::load_matrix_sync(c, C, 16, wmma::mem_row_major);
    if (convert) {
        to_tf32(a);
        to_tf32(b);
    }
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 16, wmma::mem_row_major);
}

constexpr int tile = 64;       // the block's tile of P: 64 x 64, four warps of 32 x 32 (2 x 2 fragments each)
constexpr int tile_k = 16;     // the phase's depth: two k-steps of 8
constexpr int pad = 4;         // rows padded to keep ldm a multiple of 4 and the fragments 32-byte aligned

/// P = M N (size x size, row major, size a multiple of 64), one block of four warps per 64 x 64 tile, through
/// shared tiles loaded element by element. @p skip leaves out a barrier: 1 the one after the tiles are stored
/// (fragments read a tile other warps are still storing), 2 the one at the end of a phase (the next phase overwrites
/// a tile other warps' fragments still read).
__global__ void tiled_kernel(const float* M, const float* N, float* P, int size, int skip) {
    __shared__ __align__(32) float Ms[tile][tile_k + pad];
    __shared__ __align__(32) float Ns[tile_k][tile + pad];
    const int t = threadIdx.x;
    const int warp = t / 32;
    const int warp_row = (warp / 2) * 32, warp_col = (warp % 2) * 32;
    const int row0 = blockIdx.y * tile, col0 = blockIdx.x * tile;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[2][2];
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
    for (int k0 = 0; k0 < size; k0 += tile_k) {
        for (int e = t; e < tile * tile_k; e += blockDim.x) {
            Ms[e / tile_k][e % tile_k] = M[(row0 + e / tile_k) * size + k0 + e % tile_k];
            Ns[e / tile][e % tile] = N[(k0 + e / tile) * size + col0 + e % tile];
        }
        if (skip != 1) __syncthreads();  // the tiles are complete before any warp loads fragments from them
        for (int k = 0; k < tile_k; k += 8) {
            wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a[2];
            wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b[2];
            for (int i = 0; i < 2; ++i) {
                wmma::load_matrix_sync(a[i], &Ms[warp_row + 16 * i][k], tile_k + pad);
                to_tf32(a[i]);
                wmma::load_matrix_sync(b[i], &Ns[k][warp_col + 16 * i], tile + pad);
                to_tf32(b[i]);
            }
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        if (skip != 2) __syncthreads();  // every warp has read the tiles before the next phase overwrites them
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            wmma::store_matrix_sync(&P[(row0 + warp_row + 16 * i) * size + col0 + warp_col + 16 * j], acc[i][j], size,
                                    wmma::mem_row_major);
}

/// One warp loads a 16 x 16 accumulator from @p in (leading dimension @p ldm, column major when @p in_columns) and
/// stores it to @p out (the same ldm, column major when @p out_columns); with @p fill, it stores @p value
/// everywhere instead (fill_fragment).
__global__ void layout_kernel(const float* in, float* out, int ldm, bool in_columns, bool out_columns, bool fill,
                              float value) {
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
    if (fill) {
        wmma::fill_fragment(c, value);
    } else {
        wmma::load_matrix_sync(c, in, ldm, in_columns ? wmma::mem_col_major : wmma::mem_row_major);
    }
    wmma::store_matrix_sync(out, c, ldm, out_columns ? wmma::mem_col_major : wmma::mem_row_major);
}

/// One warp loads a 16 x 16 tile, multiplies every element of the fragment by @p factor (element-wise code that
/// holds for any mapping), and lane 0 then sets its x[0] to @p mark when @p mark_first (code that assumes which
/// element x[0] is); stores the tile.
__global__ void elements_kernel(const float* in, float* out, float factor, bool mark_first, float mark) {
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
    wmma::load_matrix_sync(c, in, 16, wmma::mem_row_major);
    for (int i = 0; i < c.num_elements; ++i) c.x[i] *= factor;
    if (mark_first && threadIdx.x == 0) c.x[0] = mark;
    wmma::store_matrix_sync(out, c, 16, wmma::mem_row_major);
}

}  // namespace

/// The line of the mma_sync that only half of a warp reaches (in divergent_kernel), for the test's expectation.
const int divergent_mma_line = __LINE__ + 12;

namespace {

/// Lanes 0-15 of the warp multiply; lanes 16-31 skip the mma_sync and go on to the store (wrong on purpose).
__global__ void divergent_kernel(float* out) {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
    wmma::fill_fragment(a, 1.0f);
    wmma::fill_fragment(b, 1.0f);
    wmma::fill_fragment(c, 0.0f);
    if (threadIdx.x < 16) wmma::mma_sync(c, a, b, c);  // (wrong on purpose) a per-thread test around a warp function
    wmma::store_matrix_sync(out, c, 16, wmma::mem_row_major);
}

/// Each half of the warp gives load_matrix_sync its own pointer (wrong on purpose: a per-thread pointer).
__global__ void mismatch_kernel(const float* in, float* out) {
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
    wmma::load_matrix_sync(c, in + (threadIdx.x / 16) * 256, 16, wmma::mem_row_major);
    wmma::store_matrix_sync(out, c, 16, wmma::mem_row_major);
}

/// Warp 0 stores an accumulator into a shared tile that warp 1 then loads, with a barrier between only when
/// @p barrier; warp 1 stores what it loaded to @p out.
__global__ void exchange_kernel(float* out, bool barrier) {
    __shared__ __align__(32) float shared_tile[16][16];
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
    const int warp = threadIdx.x / 32;
    if (warp == 0) {
        wmma::fill_fragment(c, 2.0f);
        wmma::store_matrix_sync(&shared_tile[0][0], c, 16, wmma::mem_row_major);
    }
    if (barrier) __syncthreads();  // warp 0's tile is complete before warp 1 loads it
    if (warp == 1) {
        wmma::load_matrix_sync(c, &shared_tile[0][0], 16, wmma::mem_row_major);
        wmma::store_matrix_sync(out, c, 16, wmma::mem_row_major);
    }
}

}  // namespace

cudaError_t wmma_mma(const float* A, bool a_columns, const float* B, bool b_columns, const float* C, float* D,
                     bool convert) {
    // A is 16 x 8: its rows are 8 apart row by row, its columns 16 apart column by column; B (8 x 16) the reverse.
    const int lda = a_columns ? 16 : 8, ldb = b_columns ? 8 : 16;
    if (a_columns && b_columns)
        mma_kernel<wmma::col_major, wmma::col_major><<<1, 32>>>(A, lda, B, ldb, C, D, convert);
    else if (a_columns)
        mma_kernel<wmma::col_major, wmma::row_major><<<1, 32>>>(A, lda, B, ldb, C, D, convert);
    else if (b_columns)
        mma_kernel<wmma::row_major, wmma::col_major><<<1, 32>>>(A, lda, B, ldb, C, D, convert);
    else
        mma_kernel<wmma::row_major, wmma::row_major><<<1, 32>>>(A, lda, B, ldb, C, D, convert);
    return launch_result();
}

cudaError_t wmma_tiled(const float* M, const float* N, float* P, int size, int skip) {
    tiled_kernel<<<dim3(size / tile, size / tile), 128>>>(M, N, P, size, skip);
    return launch_result();
}

cudaError_t wmma_layout(const float* in, float* out, int ldm, bool in_columns, bool out_columns, bool fill,
                        float value) {
    layout_kernel<<<1, 32>>>(in, out, ldm, in_columns, out_columns, fill, value);
    return launch_result();
}

cudaError_t wmma_elements(const float* in, float* out, float factor, bool mark_first, float mark) {
    elements_kernel<<<1, 32>>>(in, out, factor, mark_first, mark);
    return launch_result();
}

cudaError_t wmma_divergent(float* out) {
    divergent_kernel<<<1, 32>>>(out);
    return launch_result();
}

cudaError_t wmma_mismatch(const float* in, float* out) {
    mismatch_kernel<<<1, 32>>>(in, out);
    return launch_result();
}

cudaError_t wmma_exchange(float* out, bool barrier) {
    exchange_kernel<<<1, 64>>>(out, barrier);
    return launch_result();
}

cudaError_t wmma_partial_warp(const float* in, float* out) {
    layout_kernel<<<1, 48>>>(in, out, 16, false, false, false, 0.0f);
    return launch_result();
}
