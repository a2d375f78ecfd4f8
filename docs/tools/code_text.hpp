/// @file code_text.hpp
/// @brief C++/CUDA text reduced to a comparable form, and the pieces of a solution that would give it away.
#pragma once

#include <string>
#include <vector>

namespace tilelab::docs {

/// @p code without comments, preprocessor lines and whitespace, with the names that mean the same thing in
/// these labs spelt one way (TILE_WIDTH, blockDim.x and blockDim.y as T; threadIdx.x as tx, threadIdx.y as ty;
/// phase and ph as p), so that `M[row * inner + p * T + tx]` and `M[row*inner+phase*TILE_WIDTH+threadIdx.x]`
/// compare equal.
std::string normalize_code(const std::string& code);

/// The answers in normalized solution code: every statement, every control condition, and every expression
/// with an operator in it that is an assignment's right-hand side, a subscript, a subscripted access, a
/// parenthesised group or a call argument. Bare calls without arguments (`__syncthreads()`, `start.record()`)
/// are vocabulary, not answers, and are left out, as is anything shorter than six characters.
std::vector<std::string> answer_fragments(const std::string& normalized_code);

/// True when @p fragment occurs in @p text as whole tokens: `k*cols+col` is found in `N[k*cols+col]`, not in
/// `kk*cols+col`.
bool contains_fragment(const std::string& text, const std::string& fragment);

}  // namespace tilelab::docs
