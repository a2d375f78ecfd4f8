// Arrays viewed through casts, on the CPU backend's source rewrite: `extern __shared__ float smem[]` seen as tiles,
// `float (&Mds)[T][T] = *reinterpret_cast<float (*)[T][T]>(smem);`, `Tile& Nds = *reinterpret_cast<Tile*>(smem + T *
// T);` (Tile an alias of float[T][T]), `float (*rows)[T] = (float (*)[T])smem;`. The view's elements must be the
// Shared<T> that shared memory holds, so that every access through it is checked and counted as the array's own
// (shared_view.hpp): the casts become CastPointer<T[..]> and CastReference<T[..]>, and a variable declared with a
// view type takes the view's type through as_view<declared type>(init).
#pragma once

#include "source_text.hpp"

#include <set>
#include <string>
#include <vector>

namespace tilelab::cpu::rewrite {

/// The names that `using N = T[..];` and `typedef T N[..];` declare as array types in @p s.
std::set<std::string> array_aliases(const std::string& s, const Scan& sc);

/// A cast's target type @p text that views an array: "[const] T (*)[A][B]" gives "CastPointer<[const] T[A][B]>",
/// "[const] T (&)[A]" and "[const] N&" (N a name, not a scalar or vector type: an alias) "CastReference<...>", with
/// the namespace; "" for any other type (pointer_cast_target in cuda_to_cpp.cpp takes "T*").
std::string array_cast_type(const std::string& text);

/// In device code, "float (&v)[T][T] = init;", "float (*v)[T] = init;", "N& v = init;" and "N* v = init;" (N in
/// @p aliases) -> "decltype(auto) v = ::tilelab::cpu::as_view<declared type>(init);": the variable is a view of
/// Shared<T> elements where init is one, of plain elements otherwise.
void rewrite_view_declarations(const std::string& s, const Scan& sc, const std::set<std::string>& aliases,
                               std::vector<Edit>& edits);

}  // namespace tilelab::cpu::rewrite
