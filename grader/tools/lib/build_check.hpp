/// @file build_check.hpp
/// @brief The build check's rules (grader/tools/tilelab_build_check.cpp): from what the source check, the build and
/// nm said about a lab, why it is refused and the hint that teaches what to do. Pure functions of text, so that
/// each rule is unit-tested on the lines that trigger it.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace tilelab::grader {

/// Why the build check refuses a lab: the record's message (one line) and hint (without "hint: ").
struct BuildRefusal {
    std::string message;  ///< What went wrong, in one line.
    std::string hint;     ///< What to do about it; empty when the lab is not refused.
    /// Whether the lab is refused.
    bool refused() const { return !hint.empty(); }
};

/// The line every failure of the build check ends with: the section of the grading page that explains it.
extern const char* const build_check_page;

/// The source check refused the lab's files; @p output is what it printed (one line per reason).
BuildRefusal source_check_refusal(const std::string& output);

/// The build of the lab's targets failed with @p output; @p sources are the texts of the lab's files (for the
/// libraries they include) and @p cpu_backend says whether the CPU backend built them (CUDA it does not emulate).
BuildRefusal build_failure(const std::string& output, const std::vector<std::string>& sources, bool cpu_backend);

/// A library's name among the symbols of `nm -C` of the lab's objects (@p symbols): the lab calls it.
BuildRefusal library_symbol(const std::string& symbols);

/// A definition in `nm -g --defined-only` of the lab's objects (@p defined) of a name that belongs to the kit, CUDA's
/// runtime, the runner's harness (main) or the C library (@p libc_names); @p readable turns a mangled name into the
/// one the student wrote (c++filt).
BuildRefusal interposed_definition(const std::string& defined, const std::set<std::string>& libc_names,
                                   std::string (*readable)(const std::string&));

/// The lab's code calls @p os_name, a function of the C library or the system (from tilelab-source-check
/// --undefined-symbols).
BuildRefusal os_call(const std::string& os_name);

/// A use, in `nm -u -C` of the lab's objects (@p undefined), of the standard library's files or threads.
BuildRefusal files_or_threads(const std::string& undefined);

}  // namespace tilelab::grader
