/// @file slurm.hpp
/// @brief Grading a class on a Slurm cluster: the job array submitted and waited for, and one task of it.
#pragma once

#include "batch_plan.hpp"
#include "grade_one.hpp"

#include <string>
#include <vector>

namespace tilelab::batch {

/// Submits the class (entries.txt copied to <out>/slurm) as an sbatch array of `options.chunk` entries per task,
/// each task running this program's `slurm-task`; waits for it with progress lines unless --no-wait. Returns 0
/// once the job has ended (or was submitted, with --no-wait: `merge_hint` then says how to merge), 1 where it
/// could not be submitted.
int grade_on_slurm(const Options& options, const Grading& grading, const std::vector<std::string>& entries,
                   const std::string& merge_hint);

/// One array task (SLURM_ARRAY_TASK_ID): grades its chunk of <out>/slurm/entries.txt, several at once on the
/// task's CPUs and on the GPU Slurm gave it, if any. On Slurm's warning before the time limit (SIGUSR1), each of
/// its entries not finished gets a note that says so, and the task exits 1.
int slurm_task_main(const Grading& grading, int chunk);

}  // namespace tilelab::batch
