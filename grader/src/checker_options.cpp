#include "lab_registry.hpp"
#include "lab_under_test.hpp"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>

namespace tilelab::grader {
namespace {

CheckerOptions current;

// The lab the build calls @p id, from the registry (lab_registry.hpp), at @p tile_width.
LabUnderTest lab_from_table(const std::string& id, int tile_width) {
    if (tile_width != 8 && tile_width != 16 && tile_width != 32)
        throw std::invalid_argument("--tile-width must be 8, 16 or 32");
    const LabEntry* entry = find_lab(id);
    if (entry == nullptr) throw std::invalid_argument("--lab: no lab '" + id + "' (the registry has " + lab_ids() + ")");
    LabUnderTest lab{entry->id, entry->launcher, tile_width, entry->needs_tile_multiples, entry->uses_shared_tiles,
                     entry->configuration.block_tile, entry->configuration.phase_depth, entry->configuration.threads};
    if (entry->has_gate()) {
        lab.reference = entry->gate.top().reference_name;
        lab.gate_fraction = entry->gate.top().fraction;
    }
    lab.input_precision = entry->input_precision;
    return lab;
}

}  // namespace

CheckerOptions parse_checker_options(int& argc, char** argv) {
    CheckerOptions options;
    std::string lab;
    int tile_width = 0;
    double seconds = 3600;
    std::string runner, sanitizer;
    std::optional<double> request_limit, request_cpu_limit;  // given: they replace each check's own
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
        else if (arg == "--module") options.module = std::filesystem::absolute(value()).string();
        else if (arg == "--built-record") options.built_record = value();
        else if (arg == "--sanitizer") sanitizer = value();
        else if (arg == "--sanitizer-tool") options.sanitizer_tool = value();
        else if (arg == "--time-limit") seconds = std::strtod(value().c_str(), nullptr);
        else if (arg == "--verdict-file") options.verdict_file = value();
        else if (arg == "--exclusive-gpu") options.exclusive_gpu = true;
        else if (arg == "--request-limit") request_limit = std::strtod(value().c_str(), nullptr);
        else if (arg == "--request-cpu-limit") request_cpu_limit = std::strtod(value().c_str(), nullptr);
        else if (arg == "--suite") options.series.push_back(parse_series_suite(value()));
        else argv[kept++] = argv[i];
    }
    argc = kept;
    if (lab.empty() || runner.empty()) throw std::invalid_argument("--lab and --runner are required");
    options.lab = lab_from_table(lab, tile_width);
    if (!options.series.empty() && (!sanitizer.empty() || options.verdict_file.empty()))
        throw std::invalid_argument("--suite needs --verdict-file (the prefix of each check's verdict) and no "
                                    "--sanitizer");
    for (SeriesSuite& suite : options.series) {
        suite.request_limit_seconds = request_limit.value_or(suite.request_limit_seconds);
        suite.request_cpu_limit_seconds = request_cpu_limit.value_or(suite.request_cpu_limit_seconds);
    }
    // Under compute-sanitizer each request of the sanitized suite's small shapes answers within seconds, even under
    // racecheck: a kernel that never ends is stopped at three times a request's limit, not at the run's (minutes,
    // while it shares the GPU that a gate waits to have alone).
    options.request_limit_seconds = request_limit.value_or(sanitizer.empty() ? 0 : 3 * build_request_limits().seconds);
    options.request_cpu_limit_seconds = request_cpu_limit.value_or(0);
    if (sanitizer.empty() != options.sanitizer_tool.empty())
        throw std::invalid_argument("--sanitizer and --sanitizer-tool go together");
    if (!sanitizer.empty())
        options.runner = {sanitizer, "--tool", options.sanitizer_tool, "--error-exitcode",
                          std::to_string(sanitizer_error_status), "--print-limit", "20"};
    // Absolute: the runner starts in its scratch folder.
    options.runner.push_back(std::filesystem::absolute(runner).string());
    if (!options.module.empty()) options.runner.insert(options.runner.end(), {"--module", options.module});
    options.runner.insert(options.runner.end(), {"--tile-width", std::to_string(tile_width)});
    options.time_limit_seconds = seconds;
    options.deadline = std::chrono::steady_clock::now() +
                       std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
    return options;
}

const CheckerOptions& checker_options() { return current; }
void set_checker_options(CheckerOptions options) { current = std::move(options); }
const LabUnderTest& lab_under_test() { return current.lab; }

}  // namespace tilelab::grader
