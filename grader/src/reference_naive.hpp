/// @file reference_naive.hpp
/// @brief The model naive kernel from solutions/, built under another name, that the performance gate races
/// against: never the student's own naive kernel, which a student could slow down.
#pragma once

/// solutions/01_naive's matmul_naive, compiled with TILE_WIDTH = the gate's tile width (device pointers).
void tilelab_reference_matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols);
