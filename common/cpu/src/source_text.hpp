// The text tools that the CPU backend's source rewrite (cuda_to_cpp.cpp, struct_twins.cpp, array_views.cpp) shares:
// which characters are code, brackets, declarators, device bodies, and the edits each rewrite proposes. Internal to
// the CPU backend: the rewrite reads CUDA as text, since it must run where no CUDA front end is installed.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace tilelab::cpu::rewrite {

/// Which characters are code (not in a comment or a literal), and the brace depth of each.
struct Scan {
    std::vector<bool> code;       ///< True for a character of code.
    std::vector<int> brace_depth;  ///< Braces open around the character.
};

/// One replacement of the source's bytes [begin, end) by @p text; the rewrite applies them all at once.
struct Edit {
    std::size_t begin;  ///< First byte replaced.
    std::size_t end;    ///< One past the last byte replaced (begin for an insertion).
    std::string text;   ///< What replaces them.
};

/// One declarator of a declaration: "name[A][B]".
struct Declarator {
    std::string name;     ///< The variable's name.
    std::string extents;  ///< "[A][B]", or empty for a scalar.
};

/// True for a character of an identifier.
bool is_word(char c);
/// Which characters of @p s are code, and their brace depth.
Scan scan(const std::string& s);
/// The line (from 1) of @p position in @p s.
int line_of(const std::string& s, std::size_t position);
/// Throws std::runtime_error naming the line of @p position: the rewrite cannot take this source apart.
[[noreturn]] void fail(const std::string& s, std::size_t position, const std::string& what);
/// @p text without leading and trailing white space.
std::string trim(const std::string& text);
/// As many newlines as @p text holds: what a rewritten piece appends to keep the lines after it where they were.
std::string newlines_in(const std::string& text);
/// Whitespace folded to single spaces, for a name shown in messages and for generated code on one line.
std::string one_line(const std::string& text);
/// The next code occurrence of @p token at or after @p from, as a whole word where it starts or ends with a word
/// character; npos when there is none.
std::size_t find_code(const std::string& s, const Scan& sc, const std::string& token, std::size_t from);
/// The position of the code character that closes the bracket opened at @p open (one of "([{"); npos if none.
std::size_t matching_close(const std::string& s, const Scan& sc, std::size_t open);
/// The declarators of "T a[N][M], b[K]" (split at the commas outside brackets).
std::vector<std::string> split_declarators(const std::string& text);
/// Splits "T name[A][B]" (or "name[A]" when @p has_type is false) into name and extents, and the type into
/// @p type (without volatile, static and alignment, which belong to the storage).
Declarator parse_declarator(const std::string& piece, bool has_type, std::string* type);
/// True for the CUDA vector types whose pointers the rewrite checks (float4, float2).
bool is_vector_type(const std::string& name);
/// The bodies of __global__ and __device__ functions, as [open brace, close brace] ranges, outermost only.
std::vector<std::pair<std::size_t, std::size_t>> device_bodies(const std::string& s, const Scan& sc);
/// True when the code at @p at is in a block of statements (a function's body or a block in it), not in a class
/// body, an initialiser list or at namespace scope: what the brace that opens its block follows says.
bool in_statement_block(const std::string& s, const Scan& sc, std::size_t at);

}  // namespace tilelab::cpu::rewrite
