/// @file source_policy.hpp
/// @brief What a lab's source may reach, checked on the files as the student wrote them (before the CPU
/// backend's rewrite), the same on both backends: the build check refuses a lab that breaks it.
///
/// A lab's program holds the student's code next to the kit's harness and, on the CPU backend, the emulator
/// that measures it; the checker decides from what the kit measures. So a lab's files may reach only what a lab
/// needs: the kit's public headers and names (tilelab::DeviceBuffer, TILELAB_CUDA_CHECK, ...), CUDA's and the
/// C++ library's headers, and files of the lab's own folder. Everything else that the kit's headers bring into
/// the same program (namespace tilelab::cpu, the gate's tilelab_model_* kernels, the model answers in
/// solutions/) must not be named, included, or reached by a link, an asm label, a symbol looked up at run time
/// or a name built by the preprocessor.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace tilelab::grader {

/// One broken rule: where (file as given, line as written, 0 for the file as a whole) and a message that says
/// what and why, for the student.
struct SourceFinding {
    std::string file;
    int line = 0;
    std::string message;
};

/// A `#include "..."` of a file: the name as written and its line; check_lab_file checks that file in turn.
struct QuotedInclude {
    std::string name;
    int line = 0;
};

/// A name a preprocessor conditional tests (`#if NAME`, `#ifdef NAME`, `defined(NAME)`), and its line.
struct MacroTest {
    std::string name;
    int line = 0;
};

/// A function declared __device__ or __global__ (or both __host__ and __device__): its name, whether it is a
/// template, and its line.
struct DeviceFunction {
    std::string name;
    bool is_template = false;
    int line = 0;
};

/// What check_source_text found in one file's text.
struct SourceScan {
    std::vector<SourceFinding> findings;  ///< Rules broken (file left empty: the caller names it).
    std::vector<QuotedInclude> quoted;    ///< Quoted includes that passed the name rules, for the caller.
    /// The macros the file #defines, each with the identifiers of its body (its parameters left out).
    std::map<std::string, std::vector<std::string>> defines;
    /// Names the file's conditionals test that no other rule refused: each must be a macro of the lab's own files
    /// (defines, of every file the lab includes) or one the kit gives labs (resolve_lab_scans).
    std::vector<MacroTest> macro_tests;
    /// Device functions the file declares: a name both a template and a plain function is refused.
    std::vector<DeviceFunction> device_functions;
};

/// The rules on one file's text, as written: includes (public kit headers, an allowlist of CUDA's and the C++
/// standard library's headers, no POSIX or system header, quoted files without `..` or absolute paths, no computed
/// include), names (the kit's internals, the emulator's functions, tests of the backend, the OS's functions for
/// files, descriptors, processes, threads, signals and the environment unless the file's own variable), asm,
/// `extern "C"`, startup attributes, frame builtins, pragmas but unroll and diagnostics, symbol aliases and
/// look-ups by name, token pasting, trigraphs and universal character names in code. Line splices, comments, string and raw string literals and digraphs are handled
/// as the compiler handles them, so nothing the compiler sees as code is hidden from the rules.
/// The rules that need every file of the lab (macros tested but defined nowhere, overload sets of device functions)
/// run on this one file as if it were the lab's only one.
SourceScan check_source_text(const std::string& text);

/// Adds to each scan of @p scans (the files of one lab) the findings of the rules that need all of them: a
/// conditional on a macro that none of the files #defines and the kit does not give labs; a device function's name
/// that is both a template and a plain function in any of the files.
void resolve_lab_scans(std::vector<SourceScan*>& scans);

/// The rules on the lab file @p relative of the submission folder @p root: every folder from @p root down to
/// the file, and everything in the file's folder, must be a plain folder or file (no symbolic link, no hard
/// link, nothing else); then check_source_text on the file and, in turn, on each file it includes with quotes,
/// which must be a plain file of the same folder. Files are opened without following links.
std::vector<SourceFinding> check_lab_file(const std::filesystem::path& root, const std::filesystem::path& relative);

/// The first function of the C library or the system (the same list the source check refuses by name, plus the
/// names only a compiled object shows: the C library's internal and 64-bit variants, pthreads, the dynamic loader)
/// that @p nm_undefined, the output of `nm -u` on a lab's objects, lists; empty when there is none. The build check
/// runs it on the objects the compiler made, which no spelling, overload or pointer to a function hides from.
std::string first_os_symbol(const std::string& nm_undefined);

}  // namespace tilelab::grader
