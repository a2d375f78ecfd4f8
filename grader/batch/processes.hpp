/// @file processes.hpp
/// @brief The batch grader's processes on POSIX: the signals that stop a batch, starting a program (in a process
/// group of its own where it must be stopped as a whole), waiting for it under a time limit, reading its output.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace tilelab::batch {

/// Catches SIGTERM and SIGINT (and SIGUSR1, Slurm's warning before a task's time limit, where `usr1`): each
/// only notes the signal, and interrupts a wait, so that the batch stops its gradings before it exits.
void catch_stop_signals(bool usr1);

/// The stop signal caught since the last clear_stop_signal(), or 0.
int stop_signal();

/// Forgets a caught stop signal (a worker process starts with none of its parent's).
void clear_stop_signal();

/// A program to start.
struct Command {
    std::vector<std::string> argv;  ///< the program (looked up in PATH) and its arguments
    std::filesystem::path cwd;      ///< where it runs; empty: here
    std::filesystem::path output;   ///< where its stdout and stderr go; empty: ours
    bool own_group = false;         ///< in a process group of its own, so that a stop reaches all it started
};

/// Starts `command`; its pid, or -1 where fork failed. A program that cannot start exits 127.
pid_t start(const Command& command);

/// How a program ended.
struct Ending {
    int status = 0;          ///< its exit status, 128 + the signal that killed it
    bool timed_out = false;  ///< it ran past its time limit and was stopped
};

/// Waits for `pid`. With a limit (seconds, > 0), stops its process group at the limit with SIGTERM, and with
/// SIGKILL 30 s later (as `timeout --kill-after=30`). On a stop signal, stops it the same way and exits this
/// process with 128 + that signal once it has ended.
Ending wait_for(pid_t pid, long limit_seconds, bool own_group);

/// Runs `argv` and returns its stdout (stderr stays ours); "" where it failed to start or exited non-zero.
std::string output_of(const std::vector<std::string>& argv);

/// Whether `program` is found in PATH (as `command -v`).
bool in_path(const std::string& program);

/// This machine's usable cores (as nproc: those this process may run on).
int usable_cores();

/// This machine's host name (as hostname), or its first part only where `short_name` (as hostname -s).
std::string host_name(bool short_name);

/// Seconds since the epoch.
long now_seconds();

}  // namespace tilelab::batch
