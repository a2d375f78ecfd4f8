/// @file device_calls.hpp
/// @brief The source check's rule on what device code calls (source_policy.cpp): CUDA's own rule that a
/// __global__ or __device__ function calls only device functions, which nvcc enforces and the CPU backend's plain
/// C++ does not. A host function of the lab's own, or one of the C library's functions on raw memory (memmove,
/// memcmp, ...), called from device code would read shared memory past the emulator's counts and race checks on the
/// CPU backend, and does not compile with nvcc: refused on every backend, so the two agree.
#pragma once

#include "source_lexer.hpp"

#include <vector>

namespace tilelab::grader {

/// The findings (without a file name) for calls in @p tokens' device code (the bodies of __global__ and __device__
/// functions) to functions it may not call:
/// - a function this file defines without __device__ (and not constexpr, which nvcc evaluates at compile time where
///   a constant is needed), unless the file also defines a device function of that name;
/// - the C library's functions on raw bytes other than memcpy and memset (which CUDA gives device code), plain,
///   `std::` or `::` qualified, and their `__builtin_` forms.
std::vector<SourceFinding> device_call_findings(const std::vector<lexing::Token>& tokens);

}  // namespace tilelab::grader
