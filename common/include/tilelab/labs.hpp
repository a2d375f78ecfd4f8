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
