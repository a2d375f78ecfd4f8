/// @file stub_files.hpp
/// @brief Which labs of a submission are the kit's stubs as given: a class's page counts a lab left untouched apart
/// from one done wrong, and the report says so, since the two call for different help.
#pragma once

#include "registry.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace tilelab::report {

/// Whether @p submitted is the stub @p stub as given: the same code once lines that are blank or only a `//`
/// comment are dropped and every line is trimmed (a name added in a comment, other line endings, re-indented).
bool same_as_stub(const std::string& submitted, const std::string& stub);

/// The labs of @p registry whose every file in @p submission (a copy laid out like labs/) is its stub in
/// @p stubs (the kit's labs/), in the registry's order; a lab with a file missing is not one.
std::vector<std::string> stub_labs(const Registry& registry, const std::filesystem::path& submission,
                                   const std::filesystem::path& stubs);

}  // namespace tilelab::report
