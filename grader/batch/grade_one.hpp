/// @file grade_one.hpp
/// @brief One submission of a batch graded against the batch's kit (grade.cmake under a time limit), its record
/// left for grades.csv, and the batch's progress line printed.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace tilelab::batch {

/// What every grading of a batch shares. The environment carries it to a Slurm task (sbatch --export=ALL).
struct Grading {
    std::filesystem::path root;  ///< the kit's sources (grader/grade.cmake, grader/labs.json)
    std::filesystem::path out;   ///< the batch folder: kit/ built; reports/, builds/, work/ written
    long limit = 1800;           ///< TILELAB_LIMIT: seconds a submission may take in all
    int jobs = 2;                ///< TILELAB_JOBS: checks of one submission run at once
    long batch_start = 0;        ///< TILELAB_BATCH_START: when grading began (0: unknown), for the estimate
    int batch_total = 0;         ///< TILELAB_BATCH_TOTAL: the class's size (0: unknown)
};

/// The Grading of batch folder `out` from the environment (defaults where a variable is unset).
Grading grading_from_environment(const std::filesystem::path& root, const std::filesystem::path& out);

/// How many submissions of the batch (the entries of `out`/entries.txt) have finished: a summary.json or a
/// not-graded.json each.
int finished_count(const std::filesystem::path& out);

/// Writes `report`/not-graded.json (and removes summary.json): a grading that gave no points, and why.
void write_not_graded(const std::filesystem::path& report, std::optional<long> seconds, const std::string& note);

/// Grades `entry` (a folder laid out like labs/, or an archive of one): reports/<name>/{report.txt,results.json,
/// summary.json}, or not-graded.json with the reason; then prints the progress line. Whatever goes wrong is that
/// submission's note; a stop signal stops its grading and exits this process.
void grade_entry(const Grading& grading, const std::string& entry);

}  // namespace tilelab::batch
