/// @file gate_model_kernels.hpp
/// @brief The model answers from solutions/, built under other names, that the performance gate races: a lab's
/// reference (the previous stage's model) and the lab's own model, whose speedup over the same reference calibrates
/// the gate on the grading GPU. Each is linked into a gate program of its own (adapters/gate_model.cu), never into
/// a lab's runner: the process that holds a student's code has none of them. All at the gate's tile width, on
/// device pointers.
#pragma once

/// solutions/01_naive's matmul_naive: what labs 02 and 03 must beat.
void tilelab_model_matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// solutions/02_tiled's matmul_tiled: lab 02's own model (its gate's calibration).
void tilelab_model_matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// solutions/03_tiled_boundary's matmul_tiled_boundary: lab 03's own model, and what lab 05 must beat.
void tilelab_model_matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// solutions/05_coarsened's matmul_coarsened: lab 05's own model, and what lab 06 must beat.
void tilelab_model_matmul_coarsened(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// solutions/06_register_tiled's matmul_register_tiled: lab 06's own model, and what lab 07 must beat.
void tilelab_model_matmul_register_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// solutions/07_vectorized's matmul_vectorized: lab 07's own model, and what lab 08 must beat.
void tilelab_model_matmul_vectorized(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// solutions/08_warp_tiled's matmul_warp_tiled: lab 08's own model.
void tilelab_model_matmul_warp_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols);
