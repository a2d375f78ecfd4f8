/// @file shared_view.hpp
/// @brief Arrays viewed through casts on the CPU backend: `extern __shared__ float smem[]` seen as 2-D tiles,
/// `float (&Mds)[T][T] = *reinterpret_cast<float (*)[T][T]>(smem);`, `Tile& Nds = *reinterpret_cast<Tile*>(smem +
/// T * T);` with `using Tile = float[T][T];`, `float (*rows)[T] = (float (*)[T])smem;`.
///
/// Shared memory holds Shared<T> elements (kernel_language.hpp), whose every access the race checks and the
/// grader's counters see. A view of plain floats over them would read the tiles unseen, so the build
/// (tools/tilelab_cuda_to_cpp) rewrites in device code:
/// - a cast to a pointer to arrays, `reinterpret_cast<float (*)[T]>(x)`, `static_cast<Tile*>(x)`, `(float (*)[T])x`,
///   into CastPointer<float[T]> (address_cast.hpp), which for an array of scalars or vectors is a pointer to the
///   same array of Shared<T>: SharedArray<float[T]>*;
/// - a cast to a reference to an array, `reinterpret_cast<float (&)[T][T]>(x)`, `reinterpret_cast<Tile&>(x)`, into
///   CastReference<float[T][T]>, a reference to SharedArray<float[T][T]>;
/// - a variable declared as a view, `float (&v)[T][T] = init;`, `float (*v)[T] = init;`, `Tile& v = init;`, into
///   `decltype(auto) v = as_view<float (&)[T][T]>(init);`: a view of Shared<T> where init is one (shared memory, or
///   global memory seen through a cast), the declared type otherwise (a register array).
/// Each element of a view is then an element of shared memory like a `__shared__` array's: read, stored, raced and
/// counted the same, and one past the launch's dynamic shared memory is an illegal address. Through global memory a
/// Shared<T> is a plain access, as through a `__device__` function's pointer parameter (shared_pointer.hpp).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <type_traits>

namespace tilelab::cpu {

template <class T>
class Shared;

namespace detail {
/// The element types whose accesses a view follows: scalars and CUDA's float vectors (not volatile ones, which no
/// Shared<T> holds).
template <class E>
constexpr bool is_viewed_element_v =
    !std::is_volatile_v<E> && (std::is_arithmetic_v<std::remove_cv_t<E>> || std::is_same_v<std::remove_cv_t<E>, float4> ||
                               std::is_same_v<std::remove_cv_t<E>, float2>);

/// @p A with Shared<E> for its elements E, const kept.
template <class A>
struct SharedArrayOf {
    using type = std::conditional_t<std::is_const_v<A>, const Shared<std::remove_const_t<A>>, Shared<A>>;
};
template <class A, std::size_t N>
struct SharedArrayOf<A[N]> {
    using type = typename SharedArrayOf<A>::type[N];
};

/// @p T itself, in a parameter that deduces nothing: a conversion as a declaration's initialisation makes it.
template <class T>
struct Identity {
    using type = T;
};
template <class T>
T implicitly(typename Identity<T>::type value) noexcept {
    return static_cast<T>(value);
}

/// The view type of a declared type @p D: a reference or pointer to an array of Shared<T>; @p D when it is none.
template <class D>
struct ViewOf {
    using type = D;
};
template <class A>
struct ViewOf<A&> {
    using type = std::conditional_t<std::is_array_v<A> && is_viewed_element_v<std::remove_all_extents_t<A>>,
                                    typename SharedArrayOf<A>::type&, A&>;
};
template <class A>
struct ViewOf<A*> {
    using type = std::conditional_t<std::is_array_v<A> && is_viewed_element_v<std::remove_all_extents_t<A>>,
                                    typename SharedArrayOf<A>::type*, A*>;
};
}  // namespace detail

/// True when @p A is an array type whose elements a view follows (float[T][T], const float4[N], an alias of one).
template <class A>
constexpr bool is_viewed_array_v = std::is_array_v<A> && detail::is_viewed_element_v<std::remove_all_extents_t<A>>;

/// @p A (an array type) with elements Shared<T>: what shared memory holds where @p A's elements are.
template <class A>
using SharedArray = typename detail::SharedArrayOf<A>::type;

/// A rewritten cast to `A&` in device code: a reference to SharedArray<A> where @p A is an array of scalars or
/// vectors, else `A&` itself. Used as a functional cast, `CastReference<float[T]>(x)`: the reinterpret_cast it was.
template <class A>
using CastReference = std::conditional_t<is_viewed_array_v<A>, SharedArray<A>&, A&>;

/// A rewritten declaration `D v = init;` with D a reference or pointer to an array: @p init as the view of Shared<T>
/// elements it is (a cast of shared memory, a `__shared__` array or a row of one), else as @p D, converted as the
/// declaration would convert it (a register array).
template <class D, class U>
decltype(auto) as_view(U&& init) noexcept {
    using View = typename detail::ViewOf<D>::type;
    if constexpr (std::is_convertible_v<U&&, View>)
        return detail::implicitly<View>(static_cast<U&&>(init));
    else
        return detail::implicitly<D>(static_cast<U&&>(init));
}

}  // namespace tilelab::cpu
