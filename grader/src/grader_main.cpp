// The checker's entry point: says what is graded and with which seed, skips (exit 77) without a usable GPU,
// runs the selected checks against the lab's program (a separate, sandboxed process), and fails when a filter
// selected no test at all, so a misspelt suite can never pass silently. A failure ends with the section of
// docs/grading.md that explains the check. Its verdict is its exit status, also written with the check's message,
// hint and measures as the check's record, <--verdict-file>.json (check_record.hpp), its output beside it in
// <--verdict-file>.log; nothing the lab's program prints or returns decides it.
#define DOCTEST_CONFIG_IMPLEMENT
#include "device_requirements.hpp"
#include "grading_page.hpp"
#include "lab_registry.hpp"
#include "lab_runner.hpp"
#include "lab_under_test.hpp"
#include "run_counter.hpp"
#include "sandbox.hpp"
#include "suite_series.hpp"
#include "check_record.hpp"

#include <tilelab/random.hpp>

#include <cuda_runtime_api.h>
#ifndef TILELAB_CUDA_ARCHITECTURES
#define TILELAB_CUDA_ARCHITECTURES ""  // the build's CMAKE_CUDA_ARCHITECTURES, "75-real,90"
#endif
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>

namespace {

/// Exit code that CTest's SKIP_RETURN_CODE turns into "skipped".
constexpr int exit_skipped = 77;

/// The GPU this checker can use: whether there is one and its compute capability, with a line that says which, or
/// why not. Asked here, by the checker, so that a lab's program cannot have its GPU checks skipped by claiming there
/// is no GPU.
tilelab::grader::FoundGpu gpu_available() {
    tilelab::grader::FoundGpu gpu;
    char line[512];
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess || count == 0) {
        std::snprintf(line, sizeof line, "SKIPPED: no usable CUDA GPU (%s); the GPU checks did not run",
                      status != cudaSuccess ? cudaGetErrorString(status) : "no device found");
        gpu.said = line;
        return gpu;
    }
    gpu.usable = true;
    cudaDeviceProp properties{};
    if (cudaGetDeviceProperties(&properties, 0) == cudaSuccess) {
        gpu.capability = {properties.major, properties.minor};
#ifdef TILELAB_CPU_BACKEND
        std::snprintf(line, sizeof line, "Backend: %s; every __syncthreads() and shared-memory access is checked",
                      properties.name);
#else
        std::snprintf(line, sizeof line, "GPU: %s (compute capability %d.%d)", properties.name, properties.major,
                      properties.minor);
#endif
        gpu.said = line;
    }
    return gpu;
}

// The GPU as tilelab-grade found it once for the whole grading (--device-query, passed on in TILELAB_GPU_FOUND, a
// record of device_requirements.hpp), else this checker's own query. Asking once matters in a batch: every query
// initialises CUDA, which the driver does for one process at a time. It is this checker's own environment, from
// grade.cmake: nothing a lab's program does can change it.
tilelab::grader::FoundGpu gpu_found() {
#ifndef TILELAB_CPU_BACKEND
    tilelab::grader::FoundGpu recorded;
    const char* found = std::getenv("TILELAB_GPU_FOUND");
    if (found != nullptr && tilelab::grader::read_found_gpu(found, recorded)) return recorded;
#endif
    tilelab::grader::hold_gpu(tilelab::grader::GpuUse::starting);  // as a context, waits only for a memory check
    tilelab::grader::FoundGpu found_here = gpu_available();
    tilelab::grader::gpu_lease().release_shared();
    return found_here;
}

/// Whether this checker's GPU can grade @p lab (device_requirements.hpp): when not, the lab's GPU checks are
/// skipped, and the GPU's line is followed by the reason.
void apply_lab_needs(const char* lab, tilelab::grader::FoundGpu& gpu) {
#ifndef TILELAB_CPU_BACKEND
    if (!gpu.usable) return;
    const std::string skip = tilelab::grader::device_skip_reason(
        lab, gpu.capability, tilelab::grader::oldest_architecture(TILELAB_CUDA_ARCHITECTURES));
    if (skip.empty()) return;
    gpu.usable = false;
    gpu.said += "\n" + skip;
#else
    (void)lab;
    (void)gpu;
#endif
}

// After printing @p said (what is graded), the GPU this checker grades @p lab on: gpu_found(), then
// apply_lab_needs(). Throws std::runtime_error when the GPU lock could not be held.
tilelab::grader::FoundGpu gpu_for_lab(const char* lab, const std::string& said) {
    std::printf("%s", said.c_str());
    std::fflush(stdout);
    tilelab::grader::FoundGpu gpu = gpu_found();
    apply_lab_needs(lab, gpu);
    return gpu;
}

// What each compute-sanitizer tool's error means for a lab.
std::string sanitizer_hint(const std::string& tool) {
    if (tool == "memcheck")
        return "memcheck found an invalid memory access: a thread read or wrote outside a buffer; check the bounds "
               "tests and the index arithmetic";
    if (tool == "racecheck")
        return "racecheck found a shared-memory race: threads write and read a tile with no __syncthreads() "
               "between them; a barrier is missing";
    return "synccheck found an invalid use of __syncthreads(): some threads of a block skip a barrier that others "
           "wait at; never put a barrier inside a bounds test";
}

// After the checks under compute-sanitizer: its verdict on the lab's program, from its exit status; the record's
// message and hint in @p words when it decides the failure itself.
int sanitizer_verdict(const std::string& tool, int checks_result, tilelab::grader::FailureWords& words) {
    const int status = tilelab::grader::finish_runner();
    if (status == tilelab::grader::sanitizer_error_status) {
        std::printf("error: %s\nhint: %s\n", tool.c_str(), sanitizer_hint(tool).c_str());
        words = {"compute-sanitizer's " + tool + " reported an error in the lab's program (its report is above)",
                 sanitizer_hint(tool)};
        return 1;
    }
    if (checks_result != 0) {
        std::printf("error: %s: the checks themselves failed while running under compute-sanitizer; see above\n",
                    tool.c_str());
        return checks_result;
    }
    if (status != 0) {
        std::printf("error: %s: the lab's program under compute-sanitizer ended with status %d\n", tool.c_str(), status);
        words = {tool + ": the lab's program under compute-sanitizer ended with status " + std::to_string(status), ""};
        return 1;
    }
    std::printf("%s: no errors\n", tool.c_str());
    return 0;
}

// Why the checks were skipped, for the record: the "SKIPPED: " line of what the checker said about the GPU, up to
// its first ";" (the reason, without "the GPU checks did not run").
std::string skip_reason(const std::string& said) {
    const std::size_t at = said.find("SKIPPED: ");
    if (at == std::string::npos) return "no usable CUDA GPU";
    const std::string line = said.substr(at + 9, said.find('\n', at) - at - 9);
    return line.substr(0, line.find(';'));
}

// The words of a check's failure for its record: the first failure doctest reported, split at its hint, else
// what the checker knows (no test case ran).
tilelab::grader::FailureWords failure_words(int result) {
    const std::string failure = tilelab::grader::take_first_failure();
    if (result == 0) return {};
    if (!failure.empty()) return tilelab::grader::split_failure(failure);
    if (tilelab::grader::test_cases_selected() == 0) return {"no test case matched the filters on the command line", ""};
    return {"the check failed; see its output", ""};
}

// The check a single run grades, for its record: compute-sanitizer's tool, else the one suite of --test-suite=,
// else the last part of the test's name.
std::string check_of_run(int argc, char** argv, const tilelab::grader::CheckerOptions& options) {
    if (!options.sanitizer_tool.empty()) return options.sanitizer_tool;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind("--test-suite=", 0) == 0 && arg.find(',') == std::string::npos) return arg.substr(13);
    }
    const std::string test = std::filesystem::path(options.verdict_file).filename().string();
    return test.substr(test.rfind('.') + 1);
}

// Writes the record of one check (verdict file @p verdict_file, check @p check) that ended with @p result, with the
// measures the check took; returns @p result, or 1 when the record could not be written (which it says).
int write_record(const tilelab::grader::CheckerOptions& options, const std::string& verdict_file,
                 const std::string& check, int result, const tilelab::grader::FailureWords& words, double seconds) {
    using namespace tilelab::grader;
    if (verdict_file.empty()) return result;
    CheckRecord record;
    record.test = std::filesystem::path(verdict_file).filename().string();
    record.lab = options.lab.name != nullptr ? options.lab.name : "";
    record.tile_width = options.lab.tile_width;
#ifdef TILELAB_CPU_BACKEND
    record.backend = "cpu";
#else
    record.backend = "gpu";
#endif
    record.check = check;
    record.verdict = verdict_word(result);
    record.seconds = seconds;
    if (result != 0) {
        record.message = words.message;
        record.hint = words.hint;
    }
    record.anchor = grading_page_anchor(check);
    record.log = record.test + ".log";
    record.measures = current_check_measures();
    try {
        write_record(record_path(verdict_file), record);
    } catch (const std::exception& error) {
        std::printf("error: %s\n", error.what());
        return 1;
    }
    return result;
}

// Every check of the series ends with @p result and, as its output, @p said (the checker could not start them),
// @p words in its record.
int end_every_check(const tilelab::grader::CheckerOptions& options, int result, const std::string& said,
                    const tilelab::grader::FailureWords& words) {
    for (const tilelab::grader::SeriesSuite& suite : options.series) {
        const std::string verdict_file = options.verdict_file + "." + suite.name;
        std::ofstream(tilelab::grader::log_path(verdict_file), std::ios::trunc) << said;
        if (write_record(options, verdict_file, suite.name, result, words, 0) != result) return 1;
    }
    std::printf("%s", said.c_str());
    return 0;
}

// The checks of a series, one after another, with one lab's program for all while it stays usable: each check
// has its own limit from its start, its output in <verdict file>.<suite>.log and its record beside it
// (<verdict file>.<suite>.json), which the check's own test shows (--show-verdict). Fails only when a record could
// not be written: a failed check is that check's test's failure.
int run_series(int argc, char** argv, tilelab::grader::CheckerOptions options, const std::string& said) {
    using namespace tilelab::grader;
    const std::string label = holds_label(options.verdict_file);
    const char* holds_log = std::getenv("TILELAB_GPU_HOLDS_LOG");
    for (const SeriesSuite& suite : options.series) {
        std::remove(record_path(options.verdict_file + "." + suite.name).c_str());  // none left from an earlier run
    }
    bool ran_out = false;  // a request of an earlier check ran out of its limit (limit_share_after_time_out)
    for (const SeriesSuite& listed : options.series) {
        const SeriesSuite suite = limits_after_time_out(listed, ran_out);
        const std::string verdict_file = options.verdict_file + "." + suite.name;
        const auto started = std::chrono::steady_clock::now();
        options.deadline = started + std::chrono::milliseconds(static_cast<long long>(suite.seconds * 1000));
        options.request_limit_seconds = suite.request_limit_seconds;
        options.request_cpu_limit_seconds = suite.request_cpu_limit_seconds;
        options.exclusive_gpu = suite.exclusive_gpu;
        set_checker_options(options);
        if (holds_log != nullptr) gpu_lease().log_holds(holds_log, label + "." + suite.name);
        current_check_measures() = nlohmann::json::object();
        take_first_failure();
        int result = 0;
        FailureWords words;
        try {
            const OutputToFile output(log_path(verdict_file));
            std::printf("%s", said.c_str());
            if (ran_out) {
                std::printf("A request of an earlier check of this lab ran out of its limit: each request of this "
                            "check has a quarter of its limits (%g s", suite.request_limit_seconds);
                if (suite.request_cpu_limit_seconds > 0) std::printf(", %g s of CPU time", suite.request_cpu_limit_seconds);
                std::printf("), so that a kernel that never ends fails each check in that time\n");
            }
            begin_check();
            doctest::Context context(argc, argv);
            context.setOption("test-suite", suite.name.c_str());
            result = fail_if_nothing_ran(context.run());
            words = failure_words(result);
            if (result != 0) print_grading_page_links("");  // the page that explains it
        } catch (const std::exception& error) {
            std::printf("error: %s\n", error.what());
            write_record(options, verdict_file, suite.name, 1, {error.what(), ""}, 0);
            return 1;
        }
        if (take_request_ran_out()) ran_out = true;
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
        if (write_record(options, verdict_file, suite.name, result, words, took.count()) != result) return 1;
        std::printf("%-16s %s in %.1f s\n", suite.name.c_str(), verdict_word(result), took.count());
        std::fflush(stdout);
    }
    return 0;
}

// The verdict of one check's run whose test cases gave @p result: compute-sanitizer's on top, where the program ran
// under it (which ends the program); the record's words in @p words; the grading page's links when it failed.
int check_verdict(int result, const tilelab::grader::CheckerOptions& options, tilelab::grader::FailureWords& words) {
    words = failure_words(result);
    if (!options.sanitizer_tool.empty()) result = sanitizer_verdict(options.sanitizer_tool, result, words);
    if (result != 0) tilelab::grader::print_grading_page_links(options.sanitizer_tool);  // the page that explains it
    return result;
}

// One run of the checker that is one check (the performance gate, a compute-sanitizer run, a self-test's expected
// failure): its result, with the record's words in @p words. @p said: the line saying what is graded.
int run_one(doctest::Context& context, const tilelab::grader::CheckerOptions& options, const std::string& said,
            tilelab::grader::FailureWords& words) {
    tilelab::grader::FoundGpu gpu;
    try {
        gpu = gpu_for_lab(options.lab.name, said);
    } catch (const std::exception& error) {  // the GPU lock could not be held
        std::printf("error: %s\n", error.what());
        words = {error.what(), ""};
        return 2;
    }
    std::printf("%s\n", gpu.said.c_str());
    if (!gpu.usable) {
        words = {skip_reason(gpu.said), ""};
        return exit_skipped;
    }
    return check_verdict(tilelab::grader::fail_if_nothing_ran(context.run()), options, words);
}

// The line that says what is graded, and with which seed (base_seed() throws where TILELAB_SEED is not a number).
std::string what_is_graded(const tilelab::grader::LabUnderTest& lab) {
    char line[256];
    std::snprintf(line, sizeof line, "Grading %s (%s) at TILE_WIDTH %d with seed %llu (set TILELAB_SEED to change it)\n",
                  lab.name, lab.launcher, lab.tile_width, static_cast<unsigned long long>(tilelab::base_seed()));
    return line;
}

// What was written to @p path, onto this process's standard output (for CTest, after the log was written).
void print_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (in.is_open() && in.peek() != std::ifstream::traits_type::eof()) std::cout << in.rdbuf();
    std::cout.flush();
}

// One check (the performance gate, a compute-sanitizer run, a self-test's expected failure): run_one with its output
// in its log, beside its record, and then on this process's output; its result.
int run_recorded_check(int argc, char** argv, const tilelab::grader::CheckerOptions& options, const std::string& said) {
    doctest::Context context(argc, argv);
    const std::string check = check_of_run(argc, argv, options);
    const std::string log = tilelab::grader::log_path(options.verdict_file);
    std::remove(tilelab::grader::record_path(options.verdict_file).c_str());  // none left from an earlier run
    const auto started = std::chrono::steady_clock::now();
    tilelab::grader::FailureWords words;
    int result = 0;
    try {
        const tilelab::grader::OutputToFile output(log);
        result = run_one(context, options, said, words);
    } catch (const std::exception& error) {  // the log could not be written
        std::printf("error: %s\n", error.what());
        return write_record(options, options.verdict_file, check, 1, {error.what(), ""}, 0);
    }
    print_file(log);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
    return write_record(options, options.verdict_file, check, result, words, took.count());
}

// A batch's record of who had the GPU how long (TILELAB_GPU_HOLDS_LOG): the holds from now on are the check's whose
// record is @p options' verdict file.
void label_holds(const tilelab::grader::CheckerOptions& options) {
    if (const char* log = std::getenv("TILELAB_GPU_HOLDS_LOG"))
        tilelab::grader::gpu_lease().log_holds(log, tilelab::grader::holds_label(options.verdict_file));
}

// @p options with its deadline --time-limit from now: a lab of a run of several starts its own clock.
tilelab::grader::CheckerOptions starting_now(tilelab::grader::CheckerOptions options) {
    options.deadline = std::chrono::steady_clock::now() +
                       std::chrono::milliseconds(static_cast<long long>(options.time_limit_seconds * 1000));
    return options;
}

// One lab of a run of several (--then): its options, and its own argv (what parse_checker_options left).
struct LabPart {
    tilelab::grader::CheckerOptions options;
    std::vector<char*> argv;
    std::string said;  // what is graded, and on which GPU
    int runs = 0;      // compute-sanitizer runs it had its checks run in (run_sanitizer_group)
};

// A lab's compute-sanitizer run alone, as its own test would run it: a program of its own, its verdict recorded.
void run_sanitizer_lab_alone(LabPart& part) {
    using namespace tilelab::grader;
    const CheckerOptions options = starting_now(part.options);
    set_checker_options(options);
    label_holds(options);
    run_recorded_check(static_cast<int>(part.argv.size()) - 1, part.argv.data(), options,
                       part.said.substr(0, part.said.find('\n') + 1));
    discard_runner();
}

// Records @p group's labs as passed: their checks passed in one run of @p tool that found no error.
int record_clean_run(const std::vector<LabPart*>& group, const std::string& tool, double seconds) {
    using namespace tilelab::grader;
    std::string labs;
    for (const LabPart* part : group) labs += std::string(labs.empty() ? "" : ", ") + part->options.lab.name;
    int failed = 0;  // every lab's record is written, even after one could not be
    for (const LabPart* part : group) {
        const std::string& verdict_file = part->options.verdict_file;
        std::ofstream(log_path(verdict_file), std::ios::app)
            << tool << ": no errors, in one run of compute-sanitizer over " << labs << "\n";
        current_check_measures() = nlohmann::json::object();
        const int written = write_record(part->options, verdict_file, tool, 0, {},
                                         seconds / static_cast<double>(group.size()));
        if (written != 0 && failed == 0) failed = written;
    }
    if (failed != 0) return failed;
    std::printf("%s: no errors in one run over %s\n", tool.c_str(), labs.c_str());
    return 0;
}

// The labs of @p group (two or more) in one run of the tool: one runner host loads their modules one after another
// and runs each lab's checks until one fails. Every lab's verdict is the one its own run alone would give:
// - all checks passed and the tool found no error: every lab passed;
// - the first lab's checks failed: nothing ran before it in that program, so that run was its run alone, and its
//   verdict is written from it (the tool's report included);
// - a later lab's checks failed: the labs before it passed when the tool found no error up to there, else they run
//   again as a group of their own; the failed lab runs again first in a program of its own, with the labs after it;
// - every check passed but the tool reported an error: which lab's is not known, so each half runs again as a group.
// A group of one lab is its run alone. Before, every lab ran again alone after any failure: up to ten starts of the
// tool where one failed lab now takes three or four (docs/benchmarks.md#class_sanitizer_groups).
int run_sanitizer_group(std::vector<LabPart*> group) {
    using namespace tilelab::grader;
    if (group.empty()) return 0;
    // A lab runs three times at most (the CTest limit of the run allows that): one that has run twice already is
    // run alone now, with the rest of its group.
    const bool alone = group.size() == 1 ||
                       std::any_of(group.begin(), group.end(), [](const LabPart* part) { return part->runs >= 2; });
    if (alone) {
        for (LabPart* part : group) run_sanitizer_lab_alone(*part);
        return 0;
    }
    const auto started = std::chrono::steady_clock::now();
    std::size_t failed = group.size();  // the first lab whose checks failed
    bool first_recorded = false;        // the first lab failed, and its verdict is written
    std::string tool;
    for (std::size_t i = 0; i < group.size(); ++i) {
        LabPart* part = group[i];
        ++part->runs;
        const CheckerOptions options = starting_now(part->options);
        set_checker_options(options);
        label_holds(options);
        tool = options.sanitizer_tool;
        begin_check();
        take_first_failure();
        doctest::Context context(static_cast<int>(part->argv.size()) - 1, part->argv.data());
        const auto lab_started = std::chrono::steady_clock::now();
        int result = 1;
        try {
            const OutputToFile output(log_path(options.verdict_file));
            std::printf("%s", part->said.c_str());
            result = fail_if_nothing_ran(context.run());
            if (result != 0 && i == 0) {  // its run alone: the verdict as run_one gives it, the tool's report here
                FailureWords words;
                result = check_verdict(result, options, words);
                const std::chrono::duration<double> took = std::chrono::steady_clock::now() - lab_started;
                write_record(options, options.verdict_file, tool, result, words, took.count());
                first_recorded = true;
            }
        } catch (const std::exception&) {
        }
        take_first_failure();
        if (first_recorded) print_file(log_path(options.verdict_file));
        if (result != 0) {
            failed = i;
            break;
        }
    }
    const int status = discard_runner();
    if (failed == 0 && !first_recorded) {  // its log or record could not be written: alone, it says why
        run_sanitizer_lab_alone(*group.front());
        return run_sanitizer_group(std::vector<LabPart*>(group.begin() + 1, group.end()));
    }
    if (failed == 0) {
        std::printf("%s: %s failed in a run of its own; the labs after it run again together\n", tool.c_str(),
                    group.front()->options.lab.name);
        return run_sanitizer_group(std::vector<LabPart*>(group.begin() + 1, group.end()));
    }
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
    if (failed == group.size()) {
        if (status == 0) return record_clean_run(group, tool, took.count());
        std::printf("%s: every check passed but the tool reported an error; each half of the labs runs again\n",
                    tool.c_str());
        const auto half = group.begin() + static_cast<std::ptrdiff_t>(group.size() / 2);
        const int first = run_sanitizer_group(std::vector<LabPart*>(group.begin(), half));
        const int second = run_sanitizer_group(std::vector<LabPart*>(half, group.end()));
        return first != 0 ? first : second;
    }
    const std::vector<LabPart*> before(group.begin(), group.begin() + static_cast<std::ptrdiff_t>(failed));
    int written = 0;
    if (status == 0) {
        written = record_clean_run(before, tool, took.count() * static_cast<double>(failed) / (failed + 1.0));
    } else {
        std::printf("%s: %s failed after other labs in one run, and the tool reported an error; the labs before it "
                    "run again together\n", tool.c_str(), group[failed]->options.lab.name);
        written = run_sanitizer_group(before);
    }
    std::printf("%s: %s runs again first in a program of its own\n", tool.c_str(), group[failed]->options.lab.name);
    const int rest = run_sanitizer_group(std::vector<LabPart*>(group.begin() + static_cast<std::ptrdiff_t>(failed),
                                                               group.end()));
    return written != 0 ? written : rest;
}

// Each lab's compute-sanitizer run (--sanitizer) as runs of the tool over several labs, their modules loaded one
// after another by one runner host: one CUDA context and one start of the tool, where each lab's run would have its
// own (run_sanitizer_group says how each lab gets the verdict of its run alone). A lab the GPU cannot run is
// skipped, as alone.
int run_sanitizer_labs(std::vector<LabPart>& parts) {
    using namespace tilelab::grader;
    std::vector<LabPart*> runnable;
    for (LabPart& part : parts) {
        set_checker_options(part.options);
        FoundGpu gpu;
        try {
            part.said = what_is_graded(part.options.lab);
            const OutputToFile quiet(log_path(part.options.verdict_file));
            gpu = gpu_for_lab(part.options.lab.name, part.said);
        } catch (const std::exception& error) {
            if (part.said.empty()) part.said = "error: " + std::string(error.what()) + "\n";
            gpu.usable = true;  // alone, it says what went wrong
        }
        if (!gpu.usable) {  // skipped, with the reason, as alone
            run_recorded_check(static_cast<int>(part.argv.size()) - 1, part.argv.data(), part.options, part.said);
            continue;
        }
        part.said += gpu.said + "\n";
        // No record left from an earlier grading: a lab's only record is the one its run here writes.
        std::remove(record_path(part.options.verdict_file).c_str());
        runnable.push_back(&part);
    }
    return run_sanitizer_group(runnable);
}

// The checks of one lab as a series (--suite): what is graded, the GPU for the lab, then run_series.
int run_lab_series(int argc, char** argv, const tilelab::grader::CheckerOptions& options) {
    std::string said;
    try {
        said = what_is_graded(options.lab);
    } catch (const std::exception& error) {
        said = "error: " + std::string(error.what()) + "\n";
        return end_every_check(options, 2, said, {error.what(), ""});
    }
    tilelab::grader::FoundGpu gpu;
    try {
        gpu = gpu_for_lab(options.lab.name, said);
    } catch (const std::exception& error) {  // the GPU lock could not be held
        return end_every_check(options, 2, said + "error: " + error.what() + "\n", {error.what(), ""});
    }
    const std::string device = gpu.said + "\n";
    if (!gpu.usable) return end_every_check(options, exit_skipped, said + device, {skip_reason(gpu.said), ""});
    std::printf("%s", device.c_str());
    return run_series(argc, argv, options, said + device);
}

// Whether the build check's record at @p path says the lab built (check_record.hpp).
bool lab_built(const std::string& path) {
    try {
        return tilelab::grader::read_record(path).verdict == "passed";
    } catch (const std::exception&) {
        return false;  // no record: the build check did not finish
    }
}

// Several labs' series, one after another, separated by --then on the command line: one checker and, where each
// lab is a module of the runner host (--module), one lab's program and one CUDA context for all of them. A lab
// whose build did not pass (--built-record) is left out: its checks are not run, as when its series is a test of its
// own. A lab's measuring checks hold the GPU alone until its series ends, not the next lab's.
int run_labs_in_series(int argc, char** argv) {
    std::vector<std::vector<char*>> segments(1, std::vector<char*>{argv[0]});
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--then") segments.push_back({argv[0]});
        else segments.back().push_back(argv[i]);
    }
    std::vector<LabPart> parts;
    std::optional<bool> sanitized;  // the first lab's kind of run, which every lab's must be
    for (std::vector<char*>& segment : segments) {
        int count = static_cast<int>(segment.size());
        segment.push_back(nullptr);
        LabPart part;
        try {
            part.options = tilelab::grader::parse_checker_options(count, segment.data());
            const bool this_sanitized = !part.options.sanitizer_tool.empty();
            if (!sanitized) sanitized = this_sanitized;
            if (this_sanitized != *sanitized || part.options.series.empty() == !this_sanitized ||
                (this_sanitized && part.options.verdict_file.empty()))
                throw std::invalid_argument("each lab of --then needs its --suite checks, or its compute-sanitizer "
                                            "run with --verdict-file, as the first lab has");
        } catch (const std::invalid_argument& error) {
            std::printf("error: %s\n", error.what());
            return 2;
        }
        segment.resize(static_cast<std::size_t>(count));
        segment.push_back(nullptr);
        part.argv = segment;
        if (!part.options.built_record.empty() && !lab_built(part.options.built_record)) {
            std::printf("%s: not run, its build check did not pass\n", part.options.lab.name);
            continue;
        }
        parts.push_back(std::move(part));
    }
    if (sanitized.value_or(false)) return run_sanitizer_labs(parts);
    int status = 0;
    for (LabPart& part : parts) {
        tilelab::grader::set_checker_options(part.options);
        const int result = run_lab_series(static_cast<int>(part.argv.size()) - 1, part.argv.data(), part.options);
        tilelab::grader::gpu_lease().release();
        if (result != 0) status = result;
    }
    return status;
}

// Every gate's calibration on this GPU at @p tile_width (the kit's TILELAB_PERF_TILE_WIDTH, where the gates run),
// measured now or kept from before (perf_check.cpp's "calibration" suite): batch.sh --kit runs it before a class,
// while nothing else runs on the machine. 0 when each gate the GPU can run has its calibration; 77 without a GPU;
// 1 when one could not be measured (the others still are).
int calibrate_gates(char* program, const std::string& tile_width) {
    using namespace tilelab::grader;
    FoundGpu found;  // asked once: every lab's is this, less what the lab needs
    try {
        found = gpu_found();
    } catch (const std::exception& error) {
        std::printf("error: %s\n", error.what());
        return 2;
    }
    int status = exit_skipped;
    bool failed = false;
    for (const LabEntry& entry : all_labs()) {
        if (!entry.has_gate()) continue;
        std::string arguments[] = {program, "--lab", entry.id, "--tile-width", tile_width, "--runner", program,
                                   "--test-suite=calibration"};
        std::vector<char*> argv;
        for (std::string& argument : arguments) argv.push_back(argument.data());
        int argc = static_cast<int>(argv.size());
        argv.push_back(nullptr);
        try {
            set_checker_options(parse_checker_options(argc, argv.data()));
        } catch (const std::invalid_argument& error) {
            std::printf("error: %s\n", error.what());
            return 2;
        }
        FoundGpu gpu = found;
        apply_lab_needs(entry.id, gpu);
        if (!gpu.usable) {
            std::printf("%s: %s\n", entry.id, gpu.said.c_str());
            continue;
        }
        doctest::Context context(argc, argv.data());
        context.setOption("no-intro", true);
        context.setOption("no-version", true);
        const int result = tilelab::grader::fail_if_nothing_ran(context.run());
        if (result != 0) failed = true;  // the other labs are still calibrated
        else if (status == exit_skipped) status = 0;
    }
    return failed ? 1 : status;
}

}  // namespace

int main(int argc, char** argv) {
#ifdef TILELAB_CPU_BACKEND
    tilelab::grader::lower_cpu_priority_in_batch();  // no clock judges the CPU backend's checks (sandbox.hpp)
#endif
    // The test of one check of a series: what the series' run of that check printed, and its verdict.
    if (argc == 3 && std::string(argv[1]) == "--show-verdict") return tilelab::grader::show_verdict(argv[2]);
    // The GPU's record for TILELAB_GPU_FOUND without its sign (see gpu_found): exit 0 with "<major>.<minor>|<line>",
    // 77 with the reason there is none.
    if (argc == 2 && std::string(argv[1]) == "--device-query") {
        tilelab::grader::FoundGpu gpu;
        try {
            gpu = gpu_found();
        } catch (const std::exception& error) {  // the GPU lock could not be held
            std::printf("error: %s\n", error.what());
            return 2;
        }
        std::printf("%s\n", tilelab::grader::found_gpu_record(gpu).substr(1).c_str());
        return gpu.usable ? 0 : exit_skipped;
    }
    if (argc == 3 && std::string(argv[1]) == "--calibrate-gates") return calibrate_gates(argv[0], argv[2]);
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--then") return run_labs_in_series(argc, argv);
    tilelab::grader::CheckerOptions options;
    try {
        options = tilelab::grader::parse_checker_options(argc, argv);
    } catch (const std::invalid_argument& error) {
        doctest::Context listing(argc, argv);  // --help, --list-test-cases and the like need no lab
        if (listing.shouldExit()) return listing.run();
        std::printf("error: %s\n", error.what());
        return 2;
    }
    tilelab::grader::set_checker_options(options);
    label_holds(options);
    doctest::Context context(argc, argv);
    if (context.shouldExit()) return context.run();
    if (!options.series.empty()) return run_lab_series(argc, argv, options);

    std::string said;
    try {
        said = what_is_graded(options.lab);
    } catch (const std::exception& error) {
        said = "error: " + std::string(error.what()) + "\n";
        std::printf("%s", said.c_str());
        return write_record(options, options.verdict_file, check_of_run(argc, argv, options), 2, {error.what(), ""}, 0);
    }
    // One check: its output goes to its log, beside its record, and then to CTest.
    if (options.verdict_file.empty()) {
        tilelab::grader::FailureWords words;
        return run_one(context, options, said, words);
    }
    return run_recorded_check(argc, argv, options, said);
}
