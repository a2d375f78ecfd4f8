/// @file reference_kernels.hpp
/// @brief The model kernels from solutions/, built under other names, that the performance gate races a lab
/// against: the previous stage's model answer. Each is linked into a gate reference program of its own
/// (adapters/gate_reference.cu), never into a lab's runner: the process that holds a student's code has none of them.
#pragma once

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
