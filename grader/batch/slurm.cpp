// Grading a class on a Slurm cluster (slurm.hpp).
#include "slurm.hpp"

#include "class_report.hpp"
#include "pool.hpp"
#include "processes.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace fs = std::filesystem;

namespace tilelab::batch {

namespace {

/// The states of the job's tasks as `squeue -o %t | sort | uniq -c` counts them: " 2 PD 1 R ".
std::string task_states(const std::string& job) {
    std::map<std::string, int> counts;
    std::istringstream lines(output_of({"squeue", "-h", "-j", job, "-o", "%t"}));
    for (std::string state; lines >> state;) ++counts[state];
    std::string text = " ";
    for (const auto& [state, count] : counts) text += std::to_string(count) + " " + state + " ";
    return text;
}

/// Whether the job still has tasks in the queue.
bool job_queued(const std::string& job) {
    return output_of({"squeue", "-h", "-j", job}).find_first_not_of(" \n") != std::string::npos;
}

/// The lines of a text file.
std::vector<std::string> file_lines(const fs::path& file) {
    std::ifstream in(file);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

/// This program's own path (the kit's tilelab-batch), for the tasks to run.
std::string own_path() {
    std::error_code error;
    return fs::read_symlink("/proc/self/exe", error).string();
}

}  // namespace

int grade_on_slurm(const Options& options, const Grading& grading, const std::vector<std::string>& entries,
                   const std::string& merge_hint) {
    if (!in_path("sbatch")) {
        std::cerr << "--slurm: sbatch not found (is this a Slurm login node?)\n";
        return 1;
    }
    const fs::path slurm = grading.out / "slurm";
    std::error_code error;
    fs::create_directories(slurm, error);
    fs::copy_file(grading.out / "entries.txt", slurm / "entries.txt", fs::copy_options::overwrite_existing, error);
    std::ofstream(slurm / "chunk") << options.chunk << "\n";
    const std::size_t tasks = task_count(entries.size(), static_cast<std::size_t>(options.chunk));
    const long minutes = options.task_minutes > 0 ? options.task_minutes
                                                  : default_task_minutes(options.chunk, options.limit);
    std::string gres = options.gres;
    if (gres == "auto") {
        gres = output_of({"sinfo", "-h", "-o", "%G"}).find("gpu") != std::string::npos ? "gpu:1" : "none";
    }
    std::vector<std::string> sbatch = {"sbatch", "--parsable", "--job-name=tilelab-grade",
                                       "--array=0-" + std::to_string(tasks - 1),
                                       "--cpus-per-task=" + std::to_string(options.cpus),
                                       "--time=" + std::to_string(minutes), "--signal=B:USR1@90"};
    if (gres != "none") sbatch.push_back("--gres=" + gres);
    sbatch.push_back("--output=" + (slurm / "task-%a.out").string());
    sbatch.push_back("--export=ALL");
    for (const std::string& word : split_words(options.sbatch_extra)) sbatch.push_back(word);
    // The task is this program (on the file system the nodes share, in the kit), exec'd so that it gets Slurm's
    // warning signal itself.
    sbatch.push_back("--wrap=exec " + shell_quote(own_path()) + " slurm-task " + shell_quote(grading.out.string()) +
                     " " + std::to_string(options.chunk));
    std::string job = output_of(sbatch);
    job = job.substr(0, job.find_first_of(";\n"));
    if (job.empty()) {
        std::cerr << "sbatch refused the job (see above)\n";
        return 1;
    }
    std::ofstream(slurm / "job-id") << job << "\n";
    std::cerr << "submitted Slurm job " << job << ": " << tasks << " tasks of up to " << options.chunk
              << " submissions, " << options.cpus << " CPUs, " << gres << ", " << minutes << " min each\n";
    if (!options.wait) {
        std::cerr << "when it has ended: " << merge_hint << "\n";
        return 0;
    }
    // The job's lines count from the batch's start, the kit's build (batch.sh wrote its seconds) included.
    long kit_seconds = 0;
    std::ifstream(grading.out / "kit-seconds.txt") >> kit_seconds;
    int reported = -1;
    while (job_queued(job)) {
        const int finished = finished_count(grading.out);
        if (finished != reported) {
            std::cerr << "[" << finished << "/" << entries.size() << ", "
                      << minutes_seconds(now_seconds() - grading.batch_start + kit_seconds) << " elapsed] Slurm job "
                      << job << ": " << task_states(job) << "\n";
            reported = finished;
        }
        ::sleep(5);
    }
    return 0;
}

int slurm_task_main(const Grading& grading, int chunk) {
    const char* index_text = std::getenv("SLURM_ARRAY_TASK_ID");
    if (index_text == nullptr || *index_text == '\0') {
        std::cerr << "SLURM_ARRAY_TASK_ID: run by sbatch --array\n";
        return 2;
    }
    const std::string index = index_text;
    const std::vector<std::string> entries = task_entries(file_lines(grading.out / "slurm" / "entries.txt"),
                                                          std::stoul(index), static_cast<std::size_t>(chunk));
    const char* devices = std::getenv("CUDA_VISIBLE_DEVICES");
    std::cout << "Slurm task " << index << " on " << host_name(false) << ": " << entries.size()
              << " submissions, CUDA_VISIBLE_DEVICES=" << (devices && *devices ? devices : "none") << std::endl;
    // The GPU Slurm gave this task (--gres) is this task's alone: one lock for its own submissions' checks. A node
    // whose GPUs Slurm does not hand out is shared with whatever else runs there: the lock is then the node's.
    if (devices != nullptr && *devices != '\0') {
        ::setenv("TILELAB_GPU_LOCK", (grading.out / "locks" / ("slurm-task-" + index)).c_str(), 1);
    } else if (!output_of({"nvidia-smi", "-L"}).empty()) {
        ::setenv("TILELAB_GPU_LOCK", (grading.out / "locks" / ("node-" + host_name(true))).c_str(), 1);
    }
    const char* cpus_text = std::getenv("SLURM_CPUS_PER_TASK");
    const int cpus = cpus_text && *cpus_text ? std::atoi(cpus_text) : usable_cores();
    const auto out_of_time = [&] {
        for (const std::string& entry : entries) {
            const fs::path report = grading.out / "reports" / report::student_name(entry);
            std::error_code error;
            if (fs::exists(report / "summary.json", error) || fs::exists(report / "not-graded.json", error)) continue;
            fs::create_directories(report, error);
            write_not_graded(report, std::nullopt, "Slurm task " + index +
                             " ran out of its time limit before grading it (sbatch --time; batch.sh --task-minutes)");
        }
    };
    catch_stop_signals(true);
    grade_all(grading, entries, std::max(cpus / 2, 1), {}, out_of_time, 1);
    std::cout << "Slurm task " << index << " done" << std::endl;
    return 0;
}

}  // namespace tilelab::batch
