// Pointer declarations on the CPU backend's source rewrite (tools/tilelab_cuda_to_cpp): how "[const] T* name" is
// read, and the rewrite of a struct's pointer members into checked pointers. A copy of a kernel's pointer to P must
// be one whose accesses the CPU backend sees (tilelab/cpu/output_reads.hpp follows P): a member `float* elements;`
// becomes a DevicePointer<float>, which holds P's KernelPointer as it is, and shared memory's elements too.
#pragma once

#include "source_text.hpp"

#include <set>
#include <string>
#include <vector>

namespace tilelab::cpu::rewrite {

/// The scalar types whose pointers may point into shared memory (a `__shared__` array's elements are Shared<T>,
/// which a T* cannot hold) or P.
extern const char* const pointee_types[8];

/// True for the scalar types whose pointers may point into shared memory or P ("unsigned int" is two words).
bool is_pointee_word(const std::string& word);

/// The words and stars of a pointer declaration from @p at: "[const] T [T2] [const] * [__restrict__] name". On
/// success sets the type as written without restrict ("const float"), the name, and the end (after the name).
bool read_pointer_declaration(const std::string& s, const Scan& sc, std::size_t at, std::string* type,
                              std::string* name, std::size_t* end);

/// The members "T* name;" (also "= init;" and "{init};") of the struct, class and union definitions of @p s that
/// device code names (a struct defined in a kernel included), T a scalar that is not const, ->
/// "::tilelab::cpu::DevicePointer<T> name": `Matrix C = {w, h, stride, P};` (the CUDA Programming Guide's style) then
/// keeps P followed, and a union cannot reread such a member's bits as an integer (a DevicePointer member leaves it
/// without a default constructor). A `const T*` member, and any member of a struct only host code names (a struct of
/// the buffers cudaMalloc gives), stays a plain pointer: none can hold P, which converts to no plain pointer.
void rewrite_pointer_members(const std::string& s, const Scan& sc, std::vector<Edit>& edits);

/// The names that @p s declares as types the rewrite cannot see into: by `typedef ... N;`, `using N = ...;` and as
/// a template's type parameter (`template <class N>`). A cast to one may make a pointer (`typedef float* fptr;`).
std::set<std::string> type_names(const std::string& s, const Scan& sc);

}  // namespace tilelab::cpu::rewrite
