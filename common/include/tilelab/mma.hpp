/// @file mma.hpp
/// @brief Tensor cores the way fast kernels drive them (lab 10): the kit's wrappers of the PTX instructions
/// `mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32`, `cvt.rna.tf32.f32` and `ldmatrix`.
///
/// A lab may not write `asm` (the source check refuses it: an asm statement can name any symbol of the program), so
/// the kit writes the inline PTX here, in a header a lab may include (`#include <tilelab/mma.hpp>`), and a lab
/// calls the functions by their qualified names (`tilelab::mma_m16n8k8_tf32(...)`). Asynchronous copies need no
/// wrapper: `__pipeline_memcpy_async` (`<cuda_pipeline.h>`) is `cp.async`, as in lab 08.
///
/// **The fragments.** One `mma_m16n8k8_tf32` is a warp's D = A · B + C for A 16 × 8 (rows m, columns k), B 8 × 8
/// (rows k, columns n) and C, D 16 × 8, FP32 accumulators. Each lane holds a few elements of each matrix in its
/// registers, at places the PTX ISA fixes ("Matrix Fragments for mma.m16n8k8", `.tf32`). With g = lane / 4 (the
/// lane's group) and t = lane % 4 (its place in the group):
///
/// | register | A (16 × 8, `.row`) | B (8 × 8, `.col`) | C and D (16 × 8) |
/// | --- | --- | --- | --- |
/// | 0 | a[0] = A(g, t) | b[0] = B(t, g) | c[0] = C(g, 2t) |
/// | 1 | a[1] = A(g + 8, t) | b[1] = B(t + 4, g) | c[1] = C(g, 2t + 1) |
/// | 2 | a[2] = A(g, t + 4) | | c[2] = C(g + 8, 2t) |
/// | 3 | a[3] = A(g + 8, t + 4) | | c[3] = C(g + 8, 2t + 1) |
///
/// `.row` and `.col` name how the instruction reads A and B, not how a kernel stores them: lane (g, t) must hold
/// the elements above whatever the tiles' layout in shared memory.
///
/// **TF32.** The instruction multiplies TF32 values (8 exponent bits, 10 explicit mantissa bits) held in 32-bit
/// registers. to_tf32() rounds a float to TF32 (`cvt.rna`: to nearest, ties away from zero, the low 13 bits cleared).
/// The PTX ISA leaves to the hardware what the instruction does with the low 13 bits of a register that was not
/// converted; the tensor cores of sm_80 to sm_90 ignore them, which rounds toward zero (CUTLASS's
/// `round_half_ulp_truncate` conversion relies on it), an error of one sign per input that grows with the inner
/// dimension. Convert every element before it reaches the instruction.
///
/// **All 32 lanes.** `mma.sync.aligned` and `ldmatrix.sync.aligned` are executed by the whole warp at once: every lane
/// of the warp must reach the same call, not inside a test that some lanes fail. The CPU backend emulates each
/// wrapper exactly, with this lane-to-element mapping, and reports a lane that is elsewhere as warp divergence; its
/// shared-memory reads take part in the race check like any other.
///
/// The instructions exist from compute capability 8.0 on; the build compiles the lab for those architectures only.
#pragma once

#if defined(TILELAB_CPU_BACKEND)
#include <tilelab/cpu/mma_sync.hpp>
#else

#include <cuda_runtime.h>

#include <cstdint>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "tilelab/mma.hpp: mma.sync with TF32 operands and ldmatrix need compute capability 8.0 or newer"
#endif

namespace tilelab {

/// @p value rounded to TF32 (`cvt.rna.tf32.f32`: to nearest, ties away from zero), as a float whose 13 low mantissa
/// bits are zero: what mma_m16n8k8_tf32 takes exactly. NaN stays NaN, infinities stay.
__device__ __forceinline__ float to_tf32(float value) {
    std::uint32_t bits;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(bits) : "f"(value));
    return __uint_as_float(bits);
}

/// The warp's @p accumulator += A · B on tensor cores (`mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32`):
/// @p a is this lane's four elements of A (16 × 8), @p b its two of B (8 × 8), @p accumulator its four of the
/// 16 × 8 FP32 product, each at the place the file's table gives. @p a and @p b should hold TF32 values (to_tf32).
/// Every lane of the warp calls it together. 16 · 8 · 8 = 1024 multiply-adds.
__device__ __forceinline__ void mma_m16n8k8_tf32(float (&accumulator)[4], const float (&a)[4], const float (&b)[2]) {
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};"
        : "+f"(accumulator[0]), "+f"(accumulator[1]), "+f"(accumulator[2]), "+f"(accumulator[3])
        : "r"(__float_as_uint(a[0])), "r"(__float_as_uint(a[1])), "r"(__float_as_uint(a[2])),
          "r"(__float_as_uint(a[3])), "r"(__float_as_uint(b[0])), "r"(__float_as_uint(b[1])));
}

/// Four 8 × 4 matrices of 32-bit elements from shared memory in one instruction
/// (`ldmatrix.sync.aligned.m8n8.x4.shared.b16`). Lane 8j + i gives in @p row the address of row i of matrix j: four
/// consecutive floats, 16-byte aligned, in shared memory. Lane l receives in @p fragment[j] element (l / 4, l % 4) of
/// matrix j.
///
/// Why 8 × 4 of 32 bits: the instruction moves 8 × 8 matrices of 16-bit elements, and gives lane l the two at row
/// l / 4, columns 2 (l % 4) and 2 (l % 4) + 1, packed in one register; a row is 16 bytes either way, so read as
/// floats each matrix is 8 × 4 and lane l's register is element (l / 4, l % 4). That is the pattern of every register
/// of the TF32 A fragment, so from a tile of M stored row by row (k contiguous) one call loads a whole A fragment:
/// lane l gives the address of the fragment's row l % 16 at column 4 · (l / 16) (matrices 0 to 3 are a[0] to a[3]).
/// The instruction's `.trans` form transposes 16-bit elements, which splits each float in two, so the kit offers
/// no transposing load: B's fragment from a tile of N stored row by row (n contiguous) takes two plain loads,
/// b[0] = N_tile[k + t][n + g] and b[1] = N_tile[k + t + 4][n + g].
///
/// The eight addresses of a matrix should fall in eight different 16-byte groups of the 32 banks (their byte
/// offsets differ modulo 128), else the load is replayed: pad or swizzle the tile's rows.
__device__ __forceinline__ void ldmatrix_x4(float (&fragment)[4], const float* row) {
    const auto address = static_cast<std::uint32_t>(__cvta_generic_to_shared(row));
    std::uint32_t r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                 : "r"(address));
    fragment[0] = __uint_as_float(r0);
    fragment[1] = __uint_as_float(r1);
    fragment[2] = __uint_as_float(r2);
    fragment[3] = __uint_as_float(r3);
}

/// Two 8 × 4 matrices of 32-bit elements from shared memory (`ldmatrix.sync.aligned.m8n8.x2.shared.b16`), as
/// ldmatrix_x4: lanes 0 to 15 give the rows' addresses (lane 8j + i: row i of matrix j; the other lanes' @p row is
/// not read, but every lane calls), lane l receives element (l / 4, l % 4) of matrix j in @p fragment[j]. It loads
/// a B fragment from a tile stored column by column (k contiguous: N transposed), lane l giving column n + l % 8 at
/// row k + 4 · (l / 8).
__device__ __forceinline__ void ldmatrix_x2(float (&fragment)[2], const float* row) {
    const auto address = static_cast<std::uint32_t>(__cvta_generic_to_shared(row));
    std::uint32_t r0, r1;
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(address));
    fragment[0] = __uint_as_float(r0);
    fragment[1] = __uint_as_float(r1);
}

}  // namespace tilelab

#endif
