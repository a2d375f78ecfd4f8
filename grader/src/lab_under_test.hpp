/// @file lab_under_test.hpp
/// @brief What the checker knows about the lab it grades: from the registry (lab_registry.hpp), never from the
/// lab's program.
#pragma once

#include "suite_series.hpp"

#include <tilelab/reference.hpp>

#include <chrono>
#include <string>
#include <vector>

namespace tilelab::grader {

/// The lab this checker grades.
struct LabUnderTest {
    const char* name;           ///< "lab01", "lab02", ...
    const char* launcher;       ///< The launcher's name, for messages.
    int tile_width;             ///< TILE_WIDTH the lab was compiled with.
    bool needs_tile_multiples;  ///< True when the lab may assume every dimension is a multiple of tile_width.
    bool uses_shared_tiles;     ///< True when the kernel must keep a tile of M and one of N in shared memory.
    /// Labs with a configuration of their own (labs.hpp's constants): the tile of P one block of the kit's launch computes
    /// (square), the inner-dimension depth of one phase, and the threads of a block; 0 for the TILE_WIDTH labs,
    /// whose blocks are TILE_WIDTH × TILE_WIDTH threads, one per element of a TILE_WIDTH tile.
    int block_tile = 0;
    int phase_depth = 0;  ///< See block_tile.
    int block_threads = 0;  ///< See block_tile.
    /// What the performance gate's top rung races the lab against (the previous stage's model), for messages; ""
    /// for a lab without a gate. Each rung's own is its registry entry's (LabGate, lab_registry.hpp).
    const char* reference = "";
    /// How far from 1.0 (as fast as the reference) towards the lab's model answer's own speedup over the same
    /// reference, measured on the grading GPU, the gate's top rung's requirement lies: required = 1 + f (model - 1)
    /// (gate_threshold.hpp; TILELAB_MIN_SPEEDUP overrides it). Each lab's is its registry entry's, chosen from
    /// the margin data in docs/benchmarks.md ("The gates' fractions").
    double gate_fraction = 0;
    /// What the kernel may round its inputs to (the registry's input_precision): the tolerance allows for it.
    InputPrecision input_precision = InputPrecision::fp32;

    /// Rows and columns of P one block computes.
    int tile() const noexcept { return block_tile > 0 ? block_tile : tile_width; }
    /// Inner-dimension elements one phase covers.
    int depth() const noexcept { return phase_depth > 0 ? phase_depth : tile_width; }
    /// Threads of one block of the kit's launch.
    int threads_per_block() const noexcept { return block_threads > 0 ? block_threads : tile_width * tile_width; }
    /// The kit's launch, in words: "TILE_WIDTH x TILE_WIDTH blocks" or "blocks of 512 threads, each a 64 x 64 tile".
    std::string contract_blocks() const {
        if (block_tile == 0) return "TILE_WIDTH x TILE_WIDTH blocks";
        return "blocks of " + std::to_string(block_threads) + " threads, each computing a " + std::to_string(block_tile) +
               " x " + std::to_string(block_tile) + " tile of P";
    }
};

/// How this checker was started (see grader_main.cpp for the options).
struct CheckerOptions {
    LabUnderTest lab{};                        ///< The lab, from the registry by --lab and --tile-width.
    std::vector<std::string> runner;           ///< The runner's command: an optional wrapper, then the runner.
    std::string module;                        ///< The lab's module the runner host loads (--module); empty: none.
    /// The build check's record of the lab (--built-record): in a series of several labs (--then), a lab whose
    /// build did not pass is left out, as CTest leaves out the checks of a lab of its own whose build failed.
    std::string built_record;
    std::chrono::steady_clock::time_point deadline;  ///< When the lab's program must have answered everything.
    double time_limit_seconds = 3600;          ///< --time-limit: the deadline's distance from the check's start.
    std::string verdict_file;                  ///< Where the checker writes its verdict for grade.cmake; may be empty.
    std::string sanitizer_tool;                ///< compute-sanitizer's tool the runner runs under; empty for none.
    /// Limit of each request to the runner (0: none), --request-limit; under compute-sanitizer three times the
    /// backend's own (suite_series.hpp) where none is given.
    double request_limit_seconds = 0;
    double request_cpu_limit_seconds = 0;      ///< CPU time each request may use in the runner (0: no limit),
                                               ///< --request-cpu-limit (the CPU backend's checks).
    bool exclusive_gpu = false;                ///< The check measures the GPU: it holds it alone (gpu_lease.hpp).
    /// Checks run one after another by this process (--suite, suite_series.hpp); empty: the command line's.
    std::vector<SeriesSuite> series;
};

/// compute-sanitizer's exit status when its tool found an error (--error-exitcode).
inline constexpr int sanitizer_error_status = 86;

/// Reads and removes the checker's own options (--lab, --tile-width, --runner, --module, --built-record,
/// --time-limit, --verdict-file, --sanitizer PATH with --sanitizer-tool TOOL, --exclusive-gpu, --request-limit
/// SECONDS, --request-cpu-limit SECONDS, --suite <name>:<seconds> ...) from argv; a request limit given replaces
/// each --suite check's own (the self-test's short ones). Throws std::invalid_argument with a message when an option
/// is missing or wrong.
CheckerOptions parse_checker_options(int& argc, char** argv);

/// The options this process was started with (set once by main).
const CheckerOptions& checker_options();
/// Sets them (main, and unit tests).
void set_checker_options(CheckerOptions options);

/// The lab this program grades.
const LabUnderTest& lab_under_test();

}  // namespace tilelab::grader
