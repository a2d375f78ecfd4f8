/// @file source_names.hpp
/// @brief The names and headers the source check knows (tools/lib/source_policy.cpp applies them): the kit's
/// public headers, names and macros, CUDA's and the C++ library's headers, the operating system's functions, and the
/// constructs that would keep state outside the blocks or tell the backends apart. Each table's reason is beside it in
/// source_names.cpp; the grading page (docs/grading.md#check_build) lists the same.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace tilelab::grader::source_names {

extern const std::set<std::string> public_headers;
extern const std::set<std::string> public_names;
extern const std::set<std::string> public_macros;
extern const std::set<std::string> emulator_functions;
extern const std::set<std::string> cuda_headers;
extern const std::set<std::string> library_headers;
extern const std::vector<std::string> cuda_header_folders;
extern const std::vector<std::string> library_prefixes;
extern const std::set<std::string> hidden_state_functions;
extern const std::set<std::string> approximate_intrinsics;
extern const std::set<std::string> inexact_device_math;
extern const std::set<std::string> os_functions;
extern const std::set<std::string> os_object_only_names;
extern const char* const os_object_prefixes[6];
extern const std::set<std::string> os_library_names;
extern const std::set<std::string> frame_builtins;
extern const std::set<std::string> startup_attributes;

extern const std::set<std::string> symbol_attributes;
extern const std::set<std::string> lookups_by_name;
extern const std::set<std::string> toolkit_version_macros;
extern const std::set<std::string> extended_floating_types;
extern const std::set<std::string> float_sign_functions;
extern const std::set<std::string> lab_macros;

/// Pragmas a lab may use (@p words after `#pragma`): loop unrolling, include guards and diagnostics.
bool allowed_pragma(const std::vector<std::string>& words);
/// Whether @p name is a macro that tells one compiler (or compilation pass) from another.
bool tests_backend(const std::string& name);

}  // namespace tilelab::grader::source_names
