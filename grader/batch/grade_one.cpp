// One submission of a batch graded against the batch's kit (grade_one.hpp).
#include "grade_one.hpp"

#include "batch_plan.hpp"
#include "class_report.hpp"
#include "processes.hpp"
#include "registry.hpp"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

namespace fs = std::filesystem;

namespace tilelab::batch {

namespace {

/// An environment variable as a number, or `fallback`.
long environment_number(const char* name, long fallback) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') return fallback;
    char* end = nullptr;
    const long number = std::strtol(value, &end, 10);
    return *end == '\0' ? number : fallback;
}

/// A file's whole text ("" where it cannot be read).
std::string file_text(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The folder of the entry's lab folders: the entry itself, or its archive unpacked into work/<name>; nothing
/// where the archive cannot be unpacked (unpack.txt says why).
std::optional<fs::path> submission_folder(const Grading& grading, const std::string& entry, const std::string& name,
                                          const fs::path& report) {
    std::error_code error;
    if (fs::is_directory(entry, error)) return lab_root(entry);  // as [ -d ]: the class folder is the grader's
    const fs::path work = grading.out / "work" / name;
    fs::remove_all(work, error);
    fs::create_directories(work, error);
    const pid_t unpack = start(Command{{"cmake", "-E", "tar", "xf", entry}, work, report / "unpack.txt", false});
    if (unpack < 0 || wait_for(unpack, 0, false).status != 0) return std::nullopt;
    return lab_root(work);
}

/// The submission's points as the batch's report reads them ("44/50 points", "no points: why").
std::string points(const Grading& grading, const std::string& name) {
    try {
        const auto labs = report::load_registry((grading.root / "grader" / "labs.json").string()).lab_ids;
        // This student's report alone: the progress line of each submission must not read the whole class's.
        if (const auto row = report::read_student(grading.out / "reports" / name, labs, nullptr))
            return report::points_text(*row);
    } catch (const std::exception& error) {
        return std::string("no points: the registry cannot be read: ") + error.what();
    }
    return "no points: no report";
}

}  // namespace

Grading grading_from_environment(const fs::path& root, const fs::path& out) {
    Grading grading;
    grading.root = root;
    grading.out = out;
    grading.limit = environment_number("TILELAB_LIMIT", 1800);
    grading.jobs = static_cast<int>(environment_number("TILELAB_JOBS", 2));
    grading.batch_start = environment_number("TILELAB_BATCH_START", 0);
    grading.batch_total = static_cast<int>(environment_number("TILELAB_BATCH_TOTAL", 0));
    return grading;
}

int finished_count(const fs::path& out) {
    int count = 0;
    // This batch's entries (entries.txt) only: a report folder of anyone else is not this class's progress.
    std::ifstream entries(out / "entries.txt");
    for (std::string entry; std::getline(entries, entry);) {
        const fs::path student = out / "reports" / report::student_name(entry);
        std::error_code ignored;
        count += fs::exists(student / "summary.json", ignored) || fs::exists(student / "not-graded.json", ignored);
    }
    return count;
}

void write_not_graded(const fs::path& report, std::optional<long> seconds, const std::string& note) {
    std::error_code error;
    fs::remove(report / "summary.json", error);
    std::ofstream(report / "not-graded.json") << not_graded_json(seconds, note);
}

void grade_entry(const Grading& grading, const std::string& entry) {
    const std::string name = report::student_name(entry);
    const fs::path report = grading.out / "reports" / name;
    const fs::path build = grading.out / "builds" / name;
    std::error_code error;
    fs::create_directories(report, error);
    fs::remove(report / "summary.json", error);
    fs::remove(report / "not-graded.json", error);
    const long start_time = now_seconds();
    const auto seconds = [&] { return now_seconds() - start_time; };

    if (const std::optional<fs::path> dir = submission_folder(grading, entry, name, report)) {
        // The kit's own program, as grade.cmake would call it against a built kit (grader/grade/main.cpp): the
        // assignment is TILELAB_LABS (all labs where unset), and report.txt keeps every check's messages for the staff.
        const char* labs = std::getenv("TILELAB_LABS");
        const fs::path kit = grading.out / "kit";
        const pid_t grade = start(Command{{(kit / "grader" / "tilelab-grade").string(), "--root", grading.root.string(),
                                           "--build", build.string(), "--kit", kit.string(), "--against-kit",
                                           "--jobs", std::to_string(grading.jobs), "--results",
                                           (report / "results.json").string(), "--summary",
                                           (report / "summary.json").string(), "--submission", dir->string(),
                                           "--labs", labs ? labs : "", "--verbose"},
                                          {}, report / "report.txt", true});
        const Ending ending = grade < 0 ? Ending{1, false} : wait_for(grade, grading.limit, true);
        if (ending.timed_out || ending.status == 137) {
            write_not_graded(report, seconds(), "ran out of its " + std::to_string(grading.limit) + " s");
        } else if (!fs::exists(report / "summary.json", error)) {
            // tilelab-grade's own reason (no-grade.txt), not a line picked out of its output.
            std::string reason = file_text(build / "no-grade.txt");
            while (!reason.empty() && (reason.back() == '\n' || reason.back() == '\r')) reason.pop_back();
            write_not_graded(report, seconds(),
                             "grading stopped before any points: " +
                                 (reason.empty() ? "tilelab-grade ended with status " + std::to_string(ending.status) +
                                                       " (see report.txt)"
                                                 : reason));
        }
    } else {
        write_not_graded(report, seconds(), "could not unpack the archive");
    }

    const std::string line =
        "graded " + name + ": " + points(grading, name) + " in " + std::to_string(seconds()) + " s";
    const int total = grading.batch_start > 0 ? grading.batch_total : 0;
    std::cerr << progress_line(finished_count(grading.out), total, now_seconds() - grading.batch_start, line) + "\n";
}

}  // namespace tilelab::batch
