// tilelab-batch: grades a class against a kit built once (grader/batch.sh builds the kit, then execs this
// program from it). `tilelab-batch slurm-task OUT CHUNK` is one task of a Slurm job array (slurm.hpp);
// `tilelab-batch --kit OUT` calibrates the kit's gates and stops (batch.sh --kit).
#include "batch_plan.hpp"
#include "class_report.hpp"
#include "grade_one.hpp"
#include "pool.hpp"
#include "processes.hpp"
#include "roster.hpp"
#include "slurm.hpp"

#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <deque>
#include <fstream>
#include <iostream>
#include <sstream>

namespace fs = std::filesystem;
using namespace tilelab::batch;

namespace {

/// The kit's sources, where the kit was configured (grade.cmake, labs.json, batch.sh's usage text).
const fs::path root = TILELAB_SOURCE_DIR;

/// batch.sh's usage text (its header comment, lines 2-27) on stderr; exits 2.
[[noreturn]] void usage() {
    std::ifstream script(root / "grader" / "batch.sh");
    std::string line;
    for (int number = 1; std::getline(script, line) && number <= 27; ++number) {
        if (number == 1) continue;
        line.erase(0, line.rfind("# ", 0) == 0 ? 2 : line.rfind("#", 0) == 0 ? 1 : 0);
        std::cerr << line << "\n";
    }
    std::exit(2);
}

/// grades.csv, timings.csv and class.html, from each submission's summary.json (a row for each entry without one).
int merge(const fs::path& out) {
    std::string args[] = {"--out", out.string(), "--registry", (root / "grader" / "labs.json").string()};
    char* argv[] = {args[0].data(), args[1].data(), args[2].data(), args[3].data()};
    return tilelab::report::class_main(4, argv);
}

/// The batch folder made, with the folders the gradings write into; the lock files are the grader's alone.
fs::path prepare_out(const fs::path& out) {
    std::error_code error;
    for (const char* dir : {"reports", "work", "builds", "locks"}) fs::create_directories(out / dir, error);
    const fs::path absolute = fs::absolute(out).lexically_normal();
    // A lab's program (another user, as root) can neither hold nor change the locks.
    ::chmod((absolute / "locks").c_str(), 0700);
    return absolute.filename().empty() ? absolute.parent_path() : absolute;
}

/// Why this class may not be graded into `out` (batch_plan.hpp: other_class_reason), "" when it may.
std::string refusal(const fs::path& out, const fs::path& submissions, const std::vector<std::string>& entries) {
    std::string recorded;
    std::ifstream record(out / "class.json");
    if (record) {
        try {
            recorded = nlohmann::json::parse(record).value("submissions", std::string("(unreadable)"));
        } catch (const std::exception&) {
            recorded = "(an unreadable class.json)";
        }
    }
    std::vector<std::string> reported, students;
    std::error_code error;
    for (const fs::directory_entry& item : fs::directory_iterator(out / "reports", error))
        if (item.is_directory(error)) reported.push_back(item.path().filename().string());
    for (const std::string& entry : entries) students.push_back(tilelab::report::student_name(entry));
    return other_class_reason(recorded, submissions, reported, students, out);
}

/// class.json: the class this folder grades (its submissions folder, so that another class is refused) and who
/// each submission is, from Gradescope's export (submission_metadata.yml beside the submission folders).
void write_class_record(const fs::path& out, const fs::path& submissions) {
    nlohmann::json record = {{"class", 1}, {"submissions", submissions.string()}};
    std::ifstream metadata(submissions / "submission_metadata.yml", std::ios::binary);
    if (metadata) {
        std::ostringstream text;
        text << metadata.rdbuf();
        record["roster"] = tilelab::report::roster_json(tilelab::report::read_gradescope_metadata(text.str()));
    }
    std::ofstream(out / "class.json") << record.dump(1) << "\n";
}

/// The class's entries listed into entries.txt, and the records of an earlier grading of them removed.
std::vector<std::string> start_batch(const fs::path& out, const fs::path& submissions) {
    std::error_code error;
    fs::remove_all(out / "slurm", error);
    for (const fs::directory_entry& item : fs::directory_iterator(out, error)) {
        const std::string name = item.path().filename().string();
        if (name.rfind("gpu", 0) == 0 && name.size() > 10 && name.compare(name.size() - 10, 10, "-holds.csv") == 0) {
            fs::remove(item.path(), error);
        }
    }
    const std::vector<std::string> entries = list_entries(submissions);
    std::ofstream list(out / "entries.txt");
    for (const std::string& entry : entries) {
        list << entry << "\n";
        const fs::path report = out / "reports" / tilelab::report::student_name(entry);
        fs::remove(report / "summary.json", error);
        fs::remove(report / "not-graded.json", error);
    }
    return entries;
}

/// Each gate's calibration on this machine's GPU (tilelab-checker-gpu --calibrate-gates), measured now, while
/// nothing else runs, or kept from an earlier batch with this kit: measured at a batch's first gates, on a busy
/// machine, one once set a requirement too low for the rest of that batch. A kit without the GPU backend has
/// nothing to calibrate; the checker exits 77 where it finds no GPU.
void calibrate_gates(const fs::path& out) {
    const fs::path checker = out / "kit" / "grader" / "tilelab-checker-gpu";
    if (::access(checker.c_str(), X_OK) != 0) return;
    const fs::path log = out / "calibration.log";
    const long started = now_seconds();
    const pid_t pid = start(Command{{checker.string(), "--calibrate-gates", std::to_string(TILELAB_PERF_TILE_WIDTH)},
                                    {}, log, false});
    const int status = pid < 0 ? 127 : wait_for(pid, 0, false).status;
    if (status == 0) {
        std::cerr << "gates calibrated on this GPU in " << now_seconds() - started << " s (log: " << log.string()
                  << ")\n";
        std::ofstream(out / "calibration-seconds.txt") << now_seconds() - started << "\n";
    } else if (status != 77) {
        std::ifstream text(log);
        std::deque<std::string> last;
        for (std::string line; std::getline(text, line);) {
            last.push_back(line);
            if (last.size() > 5) last.pop_front();
        }
        for (const std::string& line : last) std::cerr << line << "\n";
        std::cerr << "the gates' calibration failed (log: " << log.string()
                  << "): each gate calibrates when it first runs\n";
    }
}

/// Sets `name` to `value` where it is unset or empty (the instructor's own setting wins).
void default_environment(const char* name, const std::string& value) {
    const char* set = std::getenv(name);
    if (set == nullptr || *set == '\0') ::setenv(name, value.c_str(), 1);
}

/// A folder of the grader's alone, made afresh, with exactly `mode` (as mkdir -m, whatever the umask).
fs::path fresh_folder(const fs::path& folder, mode_t mode) {
    std::error_code error;
    fs::remove_all(folder, error);
    ::mkdir(folder.c_str(), mode);
    ::chmod(folder.c_str(), mode);
    return folder;
}

/// What every grading of the class shares, in the environment of the gradings (and of a Slurm job's tasks).
void share_class_settings(const fs::path& out) {
    // The CPU backend's labs run their blocks on two threads each (TILELAB_CPU_WORKERS; graded alone, on every
    // hardware thread). A class grades many at once: with a thread per core in each lab's program, the GPU checks'
    // programs, which answer one request at a time and whose gates time those answers, waited for a core. The
    // checks are the same.
    default_environment("TILELAB_CPU_WORKERS", "2");
    // What no clock judges (the CPU backend's checks, the compiles) runs at a lower CPU priority, so that the
    // programs whose answers the performance gate times, and the GPU checks waiting on them, get a core as soon as
    // they wake.
    default_environment("TILELAB_CPU_NICE", "10");
    // The class's compile cache (grader/tools/lib/compile_cache.hpp), new with each kit: a lab file that compiles as
    // an earlier one did (a stub left as given, a copy, the same code with other comments) takes that one's object.
    // Used only when grading as root; its folder is the grader's alone (0755).
    ::setenv("TILELAB_COMPILE_CACHE", fresh_folder(out / "compile-cache", 0755).c_str(), 1);
    // One seed for the class, drawn now where TILELAB_SEED is not set: every submission is graded on the same
    // operands. Like the seed a grading alone draws, nobody knows it in advance (the labs' programs never see it:
    // sandbox.hpp), and each batch draws its own (56 random bits); the reports print it once graded.
    std::uint64_t seed = 0;
    std::ifstream("/dev/urandom", std::ios::binary).read(reinterpret_cast<char*>(&seed), 7);
    default_environment("TILELAB_SEED", std::to_string(seed));
    // The class's store of large float64 references (grader/src/reference_store.hpp): with one seed, every
    // submission is asked the same large shapes with the same operands, so each product (about a second of a
    // checker's CPU at 1024^3) is computed once for the class. Used only when grading as root; its folder is the
    // grader's alone (0700): a lab's program may neither read the products it is asked for nor plant one.
    ::setenv("TILELAB_REFERENCE_STORE", fresh_folder(out / "reference-store", 0700).c_str(), 1);
}

/// How many GPUs `nvidia-smi -L` lists (0 without nvidia-smi).
int gpu_count() {
    std::istringstream lines(output_of({"nvidia-smi", "-L"}));
    int count = 0;
    for (std::string line; std::getline(lines, line);) count += line.rfind("GPU ", 0) == 0;
    return count;
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() == 3 && args[0] == "slurm-task") {
        const fs::path out = args[1];
        return slurm_task_main(grading_from_environment(root, out), std::max(std::atoi(args[2].c_str()), 1));
    }
    if (args.size() == 2 && args[0] == "--kit") {
        calibrate_gates(fs::absolute(args[1]));
        return 0;
    }
    const std::optional<Options> options = parse_options(args, usable_cores(), root / "build" / "batch");
    if (!options) usage();
    if (options->merge_only) return merge(prepare_out(options->out));
    std::error_code error;
    fs::path submissions = fs::absolute(options->submissions).lexically_normal();
    if (submissions.filename().empty()) submissions = submissions.parent_path();  // "class/": one name for one class
    if (!fs::is_directory(submissions, error)) usage();
    const fs::path out = prepare_out(options->out);

    if (list_entries(submissions).empty()) {
        std::cerr << "no submissions in " << submissions.string() << " (folders or archives)\n";
        return 1;
    }
    if (const std::string reason = refusal(out, submissions, list_entries(submissions)); !reason.empty()) {
        std::cerr << "not grading: " << reason << "\n";
        return 1;
    }
    calibrate_gates(out);
    share_class_settings(out);
    write_class_record(out, submissions);
    const std::vector<std::string> entries = start_batch(out, submissions);
    // What the gradings share, in the environment too: a Slurm task reads it there. The progress line's estimate
    // counts from here, once the kit is built.
    ::setenv("TILELAB_LIMIT", std::to_string(options->limit).c_str(), 1);
    ::setenv("TILELAB_BATCH_TOTAL", std::to_string(entries.size()).c_str(), 1);
    ::setenv("TILELAB_BATCH_START", std::to_string(now_seconds()).c_str(), 1);
    const Grading grading = grading_from_environment(root, out);
    catch_stop_signals(false);
    if (options->slurm) {
        const std::string merge_hint = std::string(argv[0]) + " --merge " + out.string();
        const int status = grade_on_slurm(*options, grading, entries, merge_hint);
        if (status != 0 || !options->wait) return status;
    } else {
        const std::vector<std::string> lanes = gpu_lanes(std::getenv("CUDA_VISIBLE_DEVICES"), gpu_count());
        std::string named;
        for (const std::string& gpu : lanes) named += (named.empty() ? " (" : ", ") + gpu;
        std::cerr << "grading " << entries.size() << " submissions, " << options->jobs << " at a time, up to "
                  << options->limit << " s each, on " << usable_cores() << " cores and " << lanes.size() << " GPUs"
                  << (named.empty() ? "" : named + ")") << "\n";
        // Each parallel slot keeps to one GPU: slot k uses lanes[k mod G], and the lock of that GPU.
        grade_all(grading, entries, options->jobs, lanes, nullptr, 0);
    }
    return merge(out);
}
