// Launchers of the kernels in mma_sync_kernels.cu (device pointers in; the runtime's verdict out).
#pragma once

#include <cuda_runtime_api.h>

/// How mma_sync_one assembles its fragments: as the PTX ISA documents, or with one mistake a student makes.
enum class FragmentLayout {
    documented,    ///< a[0..3], b[0..1], c[0..3] where the ISA's table puts them
    a_swapped,     ///< a[1] and a[2] exchanged: A(g + 8, t) and A(g, t + 4) confused
    b_transposed,  ///< b[0] = B(g, t), b[1] = B(g, t + 4): B read as if its rows were n
};

/// One warp: D = A B + C, A 16 x 8, B 8 x 8 (rows k), C and D 16 x 8, all row major, each lane's fragments read from
/// global memory in @p layout; the elements of A and B converted with tilelab::to_tf32 first when @p convert.
cudaError_t mma_sync_one(const float* A, const float* B, const float* C, float* D, bool convert,
                         FragmentLayout layout);
/// Each lane's tilelab::to_tf32 of @p in[lane], into @p out[lane] (32 values).
cudaError_t mma_sync_to_tf32(const float* in, float* out);
/// One warp copies the 16 x 8 tile @p in (row major) into a shared tile of rows 12 floats long, then loads it with
/// ldmatrix_x4 (@p matrices 4: lane l gives row l % 16 at column 4 (l / 16) + @p column_offset) or ldmatrix_x2 (2: lane
/// l gives row l % 8 at column 4 (l / 8) + @p column_offset); out[4 lane + j] is lane's fragment[j] (j < matrices).
/// A __syncwarp() between the copy and the load only when @p sync. With @p from_global the lanes give addresses in
/// @p in instead (not shared memory).
cudaError_t mma_sync_ldmatrix(const float* in, float* out, int matrices, bool sync, int column_offset,
                              bool from_global);
/// P = M N for size x size matrices (size a multiple of 32): a block of four warps per 32 x 32 tile of P, each warp a
/// 16 x 16 piece as two m16n8k8 products per k-step, A's fragments by ldmatrix_x4 and B's by plain loads from tiles
/// staged in shared memory, converted with tilelab::to_tf32. @p skip leaves out a barrier: 1 the one after the tiles
/// are stored, 2 the one at the end of a phase; 0 none.
cudaError_t mma_sync_tiled(const float* M, const float* N, float* P, int size, int skip);
/// Lanes 0-15 of one warp call tilelab::mma_m16n8k8_tf32 (at mma_sync_divergent_line), lanes 16-31 skip it.
cudaError_t mma_sync_divergent(float* out);
/// A block of 48 threads (a second warp of 16 lanes) calls tilelab::mma_m16n8k8_tf32.
cudaError_t mma_sync_partial_warp(float* out);

/// The line of mma_sync_kernels.cu where only half of a warp calls tilelab::mma_m16n8k8_tf32.
extern const int mma_sync_divergent_line;
