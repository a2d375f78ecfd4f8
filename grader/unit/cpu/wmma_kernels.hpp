// Launchers of the kernels in wmma_kernels.cu (device pointers in; the runtime's verdict out).
#pragma once

#include <cuda_runtime_api.h>

/// One warp: D = A B + C with TF32 fragments (A 16 x 8, column major when @p a_columns; B 8 x 16, column major when
/// @p b_columns; C and D 16 x 16 row major); the fragments' elements converted with __float_to_tf32 when @p convert.
cudaError_t wmma_mma(const float* A, bool a_columns, const float* B, bool b_columns, const float* C, float* D,
                     bool convert);
/// P = M N for size x size matrices (size a multiple of 64), four warps per 64 x 64 tile of P; @p skip leaves out
/// a barrier: 1 the one after storing the shared tiles, 2 the one at the end of a phase; 0 none.
cudaError_t wmma_tiled(const float* M, const float* N, float* P, int size, int skip);
/// One warp loads a 16 x 16 accumulator from @p in (row or column major, leading dimension @p ldm) and stores it
/// to @p out (the same ldm); with @p fill it stores fill_fragment's @p value instead.
cudaError_t wmma_layout(const float* in, float* out, int ldm, bool in_columns, bool out_columns, bool fill,
                        float value);
/// One warp loads a 16 x 16 tile (ldm 16), multiplies each fragment element by @p factor, lane 0 sets its x[0] to
/// @p mark when @p mark_first, and stores it.
cudaError_t wmma_elements(const float* in, float* out, float factor, bool mark_first, float mark);
/// Half of a warp reaches an mma_sync (at divergent_mma_line of wmma_kernels.cu), the other half skips it.
cudaError_t wmma_divergent(float* out);
/// The two halves of a warp give one load_matrix_sync different pointers (@p in and in + 256).
cudaError_t wmma_mismatch(const float* in, float* out);
/// Warp 0 stores a tile of 2s into shared memory with store_matrix_sync, warp 1 loads it with load_matrix_sync and
/// stores it to @p out (16 x 16); a __syncthreads() between them only when @p barrier.
cudaError_t wmma_exchange(float* out, bool barrier);
/// A block of 48 threads (a second warp of 16 lanes) loads and stores a 16 x 16 tile.
cudaError_t wmma_partial_warp(const float* in, float* out);

/// The line of wmma_kernels.cu where only half of divergent_kernel's warp calls mma_sync.
extern const int divergent_mma_line;
