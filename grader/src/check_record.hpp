/// @file check_record.hpp
/// @brief The record one check leaves, `<build>/verdicts/<test>.json` (schema version 1, docs in the issue 30
/// design): what every later step (the report, Gradescope's results, a batch's tables) reads, as data, in place of
/// the text a check printed. Its message and hint are the checker's own words, never lines quoting the lab's
/// program ("  | ..."), which a hostile lab could fill with anything.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace tilelab::grader {

/// The schema version this code writes and reads.
inline constexpr int check_record_version = 1;

/// One check's outcome, as written to its record.
struct CheckRecord {
    std::string test;      ///< The CTest test it belongs to ("graded.lab02.tw16.cpu.edges"): the record's file name.
    std::string lab;       ///< The lab's id ("lab02").
    int tile_width = 0;    ///< The tile width the lab was built and graded at.
    std::string backend;   ///< "cpu" or "gpu".
    std::string check;     ///< The check ("edges", "perf", "memcheck", "build").
    std::string verdict;   ///< "passed", "failed" or "skipped".
    double seconds = 0;    ///< How long the check itself took.
    std::string message;   ///< One line: the first error, or why it was skipped; empty when it passed.
    std::string hint;      ///< The hint's text, without "hint: "; empty when there is none.
    std::string anchor;    ///< The section of docs/grading.md that explains the check ("check_edges").
    std::string log;       ///< The file name of the check's full output, beside the record ("<test>.log").
    /// What the check measured (the performance gate's speedups, GPU and rate); an empty object for other checks.
    nlohmann::json measures = nlohmann::json::object();
};

/// A failure's text split into the record's message and hint.
struct FailureWords {
    std::string message;  ///< The text's first line, trimmed, and the next when the first ends with ":".
    std::string hint;     ///< The first line of the checker's own that starts with "hint: " (indent allowed), without it.
};

/// Splits the text of a failure (a doctest failure, an exception's what()) at its hint. Only a line that starts
/// with "hint: " after spaces is a hint; a line quoting the lab's program ("  | hint: ...") never is, and the first
/// line is the message whatever it holds.
FailureWords split_failure(const std::string& text);

/// The record as JSON (nlohmann), with "record": check_record_version; "measures" only when it holds something.
nlohmann::json to_json(const CheckRecord& record);

/// Reads a record from its JSON; throws std::runtime_error naming what is missing or of the wrong type.
CheckRecord record_from_json(const nlohmann::json& json);

/// Writes @p record to @p path whole or not at all (a temporary file renamed over it), so a reader never sees half
/// a record; throws std::runtime_error saying why it could not.
void write_record(const std::string& path, const CheckRecord& record);

/// Reads the record at @p path; throws std::runtime_error saying why when it is missing, not JSON or not a record.
CheckRecord read_record(const std::string& path);

/// The anchor of @p check's section in docs/grading.md ("odd-shapes": "check_odd_shapes").
std::string check_anchor(const std::string& check);

/// The exit status a test of this verdict ends with: 0 passed, 77 skipped (CTest's SKIP_RETURN_CODE), 1 failed.
int verdict_exit_status(const std::string& verdict);

/// The record's file for a verdict file's path (`--verdict-file <prefix>`): "<prefix>.json"; its log: "<prefix>.log".
std::string record_path(const std::string& verdict_file);

/// The log file for a verdict file's path: "<prefix>.log".
std::string log_path(const std::string& verdict_file);

/// The measures the check now running has taken (the performance gate fills them), for its record; the checker
/// empties them before each check.
nlohmann::json& current_check_measures();

}  // namespace tilelab::grader
