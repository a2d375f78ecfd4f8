/// @file mma.h
/// @brief The CPU backend's stand-in for <mma.h>: CUDA's warp matrix functions (namespace nvcuda::wmma) for TF32,
/// the shape m16n16k8: fragment<matrix_a, 16, 16, 8, precision::tf32, row_major | col_major> (16 x 8),
/// fragment<matrix_b, 16, 16, 8, precision::tf32, ...> (8 x 16), fragment<accumulator, 16, 16, 8, float> (16 x 16);
/// fill_fragment, load_matrix_sync, mma_sync, store_matrix_sync, __float_to_tf32. Other shapes and types (half,
/// bfloat16, integers) do not compile here, with a message that says so.
///
/// What is emulated, as CUDA's documentation states it:
/// - load_matrix_sync, mma_sync and store_matrix_sync are warp-collective: each is a rendezvous of the warp's 32
///   lanes (warp.hpp), which must all call it, at the same call, with the same pointer, ldm and layout. A lane that
///   returns, waits at a __syncthreads() or at another call instead is reported as warp divergence, naming the
///   calls and their lines; lanes giving different arguments are reported too (cudaErrorTileLabBarrierDivergence).
///   A warp of fewer than 32 lanes (a block whose size is not a multiple of 32) may not call them. fill_fragment
///   and element access (x[i], num_elements) are each lane's own, as on a GPU.
/// - The rules of load_matrix_sync and store_matrix_sync: ldm a multiple of 4 elements for float and tf32 (16 bytes),
///   the pointer 256-bit (32-byte) aligned (counted from the start of its device buffer or __shared__ array). A
///   violation stops the kernel with cudaErrorMisalignedAddress, naming the rule.
/// - Each lane reads (load) or writes (store) the elements its fragment holds, each access checked as an element
///   access is: inside its device buffer (else cudaErrorIllegalAddress, naming the element), and in shared memory
///   tracked by the race check as the lane's own read or write, so a tile that another warp stores (or an
///   asynchronous copy lands in) without a __syncthreads() before a fragment load is a shared-memory race, as is a
///   store_matrix_sync into a tile other threads still read. No __syncwarp is implied: a lane reading elements that
///   another lane of its warp just stored with store_matrix_sync needs a __syncwarp() in between, as on a GPU.
/// - Which lane holds which element is unspecified in CUDA. Here element e of lane l (x[e]) holds the tile's element
///   p (numbered row by row: p = row · columns + column, of the 16 x 8, 8 x 16 or 16 x 16 tile, whatever the layout
///   in memory) with 32 · e + l = (37 · p + 11) mod (tile's size): a scattered permutation, neither row-major nor a
///   GPU's. Code that treats x[] as a whole (scales every element, converts every element with __float_to_tf32)
///   works; code that assumes which element x[i] is fails here, as it may on another GPU.
/// - TF32: __float_to_tf32 rounds to nearest, ties away from zero (PTX cvt.rna.tf32.f32), to 10 explicit mantissa
///   bits. CUDA's programming guide says the input matrices "must be manually converted to tf32 precision" before a
///   tf32 load and leaves other values' treatment open; the tensor cores take the top 19 bits of each operand (sign,
///   8 exponent, 10 mantissa bits) and ignore the 13 low bits, which is rounding toward zero (CUTLASS's
///   round_half_ulp_truncate conversion relies on it). mma_sync does the same here: an element of a or b not
///   converted is truncated, one converted is used as it is.
/// - mma_sync computes d = a b + c in FP32: for each element of d, c's element, then the 8 products in order of k
///   added one by one, each addition rounded to nearest even (a product of two TF32 values is exact in FP32). A GPU
///   may add them in another order within the k-step, so results may differ from a GPU's in the last bits.
#pragma once

#include <cuda_runtime.h>
#include <tilelab/cpu/wmma.hpp>

#include <type_traits>

/// CUDA's <mma.h> brings the half and bfloat16 types, whose fragments the CPU backend does not emulate: declared
/// (never defined) so that such a fragment reaches the message below rather than an unknown type's error.
struct __half;
typedef __half half;
struct __nv_bfloat16;

namespace nvcuda {
namespace wmma {

struct row_major;    ///< A fragment's matrix in memory row by row.
struct col_major;    ///< ... column by column.
struct matrix_a;     ///< The left operand, M x K.
struct matrix_b;     ///< The right operand, K x N.
struct accumulator;  ///< The product, M x N.

namespace precision {
struct tf32;  ///< TF32 elements, held in floats.
}  // namespace precision

/// How an accumulator's matrix lies in memory (load_matrix_sync's and store_matrix_sync's last argument).
enum layout_t { mem_row_major, mem_col_major };

namespace tilelab_detail {
/// The type a fragment of element type T holds its elements in: a float for tf32.
template <class T>
struct storage_of {
    using type = T;  ///< T itself.
};
/// TF32 elements are held in floats.
template <>
struct storage_of<precision::tf32> {
    using type = float;  ///< float.
};
/// False, for any types: a static_assert that fires only when a template is used.
template <class...>
constexpr bool unsupported = false;

/// The address a matrix function's pointer argument holds: a global float*, a shared array's element (Shared<float>*,
/// as the build rewrites `&tile[r][c]`) or a __device__ function's pointer parameter (DevicePointer).
inline float* matrix_pointer(float* pointer) noexcept { return pointer; }
/// A pointer to const (loads).
inline float* matrix_pointer(const float* pointer) noexcept { return const_cast<float*>(pointer); }
/// A shared array's element.
inline float* matrix_pointer(const ::tilelab::cpu::Shared<float>* pointer) noexcept {
    return reinterpret_cast<float*>(const_cast<::tilelab::cpu::Shared<float>*>(pointer));
}
/// A __device__ function's pointer parameter.
template <class T>
float* matrix_pointer(::tilelab::cpu::DevicePointer<T> pointer) noexcept {
    static_assert(std::is_same_v<std::remove_const_t<T>, float>, "a TF32 or float fragment is loaded from floats");
    return matrix_pointer(pointer.element());
}

/// The elements of one lane's fragment.
template <class T, int size>
struct fragment_storage {
    enum { num_elements = size };          ///< Elements this lane holds.
    enum { num_storage_elements = size };  ///< The same (no packed types here).
    using element_type = T;                ///< precision::tf32 or float.
    using storage_element_type = typename storage_of<T>::type;  ///< float.
    storage_element_type x[size];          ///< The elements; which of the tile's each is: see the file's notes.
};
}  // namespace tilelab_detail

/// A warp's fragment of a matrix: only the TF32 shape m16n16k8 is emulated on the CPU backend.
template <class Use, int m, int n, int k, class T, class Layout = void>
class fragment {
    static_assert(tilelab_detail::unsupported<Use, T, Layout>,
                  "the CPU backend does not emulate this warp matrix fragment (half, bfloat16, integer or double "
                  "elements, or another shape): only the TF32 ones, fragment<matrix_a or matrix_b, 16, 16, 8, "
                  "precision::tf32, row_major or col_major> and fragment<accumulator, 16, 16, 8, float>");
};

/// matrix_a, 16 x 8, row by row in memory.
template <>
class fragment<matrix_a, 16, 16, 8, precision::tf32, row_major>
    : public tilelab_detail::fragment_storage<precision::tf32, 4> {};
/// matrix_a, 16 x 8, column by column in memory.
template <>
class fragment<matrix_a, 16, 16, 8, precision::tf32, col_major>
    : public tilelab_detail::fragment_storage<precision::tf32, 4> {};
/// matrix_b, 8 x 16, row by row in memory.
template <>
class fragment<matrix_b, 16, 16, 8, precision::tf32, row_major>
    : public tilelab_detail::fragment_storage<precision::tf32, 4> {};
/// matrix_b, 8 x 16, column by column in memory.
template <>
class fragment<matrix_b, 16, 16, 8, precision::tf32, col_major>
    : public tilelab_detail::fragment_storage<precision::tf32, 4> {};
/// The 16 x 16 accumulator, in FP32.
template <>
class fragment<accumulator, 16, 16, 8, float> : public tilelab_detail::fragment_storage<float, 8> {};

namespace tilelab_detail {
/// The accumulator fragment of the TF32 shape.
using accumulator_fragment = fragment<accumulator, 16, 16, 8, float>;
}  // namespace tilelab_detail

/// Sets every element of this lane's part of @p f to @p value (not warp-collective, as on a GPU; the warp's lanes
/// ordinarily all call it with the same value).
template <class T, int size>
inline void fill_fragment(tilelab_detail::fragment_storage<T, size>& f,
                          const typename tilelab_detail::fragment_storage<T, size>::storage_element_type& value) {
    for (int i = 0; i < size; ++i) f.x[i] = value;
}

/// Loads the warp's matrix_a (16 x 8) or matrix_b (8 x 16) fragment from @p pointer, rows (row_major) or columns
/// (col_major) @p ldm elements apart. Warp-collective; see the file's notes for the checks.
template <class Use, class Layout, class Pointer>
inline void load_matrix_sync(fragment<Use, 16, 16, 8, precision::tf32, Layout>& f, Pointer pointer, unsigned ldm,
                             const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    using ::tilelab::cpu::detail::MatrixFunction;
    constexpr bool is_a = std::is_same_v<Use, matrix_a>;
    ::tilelab::cpu::detail::warp_matrix(
        {is_a ? MatrixFunction::load_a : MatrixFunction::load_b, std::is_same_v<Layout, col_major>,
         tilelab_detail::matrix_pointer(pointer), ldm, f.x, nullptr, nullptr, nullptr},
        file, line);
}

/// Loads the warp's accumulator (16 x 16) from @p pointer, laid out as @p layout says, @p ldm elements apart.
template <class Pointer>
inline void load_matrix_sync(tilelab_detail::accumulator_fragment& f, Pointer pointer, unsigned ldm, layout_t layout,
                             const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    ::tilelab::cpu::detail::warp_matrix({::tilelab::cpu::detail::MatrixFunction::load_accumulator,
                                         layout == mem_col_major, tilelab_detail::matrix_pointer(pointer), ldm, f.x,
                                         nullptr, nullptr, nullptr},
                                        file, line);
}

/// Stores the warp's accumulator @p f at @p pointer, laid out as @p layout says, @p ldm elements apart.
template <class Pointer>
inline void store_matrix_sync(Pointer pointer, const tilelab_detail::accumulator_fragment& f, unsigned ldm, layout_t layout,
                              const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    ::tilelab::cpu::detail::warp_matrix({::tilelab::cpu::detail::MatrixFunction::store, layout == mem_col_major,
                                         tilelab_detail::matrix_pointer(pointer), ldm, const_cast<float*>(f.x),
                                         nullptr, nullptr, nullptr},
                                        file, line);
}

/// d = a b + c for the warp (16 x 16 = 16 x 8 times 8 x 16, plus 16 x 16), in FP32 from TF32 operands; @p d may be
/// @p c. Warp-collective.
template <class LayoutA, class LayoutB>
inline void mma_sync(tilelab_detail::accumulator_fragment& d, const fragment<matrix_a, 16, 16, 8, precision::tf32, LayoutA>& a,
                     const fragment<matrix_b, 16, 16, 8, precision::tf32, LayoutB>& b, const tilelab_detail::accumulator_fragment& c,
                     const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    ::tilelab::cpu::detail::warp_matrix(
        {::tilelab::cpu::detail::MatrixFunction::mma, false, nullptr, 0, d.x, a.x, b.x, c.x}, file, line);
}

/// @p in rounded to TF32 (to nearest, ties away from zero), as a float.
inline float __float_to_tf32(float in) { return ::tilelab::cpu::detail::float_to_tf32(in); }

}  // namespace wmma
}  // namespace nvcuda
