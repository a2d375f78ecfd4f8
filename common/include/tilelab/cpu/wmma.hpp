/// @file wmma.hpp
/// @brief The CPU backend's warp matrix functions: what the stand-in <mma.h> (common/cpu/include/mma.h, which says
/// how they are emulated and checked) calls for each lane's part in load_matrix_sync, mma_sync and store_matrix_sync.
#pragma once

#include <cstdint>

namespace tilelab::cpu::detail {

/// Which warp matrix function a lane calls.
enum class MatrixFunction : std::uint8_t {
    load_a,            ///< load_matrix_sync into a matrix_a fragment (16 x 8, tf32)
    load_b,            ///< load_matrix_sync into a matrix_b fragment (8 x 16, tf32)
    load_accumulator,  ///< load_matrix_sync into an accumulator fragment (16 x 16, float)
    store,             ///< store_matrix_sync from an accumulator fragment
    mma,               ///< mma_sync: d = a b + c
};

/// One lane's operands of a warp matrix function.
struct MatrixOperands {
    MatrixFunction function;  ///< What it does.
    bool column_major;        ///< Loads and stores: the matrix is in memory column by column (else row by row).
    float* memory;            ///< Loads and stores: the matrix's first element (shared or global memory).
    unsigned ldm;             ///< Loads and stores: elements between the starts of consecutive rows (columns).
    float* fragment;          ///< The lane's elements: loaded into, stored from, or (mma) the result d.
    const float* a;           ///< mma: the lane's elements of matrix_a.
    const float* b;           ///< mma: the lane's elements of matrix_b.
    const float* c;           ///< mma: the lane's elements of the accumulator added (may be d itself).
};

/// The running CUDA thread's part in a warp matrix function called at @p file : @p line: waits until all 32 lanes
/// of its warp are there with the same arguments (a lane missing, or giving other arguments, is reported as warp
/// divergence), checks the rules CUDA sets (ldm, alignment), then moves this lane's elements between memory and its
/// fragment, each access checked as an element access is (bounds, races), or (mma) the warp's product is computed
/// once for all lanes. A violation ends the running CUDA thread with the kernel's error.
void warp_matrix(const MatrixOperands& operands, const char* file, int line);

/// __float_to_tf32: @p value rounded to TF32 (10 explicit mantissa bits), to nearest with ties away from zero
/// (PTX's cvt.rna.tf32.f32), as a float whose 13 low mantissa bits are zero. NaN stays NaN, infinities stay.
float float_to_tf32(float value) noexcept;

/// What a tensor core takes of a float given as TF32: its top 19 bits (the 13 low mantissa bits dropped, which is
/// rounding toward zero); a float already rounded by float_to_tf32 is unchanged. NaN stays NaN.
float tf32_operand(float value) noexcept;

}  // namespace tilelab::cpu::detail
