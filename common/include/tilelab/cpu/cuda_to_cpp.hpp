/// @file cuda_to_cpp.hpp
/// @brief The CPU backend's one source rewrite: what C++ cannot express of a lab's CUDA source.
#pragma once

#include <string>

namespace tilelab::cpu {

/// Rewrites CUDA source into C++ for the CPU backend, keeping every line where it was (so the compiler's
/// messages point at the student's lines):
/// - `kernel<<<grid, block[, shared[, stream]]>>>(args)` becomes
///   `::tilelab::cpu::launch(kernel, "kernel", __FILE__, __LINE__, grid, block...)(args)`; the launch is found
///   by bracket depth, so templates, nested calls and line breaks inside it are fine;
/// - `__shared__ T name[A][B], other[C];` inside a function becomes a reference per variable into the block's
///   shared memory, `::tilelab::cpu::Shared<T> (&name)[A][B] = ::tilelab::cpu::block_shared<...>(...)`;
/// - `extern __shared__ T name[];` becomes a pointer to the launch's dynamic shared memory;
/// - `reinterpret_cast<I>` to a type that is no pointer or reference (an integer: an alignment test's
///   `reinterpret_cast<uintptr_t>(p)`) becomes `::tilelab::cpu::address_cast<I>`, which takes the emulator's
///   pointers too (address_cast.hpp).
/// Comments, string and character literals are left alone. Throws std::runtime_error, with the line, for a
/// launch or declaration it cannot take apart.
std::string cuda_to_cpp(const std::string& source);

}  // namespace tilelab::cpu
