// Shared tiles passed to __device__ functions as arrays, on the CPU backend's source rewrite:
// `template <int R, int C> __device__ void load(float (&tile)[R][C], ...)`, `__device__ void f(const float (*tile)[C])`,
// `__device__ void f(float tile[][C])`, `__device__ void f(Tile& t)` (Tile an alias of an array type) and
// `__device__ void f(Tiles& t)` (Tiles a struct that a __shared__ declaration uses). A `__shared__` array's elements
// are Shared<T> (kernel_language.hpp), which a `float (&)[R][C]` cannot bind, and a `__shared__ Tiles` is its twin
// (struct_twins.hpp), which a `Tiles&` cannot bind. So each such parameter's element type (or the alias, or the
// struct) becomes a template parameter of the function, deduced at each call: Shared<float> where the argument is
// shared memory, whose every access through the parameter is then checked, raced and counted as the array's own;
// float where it is a register array. A function that was no template becomes one; one that was gets the new
// parameters after its own, so that explicit template arguments keep their meaning. A 1-D array parameter of a
// scalar, `float tile[]` or `float tile[N]`, is the pointer it decays to: a DevicePointer (shared_pointer.hpp), as a
// `float*` parameter is.
#pragma once

#include "source_text.hpp"
#include "struct_twins.hpp"

#include <set>
#include <string>
#include <vector>

namespace tilelab::cpu::rewrite {

/// The rewrite above of every `__device__` function's array, alias and struct parameters in @p s (declarations and
/// definitions alike, so that they keep declaring one function). @p aliases are the source's array aliases
/// (array_aliases), @p twins its struct types with twins.
void rewrite_array_parameters(const std::string& s, const Scan& sc, const std::set<std::string>& aliases,
                              const StructTwins& twins, std::vector<Edit>& edits);

}  // namespace tilelab::cpu::rewrite
