/// @file progress.hpp
/// @brief A step of a quiet grade (tilelab-grade without --verbose): a program run with its output in a log file,
/// and one line of the grade's own that says what the step does and how far along it is.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace tilelab::grade {

/// How far along a step is, read from the last "[done/total]" (Ninja's) or " done/total Test" (CTest's) in
/// @p log_text: {done, total}, or {0, 0} where it shows neither. For the progress line only; nothing is decided by it.
std::pair<int, int> progress_of(const std::string& log_text);

/// Runs @p argv with its stdout and stderr in @p log, and shows one line, "TileLab: <what>: 57/114 (50%)", kept up
/// to date while it runs (rewritten in place on a terminal; elsewhere the tens of percent reached are appended, so
/// that the line stays one line in a file), then how long it took. Returns the program's exit status.
int run_with_progress(const std::vector<std::string>& argv, const std::filesystem::path& log, const std::string& what);

}  // namespace tilelab::grade
