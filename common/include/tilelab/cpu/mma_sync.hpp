/// @file mma_sync.hpp
/// @brief The CPU backend's tilelab/mma.hpp (which documents the functions): tilelab::to_tf32,
/// tilelab::mma_m16n8k8_tf32, tilelab::ldmatrix_x4 and tilelab::ldmatrix_x2, emulated exactly.
///
/// - mma_m16n8k8_tf32 and the ldmatrix loads are warp calls (warp.hpp): every lane of the warp waits at the call
///   until all 32 are there (a lane elsewhere is warp divergence, naming where it is). Then the warp's work is done
///   once: the product gathers A, B and C from the lanes' registers by the PTX ISA's lane-to-element mapping
///   (mma.hpp's table), multiplies, and gives each lane its elements of D; a load gathers the rows' addresses and
///   gives each lane its elements.
/// - TF32: to_tf32 rounds to nearest, ties away from zero (cvt.rna), as wmma's __float_to_tf32 does here; the product
///   takes the top 19 bits of each element of A and B (the 13 low bits dropped, as the tensor cores do with a float
///   not converted), adds C's element and then the 8 exact products in order of k, each addition rounded to nearest
///   even. A GPU may add in another order: results may differ from a GPU's in the last bits.
/// - A load's addresses: each lane of those that give one (32, or 16 for x2) gives the start of a row of four floats
///   in shared memory, 16-byte aligned counted from its __shared__ array's start; otherwise the kernel stops
///   (cudaErrorIllegalAddress, cudaErrorMisalignedAddress) with the lane and the address named. Each element a lane
///   receives is that lane's read of shared memory for the race check, so a tile element another thread stores (or
///   a copy lands in) without a __syncthreads() or, within a warp, a __syncwarp() before the load is a race.
/// - The multiply-adds of mma_m16n8k8_tf32 are counted (mma_sync_multiply_adds), for the checks that the tensor
///   cores did the product's work.
#pragma once

#include <cuda_runtime.h>
#include <tilelab/cpu/wmma.hpp>

#include <type_traits>

namespace tilelab::cpu {

/// Multiply-adds done by tilelab::mma_m16n8k8_tf32 in every kernel since the process started: 1024 per call of a
/// warp (16 · 8 · 8), counted once the warp's lanes met. Read it before and after a launch for the launch's own.
unsigned long long mma_sync_multiply_adds() noexcept;

namespace detail {

/// The running lane's part in a warp's mma_m16n8k8_tf32 at @p file : @p line: its four elements of the
/// accumulator (updated in place), four of A and two of B.
void mma_m16n8k8_tf32(float* accumulator, const float* a, const float* b, const char* file, int line);

/// The running lane's part in a warp's ldmatrix of @p matrices (2 or 4) 8 × 4 matrices of 32-bit elements at
/// @p file : @p line: @p row is the address this lane gives (read only for lanes below 8 · @p matrices), the lane's
/// elements go to @p fragment[0 .. matrices - 1].
void ldmatrix(float* fragment, int matrices, const void* row, const char* file, int line);

/// The address a load's pointer argument holds: a float* (const or not), a shared array's element
/// (Shared<float>*, as the build rewrites `&tile[r][c]`) or a __device__ function's pointer parameter.
inline const void* ldmatrix_address(const float* pointer) noexcept { return pointer; }
/// A shared array's element.
inline const void* ldmatrix_address(const Shared<float>* pointer) noexcept { return pointer; }
/// A __device__ function's pointer parameter.
template <class T>
const void* ldmatrix_address(DevicePointer<T> pointer) noexcept {
    static_assert(std::is_same_v<std::remove_const_t<T>, float>, "ldmatrix_x4 and ldmatrix_x2 load floats");
    return pointer.element();
}

}  // namespace detail
}  // namespace tilelab::cpu

namespace tilelab {

/// @p value rounded to TF32 (to nearest, ties away from zero), as a float.
inline float to_tf32(float value) noexcept { return cpu::detail::float_to_tf32(value); }

/// The warp's @p accumulator += A · B (m16n8k8, TF32 in, FP32 out). Warp-collective.
inline void mma_m16n8k8_tf32(float (&accumulator)[4], const float (&a)[4], const float (&b)[2],
                             const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    cpu::detail::mma_m16n8k8_tf32(accumulator, a, b, file, line);
}

/// Four 8 × 4 matrices of floats from shared memory, one row address per lane. Warp-collective.
template <class Pointer>
inline void ldmatrix_x4(float (&fragment)[4], Pointer row, const char* file = __builtin_FILE(),
                        int line = __builtin_LINE()) {
    cpu::detail::ldmatrix(fragment, 4, cpu::detail::ldmatrix_address(row), file, line);
}

/// Two 8 × 4 matrices of floats from shared memory, row addresses from lanes 0 to 15. Warp-collective.
template <class Pointer>
inline void ldmatrix_x2(float (&fragment)[2], Pointer row, const char* file = __builtin_FILE(),
                        int line = __builtin_LINE()) {
    cpu::detail::ldmatrix(fragment, 2, cpu::detail::ldmatrix_address(row), file, line);
}

}  // namespace tilelab
