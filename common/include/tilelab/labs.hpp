/// @file labs.hpp
/// @brief The lab contract: the kernels and launchers every lab, solution and submission defines.
///
/// Matrices are row-major `float`. Every lab computes P = M · N where
/// - M is `rows × inner` (element (r, k) at `M[r * inner + k]`),
/// - N is `inner × cols` (element (k, c) at `N[k * cols + c]`),
/// - P is `rows × cols`  (element (r, c) at `P[r * cols + c]`).
///
/// The launchers take device pointers, choose the grid and block, and launch; they do not
/// synchronise or check errors (the grader does both, so that it can report a fault precisely).
///
/// The rule of the kit's own launch: besides calling the launcher, the kit launches each lab's kernel itself, with
/// the contract's grid and block (each lab's launcher below says which: TILE_WIDTH × TILE_WIDTH blocks, one per tile
/// of P, or a lab's own block tile and thread count) and with the dynamic shared memory the lab's launcher gives the
/// kernel (the third `<<< >>>` argument; above 48 KB, with the launcher's `cudaFuncSetAttribute` opt-in). A kernel
/// must compute P under that launch too; one that works only under a grid or block of its launcher's own fails it.
///
/// The kernels and launchers live in the global namespace, as in the textbook, so that a
/// student's file reads like the chapter it follows.
#pragma once

/// Width (and height) of a square tile and of a thread block, in elements and threads.
/// The build compiles each lab for 8, 16 and 32 (`-DTILE_WIDTH=...`); 16 when nothing says otherwise.
#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

/// @def TILELAB_KERNEL
/// `__global__` when nvcc compiles the file; nothing in host C++, where a kernel's name stands for the
/// host-side launch stub that nvcc generates under the same name (enough to take its address).
#if defined(__CUDACC__)
#define TILELAB_KERNEL __global__
#else
#define TILELAB_KERNEL
#endif

/// @name Lab 01: naive kernel
/// @{

/// One thread computes one element of P, reading a whole row of M and column of N from global memory.
TILELAB_KERNEL void matmul_naive_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// Launches matmul_naive_kernel with TILE_WIDTH × TILE_WIDTH blocks over all of P (device pointers).
void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// @}

/// @name Lab 02: tiled kernel, sizes multiples of TILE_WIDTH
/// @{

/// Each block computes one TILE_WIDTH × TILE_WIDTH tile of P from tiles of M and N staged in shared memory.
/// May assume rows, inner and cols are multiples of TILE_WIDTH.
TILELAB_KERNEL void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// Launches matmul_tiled_kernel over all of P (device pointers; sizes multiples of TILE_WIDTH).
void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// @}

/// @name Lab 03: tiled kernel with boundary checks, any shape
/// @{

/// The tiled kernel for any rows, inner and cols: partial tiles are zero-filled, stores are bounds-checked.
TILELAB_KERNEL void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                                 int cols);
/// Launches matmul_tiled_boundary_kernel over all of P for any shape (device pointers).
void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// @}

/// @name Lab 04: host code that times the lab 03 kernel
/// @{

/// Multiplies host matrices on the GPU: allocates device memory, copies M and N in, launches
/// matmul_tiled_boundary_kernel over all of P, copies P back (host pointer) and frees the device memory.
/// Returns the kernel's own time in milliseconds, measured with CUDA events around the launch alone.
/// Throws tilelab::CudaError (through TILELAB_CUDA_CHECK) when any CUDA call fails, after freeing what it allocated.
float matmul_timed(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// @}

/// @name Lab 05: thread coarsening (1D register tiling), any shape
/// The lab's own configuration, fixed for every TILE_WIDTH (the build still sets TILE_WIDTH; these labs ignore it):
/// a block computes a COARSENED_BLOCK_TILE × COARSENED_BLOCK_TILE tile of P with
/// COARSENED_BLOCK_TILE² / COARSENED_OUTPUTS threads (a one-dimensional block of 512), each thread a column of
/// COARSENED_OUTPUTS elements of P kept in registers; each phase stages COARSENED_PHASE_DEPTH columns of M and
/// rows of N in shared memory.
/// @{

/// Rows and columns of P one block computes.
inline constexpr int COARSENED_BLOCK_TILE = 64;
/// Columns of M (rows of N) one phase stages in shared memory.
inline constexpr int COARSENED_PHASE_DEPTH = 8;
/// Elements of P (one column of them) each thread computes.
inline constexpr int COARSENED_OUTPUTS = 8;
/// Threads per block: one per column of COARSENED_OUTPUTS outputs.
inline constexpr int COARSENED_THREADS = COARSENED_BLOCK_TILE * COARSENED_BLOCK_TILE / COARSENED_OUTPUTS;

/// Each thread computes COARSENED_OUTPUTS elements of one column of P, reusing each N_tile value it reads for all
/// of them; any rows, inner and cols.
TILELAB_KERNEL void matmul_coarsened_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// Launches matmul_coarsened_kernel with COARSENED_THREADS threads per block, one block per
/// COARSENED_BLOCK_TILE × COARSENED_BLOCK_TILE tile of P, partial tiles included (device pointers).
void matmul_coarsened(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// @}

/// @name Lab 06: 2D register tiling, any shape
/// The lab's own configuration, fixed for every TILE_WIDTH: a block computes a REGISTER_BLOCK_TILE ×
/// REGISTER_BLOCK_TILE tile of P with (REGISTER_BLOCK_TILE / REGISTER_MICRO_TILE)² threads (a one-dimensional
/// block of 256), each thread a REGISTER_MICRO_TILE × REGISTER_MICRO_TILE micro-tile of P kept in registers;
/// each phase stages REGISTER_PHASE_DEPTH columns of M and rows of N in shared memory.
/// @{

/// Rows and columns of P one block computes.
inline constexpr int REGISTER_BLOCK_TILE = 128;
/// Columns of M (rows of N) one phase stages in shared memory.
inline constexpr int REGISTER_PHASE_DEPTH = 8;
/// Rows and columns of the micro-tile of P each thread computes.
inline constexpr int REGISTER_MICRO_TILE = 8;
/// Threads per block: one per micro-tile.
inline constexpr int REGISTER_THREADS =
    (REGISTER_BLOCK_TILE / REGISTER_MICRO_TILE) * (REGISTER_BLOCK_TILE / REGISTER_MICRO_TILE);

/// Each thread computes a REGISTER_MICRO_TILE × REGISTER_MICRO_TILE micro-tile of P from a column of M_tile and
/// a row of N_tile held in registers at each step; any rows, inner and cols.
TILELAB_KERNEL void matmul_register_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                                 int cols);
/// Launches matmul_register_tiled_kernel with REGISTER_THREADS threads per block, one block per
/// REGISTER_BLOCK_TILE × REGISTER_BLOCK_TILE tile of P, partial tiles included (device pointers).
void matmul_register_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// @}

/// @name Lab 07: vectorised 16-byte loads, M's tile transposed in shared memory, any shape
/// The lab's own configuration, fixed for every TILE_WIDTH: lab 06's block tile, micro-tile, threads and phase
/// depth, with M_tile stored transposed (one row per k, VECTOR_SHARED_PADDING floats longer than the block tile so
/// that the transposing stores do not collide in a bank), global memory read and P written 16 bytes (a `float4`) at
/// a time where a row's length allows it, and both tiles read from shared memory as `float4`s.
/// @{

/// Rows and columns of P one block computes.
inline constexpr int VECTOR_BLOCK_TILE = 128;
/// Columns of M (rows of N) one phase stages in shared memory.
inline constexpr int VECTOR_PHASE_DEPTH = 8;
/// Rows and columns of the micro-tile of P each thread computes.
inline constexpr int VECTOR_MICRO_TILE = 8;
/// Floats added to each row of the transposed M_tile: a multiple of 4 keeps each row 16-byte aligned.
inline constexpr int VECTOR_SHARED_PADDING = 4;
/// Threads per block: one per micro-tile.
inline constexpr int VECTOR_THREADS = (VECTOR_BLOCK_TILE / VECTOR_MICRO_TILE) * (VECTOR_BLOCK_TILE / VECTOR_MICRO_TILE);

/// Each thread computes a VECTOR_MICRO_TILE × VECTOR_MICRO_TILE micro-tile of P, as in lab 06, moving 16 bytes
/// per load and store wherever the operands' row lengths are multiples of 4; any rows, inner and cols.
TILELAB_KERNEL void matmul_vectorized_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// Launches matmul_vectorized_kernel with VECTOR_THREADS threads per block, one block per VECTOR_BLOCK_TILE ×
/// VECTOR_BLOCK_TILE tile of P, partial tiles included (device pointers).
void matmul_vectorized(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// @}

/// @name Lab 08: warp tiling and double buffering with asynchronous copies, any shape
/// The lab's own configuration, fixed for every TILE_WIDTH: a block of WARP_TILED_THREADS threads (eight warps)
/// computes a WARP_TILED_BLOCK_TILE × WARP_TILED_BLOCK_TILE tile of P; each warp a region of it (the warp tile),
/// each thread WARP_TILED_MICRO_TILE × WARP_TILED_MICRO_TILE outputs spread over that region; the tiles of the next
/// phase (WARP_TILED_PHASE_DEPTH deep) are copied into shared memory asynchronously while the current one is
/// multiplied. The warp tile's shape and the number of stages are the lab's tuning knobs, in the student's file.
/// @{

/// Rows and columns of P one block computes.
inline constexpr int WARP_TILED_BLOCK_TILE = 128;
/// Columns of M (rows of N) one phase stages in shared memory.
inline constexpr int WARP_TILED_PHASE_DEPTH = 16;
/// Rows and columns of P each thread computes (in four 4 × 4 pieces, see the handout).
inline constexpr int WARP_TILED_MICRO_TILE = 8;
/// Threads per block: one per micro-tile (eight warps).
inline constexpr int WARP_TILED_THREADS =
    (WARP_TILED_BLOCK_TILE / WARP_TILED_MICRO_TILE) * (WARP_TILED_BLOCK_TILE / WARP_TILED_MICRO_TILE);

/// Each warp computes its warp tile of P from stages of M_tile (M's layout, its 16-byte chunks swizzled) and N_tile
/// filled by asynchronous copies ahead of the multiplication; any rows, inner and cols.
TILELAB_KERNEL void matmul_warp_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// Launches matmul_warp_tiled_kernel with WARP_TILED_THREADS threads per block, one block per
/// WARP_TILED_BLOCK_TILE × WARP_TILED_BLOCK_TILE tile of P, partial tiles included (device pointers).
void matmul_warp_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// @}

/// @name Lab 09: tensor cores (warp matrix functions, TF32 inputs, FP32 accumulators), any shape
/// The lab's own configuration, fixed for every TILE_WIDTH: a block of TENSOR_CORE_THREADS threads (eight warps)
/// computes a TENSOR_CORE_BLOCK_TILE × TENSOR_CORE_BLOCK_TILE tile of P; each warp a region of it (the warp tile) as
/// 16 × 16 accumulator fragments, multiplied with `nvcuda::wmma`'s m16n16k8 TF32 fragments from tiles that lab 08's
/// asynchronous copies stage in shared memory (TENSOR_CORE_PHASE_DEPTH deep, double buffered). Its inputs are
/// rounded to TF32 (10 explicit mantissa bits) by the kernel, so the checker allows TF32's rounding error
/// (docs/grading.md, tolerance). The warp tile's shape is the lab's tuning knob, in the student's file. TF32
/// fragments exist from compute capability 8.0 on: the build compiles the lab for those of its architectures only
/// (its min_compute_capability, cmake/TileLabRunner.cmake).
/// @{

/// Rows and columns of P one block computes.
inline constexpr int TENSOR_CORE_BLOCK_TILE = 128;
/// Columns of M (rows of N) one phase stages in shared memory: two m16n16k8 steps.
inline constexpr int TENSOR_CORE_PHASE_DEPTH = 16;
/// Floats added to each row of both tiles in shared memory: a multiple of 4 keeps the rows 16-byte aligned (for
/// the copies and for `load_matrix_sync`'s leading dimension), and 4 moves each row four banks along.
inline constexpr int TENSOR_CORE_SHARED_PADDING = 4;
/// Threads per block: eight warps.
inline constexpr int TENSOR_CORE_THREADS = 256;

/// Each warp computes its warp tile of P with `wmma::mma_sync` on TF32 fragments loaded from the shared-memory
/// tiles (converted with `wmma::__float_to_tf32`), the next phase's tiles copied in asynchronously meanwhile; any
/// rows, inner and cols.
TILELAB_KERNEL void matmul_tensor_core_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                              int cols);
/// Launches matmul_tensor_core_kernel with TENSOR_CORE_THREADS threads per block, one block per
/// TENSOR_CORE_BLOCK_TILE × TENSOR_CORE_BLOCK_TILE tile of P, partial tiles included (device pointers).
void matmul_tensor_core(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// @}

/// @name Lab 10: tensor cores through mma.sync (m16n8k8, TF32 inputs, FP32 accumulators), any shape
/// The lab's own configuration, fixed for every TILE_WIDTH: a block of MMA_SYNC_THREADS threads (four warps) computes
/// an MMA_SYNC_BLOCK_TILE × MMA_SYNC_BLOCK_TILE tile of P; each warp a region of it (the warp tile) as 16 × 8 pieces,
/// each the product of one `mma.sync.aligned.m16n8k8` per step of 8 along k, called through the kit's wrappers
/// (tilelab/mma.hpp: tilelab::mma_m16n8k8_tf32, tilelab::to_tf32, tilelab::ldmatrix_x4), from fragments that each
/// lane loads from shared memory in the instruction's documented layout. The tiles of the next phases
/// (MMA_SYNC_PHASE_DEPTH deep) are copied into shared memory asynchronously while the current one is multiplied,
/// laid out (swizzled or padded) so that the fragment loads are free of bank conflicts. Its inputs are rounded to
/// TF32 by the kernel, so the checker allows TF32's rounding error, as for lab 09. The warp tile's shape and the
/// number of stages are the lab's tuning knobs, in the student's file. The instructions exist from compute capability
/// 8.0 on: the build compiles the lab for those of its architectures only (its min_compute_capability).
/// @{

/// Rows and columns of P one block computes.
inline constexpr int MMA_SYNC_BLOCK_TILE = 128;
/// Columns of M (rows of N) one phase stages in shared memory: two m16n8k8 steps.
inline constexpr int MMA_SYNC_PHASE_DEPTH = 16;
/// Threads per block: four warps.
inline constexpr int MMA_SYNC_THREADS = 128;

/// Each warp computes its warp tile of P with tilelab::mma_m16n8k8_tf32 on TF32 fragments loaded from the
/// shared-memory tiles (A's with tilelab::ldmatrix_x4, B's with plain loads) and converted with tilelab::to_tf32, the
/// next phases' tiles copied in asynchronously meanwhile; any rows, inner and cols.
TILELAB_KERNEL void matmul_mma_sync_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// Launches matmul_mma_sync_kernel with MMA_SYNC_THREADS threads per block, one block per MMA_SYNC_BLOCK_TILE ×
/// MMA_SYNC_BLOCK_TILE tile of P, partial tiles included (device pointers).
void matmul_mma_sync(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// @}
