/// @file batch_plan.hpp
/// @brief The pure parts of the batch grader (tilelab-batch): its options, the class's entries, where an entry's
/// lab folders sit, the progress line, the Slurm tasks' share of the entries, the record of a grading that gave no
/// points. Nothing here starts a process, so grader/unit tests all of it.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tilelab::batch {

/// What `grader/batch.sh SUBMISSIONS [OUT] [options] [-- kit cmake settings]` asks for (its usage text says each).
struct Options {
    bool merge_only = false;                ///< `--merge OUT`: only write grades.csv and class.html again
    std::filesystem::path submissions;      ///< the folder of entries, one per student
    std::filesystem::path out;              ///< the batch folder (default build/batch under the kit's sources)
    int jobs = 1;                           ///< -j: submissions graded at once on this machine
    long limit = 1800;                      ///< -t: seconds one submission may take in all
    bool slurm = false;                     ///< --slurm: grade as a Slurm job array
    int chunk = 8;                          ///< --chunk: submissions per array task
    long task_minutes = 0;                  ///< --task-minutes: a task's time limit; 0: enough for its chunk
    int cpus = 8;                           ///< --cpus: CPUs per task
    std::string gres = "auto";              ///< --gres: "auto" (gpu:1 where the cluster has GPUs), "none", or G
    std::string sbatch_extra;               ///< --sbatch: more sbatch options, split into words
    bool wait = true;                       ///< false with --no-wait: return once the job is submitted
    std::vector<std::string> kit_settings;  ///< after `--`: the kit's cmake settings (batch.sh built the kit)
};

/// The options of a command line (the arguments after the program's name), or nothing where it is not one the
/// usage text allows. `cores` gives -j's default (half of them); `default_out` is OUT's.
std::optional<Options> parse_options(const std::vector<std::string>& args, int cores,
                                     const std::filesystem::path& default_out);

/// Whether a name in SUBMISSIONS is an archive the batch grades (.zip, .tar, .tar.gz, .tgz).
bool is_archive_name(const std::string& name);

/// The entries of SUBMISSIONS, in byte order of their names: its folders (not links to folders) and archives.
std::vector<std::string> list_entries(const std::filesystem::path& submissions);

/// The folder that holds the lab folders (named 0[1-9]_*) of a submission unpacked anywhere up to three levels
/// below `dir`: the parent of the first such folder in byte order of paths, or `dir` itself where there is none.
/// Links are not followed (a submission is hostile input).
std::filesystem::path lab_root(const std::filesystem::path& dir);

/// Seconds as "XmYYs", the progress lines' times.
std::string minutes_seconds(long seconds);

/// The progress line after a grading: "[done/total, XmYYs elapsed, about XmYYs left] <line>", the estimate
/// scaling the time so far by the entries left; just `line` where the batch's total is unknown (total <= 0).
std::string progress_line(int done, int total, long elapsed_seconds, const std::string& line);

/// How many Slurm array tasks grade `total` entries, `chunk` per task.
std::size_t task_count(std::size_t total, std::size_t chunk);

/// The entries of Slurm task `index`: lines chunk*index+1 ... chunk*(index+1) of entries.txt, those there are.
std::vector<std::string> task_entries(const std::vector<std::string>& entries, std::size_t index, std::size_t chunk);

/// The minutes a Slurm task gets by default: its chunk graded one after another at the limit, and ten more.
long default_task_minutes(int chunk, long limit);

/// The record of a grading that gave no points (not-graded.json, read by tilelab-report class in place of
/// summary.json). The note may quote a submission's text: only printable ASCII is kept.
std::string not_graded_json(std::optional<long> seconds, const std::string& note);


/// `text` quoted for sh: in single quotes, each single quote written '\''.
std::string shell_quote(const std::string& text);

/// The GPUs a batch's slots take turns on, as CUDA names them to a process: the entries of CUDA_VISIBLE_DEVICES
/// where it is set and not empty (an instructor keeping the batch to some GPUs: "2,3"), else "0" to "<listed> - 1"
/// (the GPUs nvidia-smi lists, which ignores CUDA_VISIBLE_DEVICES); none: no GPU.
std::vector<std::string> gpu_lanes(const char* visible_devices, int listed);

/// The environment of a worker in slot `slot` with the GPUs `lanes` (gpu_lanes; none: nothing set): GPU
/// lanes[slot % lanes] (CUDA_VISIBLE_DEVICES), that GPU's lock (TILELAB_GPU_LOCK=<out>/locks/gpu<k>) and holds log
/// (TILELAB_GPU_HOLDS_LOG=<out>/gpu<k>-holds.csv), so that a slot's gradings measure on one GPU and take turns
/// there with the other slots on it.
void pin_to_gpu(const std::filesystem::path& out, int slot, const std::vector<std::string>& lanes);

/// Why a class graded from `submissions` (its students `students`) may not be graded into the batch folder `out`,
/// "" when it may: `out`'s class.json names another submissions folder (`recorded`, "" where there is no
/// class.json), or, without one, `out`'s reports/ holds a student who is not in this class (`reported`). A second
/// class in one folder would mix two classes' rows, seeds and progress.
std::string other_class_reason(const std::string& recorded, const std::filesystem::path& submissions,
                               const std::vector<std::string>& reported, const std::vector<std::string>& students,
                               const std::filesystem::path& out);

/// `text` split into words at spaces, tabs and newlines (as the shell splits an unquoted variable).
std::vector<std::string> split_words(const std::string& text);

}  // namespace tilelab::batch
