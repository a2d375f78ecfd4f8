/// @file suite_series.hpp
/// @brief Several checks of one lab at one tile width run by one checker process, one after another, each with
/// its own limit, output and verdict: the lab's program (and its CUDA context) is started once for all of them
/// instead of once per check, which matters on a GPU that creates contexts one at a time.
#pragma once

#include <string>

namespace tilelab::grader {

/// One check of a series, from the command line:
/// `--suite <name>:<seconds>:<request limit>:<shared|exclusive>[:<request CPU limit>]`.
struct SeriesSuite {
    std::string name;                   ///< The doctest suite ("tiny", "timing-clock").
    double seconds = 0;                 ///< The check's limit, counted from its start.
    double request_limit_seconds = 0;   ///< Each request's own limit (0: none), as --request-limit.
    double request_cpu_limit_seconds = 0;  ///< The CPU time each request may use (0: no limit), as --request-cpu-limit.
    bool exclusive_gpu = false;         ///< It measures the GPU and holds it alone, as --exclusive-gpu.
};

/// Reads one `--suite` value; throws std::invalid_argument saying what is wrong.
SeriesSuite parse_series_suite(const std::string& text);

/// While it lives, what this process writes to its standard output (printf, std::cout, doctest) goes to a file.
class OutputToFile {
public:
    /// Sends the output to @p path (created or emptied); throws std::runtime_error when it cannot be opened.
    explicit OutputToFile(const std::string& path);
    ~OutputToFile();
    OutputToFile(const OutputToFile&) = delete;
    OutputToFile& operator=(const OutputToFile&) = delete;

private:
    int saved_stdout_ = -1;
};

/// A check's verdict, as the checker writes it: "passed", "failed" or "skipped" (exit status 0, other, 77).
const char* verdict_word(int exit_status);

/// The test of one check of a series: prints the output the series left in `<verdict file>.log` and returns the
/// exit status of the verdict in its record, `<verdict file>.json` (0 passed, 77 skipped, 1 failed; 1 with a
/// message saying which test writes it when the record is missing or cannot be read).
int show_verdict(const std::string& verdict_file);

}  // namespace tilelab::grader
