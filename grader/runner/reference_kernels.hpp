/// @file reference_kernels.hpp
/// @brief The model kernels from solutions/, built under other names, that the performance gate races a lab
/// against: the previous stage's model answer, never the student's own code, which a student could slow down.
#pragma once

#include <cuda_runtime_api.h>  // says which backend this is

/// solutions/01_naive's matmul_naive, compiled with TILE_WIDTH = the gate's tile width (device pointers).
void tilelab_reference_matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// solutions/03_tiled_boundary's matmul_tiled_boundary at the gate's tile width: what lab 05 must beat.
void tilelab_reference_matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// solutions/05_coarsened's matmul_coarsened: what lab 06 must beat.
void tilelab_reference_matmul_coarsened(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// solutions/06_register_tiled's matmul_register_tiled: what lab 07 must beat.
void tilelab_reference_matmul_register_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// solutions/07_vectorized's matmul_vectorized: what lab 08 must beat.
void tilelab_reference_matmul_vectorized(const float* M, const float* N, float* P, int rows, int inner, int cols);

/// The reference launchers for RunnerLab::reference: the GPU backend has them; the CPU backend has no
/// performance gate, so none is built there.
#ifdef TILELAB_CPU_BACKEND
#define TILELAB_REFERENCE_NAIVE nullptr
#define TILELAB_REFERENCE_TILED nullptr
#define TILELAB_REFERENCE_COARSENED nullptr
#define TILELAB_REFERENCE_REGISTER_TILED nullptr
#define TILELAB_REFERENCE_VECTORIZED nullptr
#else
#define TILELAB_REFERENCE_NAIVE (&::tilelab_reference_matmul_naive)
#define TILELAB_REFERENCE_TILED (&::tilelab_reference_matmul_tiled_boundary)
#define TILELAB_REFERENCE_COARSENED (&::tilelab_reference_matmul_coarsened)
#define TILELAB_REFERENCE_REGISTER_TILED (&::tilelab_reference_matmul_register_tiled)
#define TILELAB_REFERENCE_VECTORIZED (&::tilelab_reference_matmul_vectorized)
#endif
