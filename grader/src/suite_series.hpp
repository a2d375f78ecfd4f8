/// @file suite_series.hpp
/// @brief Several checks of one lab at one tile width run by one checker process, one after another, each with
/// its own limit, output and verdict: the lab's program (and its CUDA context) is started once for all of them
/// instead of once per check, which matters on a GPU that creates contexts one at a time.
#pragma once

#include <string>

namespace tilelab::grader {

/// One check of a series, from the command line: `--suite <name>:<seconds>`, the rest of its policy derived from the
/// registry's suite (series_suite).
struct SeriesSuite {
    std::string name;                   ///< The doctest suite ("tiny", "timing-clock").
    double seconds = 0;                 ///< The check's limit, counted from its start.
    double request_limit_seconds = 0;   ///< Each request's own limit (0: none), as --request-limit.
    double request_cpu_limit_seconds = 0;  ///< The CPU time each request may use (0: no limit), as --request-cpu-limit.
    bool exclusive_gpu = false;         ///< It measures the GPU and holds it alone, as --exclusive-gpu.
};

/// The share of its request limits (wall-clock and CPU time) a check of a series gives each request once a request
/// of an earlier check of the series ran out of its own limit. The checks of a series run the same kernel: one that
/// never ends ran out in each check, a request limit a check (5 s on the GPU, 10 CPU-seconds on the CPU backend, 15
/// under compute-sanitizer), so that one submission with such a kernel took 222 s of a class's slot where others
/// took 100 to 140 (docs/benchmarks.md#class_tail). A quarter is still more than the most a correct kernel's request
/// took (0.7 s on the H200 with 16 submissions sharing it; 1.07 CPU-seconds on 2 cores), and it applies only to a
/// kernel that has already failed a check by not finishing.
inline constexpr double limit_share_after_time_out = 0.25;

/// @p suite as its check applies it: its own request limits, or limit_share_after_time_out of each where
/// @p earlier_ran_out (a request of an earlier check of the series ran out of its limit). A limit of 0 (none) stays 0.
SeriesSuite limits_after_time_out(SeriesSuite suite, bool earlier_ran_out);

/// One request's limits on a backend, from which each check's own are derived: the build's TILELAB_REQUEST_LIMIT
/// and TILELAB_REQUEST_CPU_LIMIT on the CPU backend, TILELAB_GPU_REQUEST_LIMIT (and no CPU-time limit) on the GPU.
/// The CPU backend emulates every thread of a multiply (seconds for the largest on a busy 2-core machine); a GPU
/// answers the largest (1024^3) in milliseconds: 1.03 s at most, a whole check's requests, with 16 submissions
/// sharing an H200. A kernel that never ends holds the GPU until this limit, and every gate of a batch waits for it
/// meanwhile: at 20 s, one such submission kept a class of 64 from finishing any submission for three minutes
/// (docs/benchmarks.md#class_hung_kernel).
struct RequestLimits {
    double seconds = 0;      ///< Wall-clock seconds.
    double cpu_seconds = 0;  ///< CPU-seconds of the lab's program (0: none).
    bool gpu = false;        ///< The GPU backend's: a check that measures the GPU holds it alone.
};

/// This checker's backend's (its build's definitions).
RequestLimits build_request_limits();

/// The check @p name with its limit @p seconds, its request limits and GPU use derived from its suite in the
/// registry and @p limits. Correctness and structure checks: each multiply answers in well under a second on
/// either backend, so a kernel that never ends is stopped after @p limits rather than at the check's limit (and, in
/// a batch, does not hold the GPU that long). Timing checks (lab 04's host code times a few multiplies: seconds):
/// the limits times the suite's time factor; host code that never returned held the GPU for the check's whole
/// limit, and in a batch a gate waiting for it kept every other request out (docs/benchmarks.md#class_two_gpus).
/// On the CPU backend a request is also stopped by the CPU time it used (the emulated kernel's work), which a busy
/// machine does not stretch: a kernel that never ends costs seconds a check there, not the wall-clock limit that a
/// busy 2-core machine needs (docs/benchmarks.md#class_hung_kernel). The gate's rungs time their own runs: no
/// request limit. On the GPU, a check that measures it (not a gate's, which holds it only while it times) holds
/// it alone from its start to the series' end. Throws std::invalid_argument for a suite the registry lacks.
SeriesSuite series_suite(const std::string& name, double seconds, const RequestLimits& limits);

/// Reads one `--suite <name>:<seconds>` value (series_suite with build_request_limits); throws
/// std::invalid_argument saying what is wrong.
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
