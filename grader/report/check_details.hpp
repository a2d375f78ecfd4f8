/// @file check_details.hpp
/// @brief What a failed check's log says beyond its record's one line, for the platforms that show a student no
/// log: Gradescope's results.json, PrairieLearn's tests, a GitHub Classroom test. The compiler's first errors, the
/// wrong elements, the fault or the time limit, and what the lab's program printed (quoted, as the log quotes it).
/// Only shown, never read for a verdict: the points come from the records alone.
#pragma once

#include "records.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace tilelab::report {

/// The most bytes a failed check's details take (a few compiler errors, or a failure block of the checker's).
constexpr std::size_t details_limit = 2000;

/// The details of a failed check from its log (@p log, the text of verdicts/<test>.log). For the build check
/// (@p check "build"): the compiler's first three errors with the lines they quote, or the source check's refusal,
/// without the build tool's progress lines and commands. For another check: the checker's failure blocks, each
/// without the checker's source position (the failure, the first wrong elements, what the lab's program printed,
/// its hint), in order. Paths under @p build (the grading's build folder) are shown from its submission's folder,
/// as the student named them ("02_tiled/kernel.cu:18:5: error: ..."). Control characters but tabs are dropped; at
/// most details_limit bytes, cut at a line's end. "" where the log holds neither.
std::string check_details(const std::string& log, const std::string& check, const std::string& build);

/// @p details without the checker's hint where @p reason (its one line, "<test>: <reason>") already shows it, ""
/// when nothing is left: the platforms show the details, then the reason below them, as the terminal does.
std::string details_beyond(const std::string& details, const std::string& reason);

/// Sets the details of each failed test of @p tests from its log in @p verdicts (a build's verdicts/, whose
/// build folder is @p build); a test whose log is missing keeps none.
void attach_details(std::vector<TestResult>& tests, const std::string& verdicts, const std::string& build);

}  // namespace tilelab::report
