/// @file labs/07_vectorized/kernel.cu
/// @brief Lab 07: 16-byte loads and stores, M's tile transposed in shared memory. The handout is README.md here.
#include <tilelab/labs.hpp>

/// Computes one VECTOR_BLOCK_TILE × VECTOR_BLOCK_TILE tile of P with VECTOR_THREADS threads, each a
/// VECTOR_MICRO_TILE × VECTOR_MICRO_TILE micro-tile in registers as in lab 06, but moving 16 bytes (a float4) per
/// access: M_tile is stored transposed (VECTOR_PHASE_DEPTH rows of VECTOR_BLOCK_TILE + VECTOR_SHARED_PADDING
/// floats) so that a thread's eight M values for one k are two float4s; any rows, inner and cols.
__global__ void matmul_vectorized_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // TODO(student): step 1, declare the transposed M_tile and N_tile in shared memory, 16-byte aligned, and the
    //                micro-tile of sums.
    // TODO(student): step 2, for each phase, load four consecutive elements of a row of M and four of a row of N
    //                per thread: one float4 load where the row's length is a multiple of 4 and all four are
    //                inside, else four guarded loads (0.0f outside); store M's four down a column of the
    //                transposed tile and N's as one float4; then wait.
    // TODO(student): step 3, for each k, read your eight M values and eight N values as four float4s and add all
    //                their products to the micro-tile; wait before the next phase.
    // TODO(student): step 4, store each row of the micro-tile as two float4s where the row of P allows it, else
    //                element by element, only inside P.
}

/// Launches matmul_vectorized_kernel: VECTOR_THREADS threads per block, one block per VECTOR_BLOCK_TILE ×
/// VECTOR_BLOCK_TILE tile of P, partial tiles included.
void matmul_vectorized(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(VECTOR_THREADS);
    const dim3 grid(1, 1);  // TODO(student): step 5, one block per tile of P, rounding up.
    matmul_vectorized_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
