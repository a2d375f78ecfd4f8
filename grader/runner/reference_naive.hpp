/// @file reference_naive.hpp
/// @brief The model naive kernel from solutions/, built under another name, that the performance gate races
/// against: never the student's own naive kernel, which a student could slow down.
#pragma once

#include <cuda_runtime_api.h>  // says which backend this is

/// solutions/01_naive's matmul_naive, compiled with TILE_WIDTH = the gate's tile width (device pointers).
void tilelab_reference_matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols);

/// The model naive launcher for RunnerLab::reference_naive: the GPU backend has one; the CPU backend has no
/// performance gate, so none is built there.
#ifdef TILELAB_CPU_BACKEND
#define TILELAB_REFERENCE_NAIVE nullptr
#else
#define TILELAB_REFERENCE_NAIVE (&::tilelab_reference_matmul_naive)
#endif
