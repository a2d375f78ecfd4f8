/// @file pool.hpp
/// @brief Grading a list of entries several at once: one worker process per entry, at most `parallel` at a time,
/// each in a numbered slot (as xargs -P's slots) that pins it to one GPU.
#pragma once

#include "grade_one.hpp"

#include <functional>
#include <string>
#include <vector>

namespace tilelab::batch {


/// Grades `entries` with grade_entry, `parallel` at a time. On a stop signal, runs `on_stop` (a Slurm task writes
/// its unfinished entries' notes), stops the workers (each stops its grading) and exits with `stop_status`
/// (0: 128 + the signal).
void grade_all(const Grading& grading, const std::vector<std::string>& entries, int parallel,
               const std::vector<std::string>& lanes,
               const std::function<void()>& on_stop, int stop_status);

}  // namespace tilelab::batch
