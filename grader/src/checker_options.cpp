#include "lab_under_test.hpp"

#include <tilelab/labs.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace tilelab::grader {
namespace {

CheckerOptions current;

// The labs the checker knows, by the id the build gives them.
//
// Each gate's fraction f (LabUnderTest::gate_fraction): the gate requires 1 + f x (model - 1), where model is the
// lab's own model answer's speedup over the gate's reference, measured on the grading GPU by the gate's procedure
// (perf_test.cpp, cached per GPU: gate_calibration.hpp). Chosen from the H100's margin data (docs/benchmarks.md,
// "The performance gate, kernel by kernel", and grader/selftest/gate/), as shares of the model's gain:
// - labs 02 and 03, f = 0.25: the model gains 1.19 (2.19x); the slowest honestly tiled kernels (padded or
//   transposed tiles, 1.69x) keep 58% of that gain, the untiled ones (naive-body, naive-in-tiled, token-tiles:
//   1.00x; tiles-unused 0.84 to 0.90x; tiles-reloaded 0.44x) 0% or less. A quarter of the way leaves honest kernels
//   more than twice the room, and untiled ones a quarter of the gain below (H100: 1.30x; it was 1.25x, f 0.21).
//   The half-tiled kernel (gate/partial, 1.47 to 1.66x) is the shared-memory check's to fail, not the gate's.
// - lab 05, f = 0.13: the model gains 1.11 (2.11x) over lab 03's model. An honest coarsened kernel without the
//   model's unrolled, consecutive outputs (gate/honest/strided-rows) keeps only 1.21x, and 8 outputs that share no
//   row or column (gate/dishonest/scattered-outputs, lab 03's idea) 1.08x, on the H100 and the H200 alike: 13% of
//   the gain (1.14x) sits between them, 0.07x from each (it was 1.25x, f 0.23, which failed the honest kernel).
// - lab 06, f = 0.5: the model gains only 0.23 (1.23x) over lab 05's; half of it keeps 0.12x between the
//   requirement and lab 05's model (1.00x, runs within 0.01x of each other) and leaves honest register tiling
//   without every refinement of the model half of the gain (H100: 1.12x; it was 1.15x, f 0.65, which failed any
//   honest kernel with less than two thirds of the model's gain).
// - lab 07, f = 0.4: the model gains 0.55 (1.55x) over lab 06's, most of it from the transposed, padded tile
//   that ends lab 06's bank conflicts, and 40% of it leaves room for a kernel that takes the 16-byte loads
//   with a plainer tile (H100: 1.22x; it was 1.25x, f 0.45).
// - lab 08, f = 0: "not slower" than lab 07's model (1.00x). An honest lab 08 without the interior fast path the
//   handout calls optional measured 1.046x on the H100 and the model 1.27x, and no timing separates it reliably
//   from lab 07's model submitted as lab 08 (1.00x); what lab 08 adds is checked structurally instead (the
//   asynchronous copies of the next phase issued before the current phase's multiply-adds: lab 08's structural
//   check on the CPU backend, issue 29).
// On any GPU the requirement is at most 95% of the model's own speedup (gate_threshold.hpp), so the model passes.
LabUnderTest lab_from_table(const std::string& id, int tile_width) {
    if (tile_width != 8 && tile_width != 16 && tile_width != 32)
        throw std::invalid_argument("--tile-width must be 8, 16 or 32");
    const char* const naive = "the model naive kernel (lab 01)";
    if (id == "lab01") return {"lab01", "matmul_naive", tile_width, false, false};
    if (id == "lab02") return {"lab02", "matmul_tiled", tile_width, true, true, 0, 0, 0, naive, 0.25};
    if (id == "lab03") return {"lab03", "matmul_tiled_boundary", tile_width, false, true, 0, 0, 0, naive, 0.25};
    if (id == "lab04") return {"lab04", "matmul_timed", tile_width, false, true};
    // Labs 05 and up: their own configuration (labs.hpp), the same at every tile width.
    if (id == "lab05")
        return {"lab05", "matmul_coarsened", tile_width, false, false, COARSENED_BLOCK_TILE, COARSENED_PHASE_DEPTH,
                COARSENED_THREADS, "the model tiled kernel (lab 03, TILE_WIDTH 16)", 0.13};
    if (id == "lab06")
        return {"lab06", "matmul_register_tiled", tile_width, false, false, REGISTER_BLOCK_TILE, REGISTER_PHASE_DEPTH,
                REGISTER_THREADS, "the model coarsened kernel (lab 05)", 0.5};
    if (id == "lab07")
        return {"lab07", "matmul_vectorized", tile_width, false, false, VECTOR_BLOCK_TILE, VECTOR_PHASE_DEPTH,
                VECTOR_THREADS, "the model register-tiled kernel (lab 06)", 0.4};
    // Lab 08: "not slower" than lab 07's model (f = 0). Its pipeline is worth a few percent there, less than the gate
    // can tell from noise (issue 29); the pipeline check (pipeline_test.cpp) sees it in the kernel's structure.
    if (id == "lab08")
        return {"lab08", "matmul_warp_tiled", tile_width, false, false, WARP_TILED_BLOCK_TILE, WARP_TILED_PHASE_DEPTH,
                WARP_TILED_THREADS, "the model vectorised kernel (lab 07)", 0.0};
    throw std::invalid_argument("--lab: no lab '" + id + "' (lab01 to lab08)");
}

}  // namespace

CheckerOptions parse_checker_options(int& argc, char** argv) {
    CheckerOptions options;
    std::string lab;
    int tile_width = 0;
    double seconds = 3600;
    std::string runner, sanitizer;
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
            return argv[++i];
        };
        if (arg == "--lab") lab = value();
        else if (arg == "--tile-width") tile_width = std::atoi(value().c_str());
        else if (arg == "--runner") runner = value();
        else if (arg == "--sanitizer") sanitizer = value();
        else if (arg == "--sanitizer-tool") options.sanitizer_tool = value();
        else if (arg == "--time-limit") seconds = std::strtod(value().c_str(), nullptr);
        else if (arg == "--verdict-file") options.verdict_file = value();
        else if (arg == "--exclusive-gpu") options.exclusive_gpu = true;
        else if (arg == "--request-limit") options.request_limit_seconds = std::strtod(value().c_str(), nullptr);
        else if (arg == "--suite") options.series.push_back(parse_series_suite(value()));
        else argv[kept++] = argv[i];
    }
    argc = kept;
    if (lab.empty() || runner.empty()) throw std::invalid_argument("--lab and --runner are required");
    options.lab = lab_from_table(lab, tile_width);
    if (!options.series.empty() && (!sanitizer.empty() || options.verdict_file.empty()))
        throw std::invalid_argument("--suite needs --verdict-file (the prefix of each check's verdict) and no "
                                    "--sanitizer");
    if (sanitizer.empty() != options.sanitizer_tool.empty())
        throw std::invalid_argument("--sanitizer and --sanitizer-tool go together");
    if (!sanitizer.empty())
        options.runner = {sanitizer, "--tool", options.sanitizer_tool, "--error-exitcode",
                          std::to_string(sanitizer_error_status), "--print-limit", "20"};
    // Absolute: the runner starts in its scratch folder.
    options.runner.push_back(std::filesystem::absolute(runner).string());
    options.runner.insert(options.runner.end(), {"--tile-width", std::to_string(tile_width)});
    options.deadline = std::chrono::steady_clock::now() +
                       std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
    return options;
}

const CheckerOptions& checker_options() { return current; }
void set_checker_options(CheckerOptions options) { current = std::move(options); }
const LabUnderTest& lab_under_test() { return current.lab; }

}  // namespace tilelab::grader
