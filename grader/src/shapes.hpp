/// @file shapes.hpp
/// @brief The fixed shapes each group of checks multiplies. They are public, so each check also multiplies shapes
/// drawn from the grading's seed (drawn_shapes.hpp), none of these.
#pragma once

#include "lab_under_test.hpp"

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

namespace tilelab::grader {

/// The sizes of one product: M is rows × inner, N is inner × cols, P is rows × cols.
struct Shape {
    int rows;   ///< Rows of M and P.
    int inner;  ///< Columns of M, rows of N.
    int cols;   ///< Columns of N and P.
};

/// Side of the large products. On a GPU, 1024. On the CPU backend, where every CUDA thread is a fiber and every
/// shared-memory access is checked, 256 keeps a lab's grading within seconds and still takes 256 blocks or more.
#ifdef TILELAB_CPU_BACKEND
inline constexpr int large_side = 256;
#else
inline constexpr int large_side = 1024;
#endif

/// "rows x inner x cols", e.g. "97x131x61".
std::string to_string(const Shape& shape);

/// The smallest product: 1×1×1 (or one tile cubed for a lab that needs tile multiples).
std::vector<Shape> tiny_shapes(const LabUnderTest& lab);
/// Every combination of 1, T−1, T and T+1 per dimension (T, 2T, 3T for a lab that needs multiples), then
/// fast_path_shapes.
std::vector<Shape> edge_shapes(const LabUnderTest& lab);
/// Both sides of every condition under which a kernel may skip its bounds tests, for a lab that takes any shape
/// (none for a lab that needs multiples): two block tiles of rows and of columns, the first whole, with inner 4, 8
/// and 12 past a multiple of 16 (and cols a multiple of 4: an interior block's path taken on inner % 4 reads past
/// M's rows and N's end), then inner a multiple of 16 past one phase, with cols 0, 1, 2 and 3 past a multiple of 4
/// beside a whole block tile, and the second tile of rows or of columns partial. Small inner keeps them cheap on the
/// CPU backend.
std::vector<Shape> fast_path_shapes(const LabUnderTest& lab);
/// What compute-sanitizer's runs multiply: every combination of 1 and T+1 per dimension (T and 2T for a lab that
/// needs multiples; the block tile and phase depth, plus one, for labs 05 and up), eight shapes. Each has a partial or a single tile where the edges have one, and each with an
/// inner dimension above T has two phases, so a missing bounds check, barrier or zero-fill shows in them all the
/// same; fewer shapes keep each run short, since every launch under a sanitizer costs tens of milliseconds.
std::vector<Shape> sanitizer_shapes(const LabUnderTest& lab);
/// Primes, tall, wide and thin-inner shapes, and thin ones with a dimension past 4096 (the rest stay under 1100).
std::vector<Shape> odd_shapes(const LabUnderTest& lab);
/// large_side cubed. The large check's partial tiles at that size come from its draw (drawn_shapes.hpp: rows and
/// cols past large_side), which took the place of a fixed (large_side − 1) × (large_side + 1) × (large_side − 3).
std::vector<Shape> large_shapes(const LabUnderTest& lab);
/// A square shape (so a transposed result or swapped operands can be recognised) and shapes whose
/// three dimensions all differ (so a swapped index cannot go unnoticed).
std::vector<Shape> index_order_shapes(const LabUnderTest& lab);
/// What the input-range check multiplies (operands of one sign, over float32's range: check_shape.hpp's
/// Operands::wide_one_signed): inner long enough (over 2000) that a sum kept in half precision errs past the
/// tolerance, with partial tiles of rows, columns and phases, one block tile each (tile multiples for a lab that
/// needs them).
std::vector<Shape> input_range_shapes(const LabUnderTest& lab);
/// The side of the performance gate's square race (TILELAB_PERF_SIZE, 2048 by default): where the GPU times a
/// kernel, and so where the CPU backend's technique check also takes its evidence (on a sample of blocks).
int performance_gate_size();
/// Operands::tf32_steps (check_shape.hpp): M(r, k) is nonzero only where k ≡ r modulo this.
constexpr int tf32_step_band = 64;
/// What a TF32 lab's conversion check multiplies (Operands::tf32_steps): inner past two bands of
/// tf32_step_band, so that every k of a first, a later and a last partial phase is some row's, and rows enough
/// for every residue of the band.
std::vector<Shape> tf32_step_shapes(const LabUnderTest& lab);

}  // namespace tilelab::grader
