/// @file sandbox.hpp
/// @brief Where and as whom a lab's runner runs: its own scratch folder and, when the checker is root, a user id
/// of its own, so that it can write nothing of the kit's and everything it starts can be ended.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace tilelab::grader {

/// The confinement of one runner.
struct Sandbox {
    bool confined = false;    ///< The runner runs under its own user id (the checker is root).
    bool own_uid = false;     ///< That user id is the runner's alone, so every process of it can be ended.
    uid_t uid = 0;            ///< The runner's user id.
    gid_t gid = 0;            ///< The runner's group id.
    std::string folder;       ///< The checker's folder for this runner (the runner's output lands here).
    std::string scratch;      ///< The one folder the runner may write (its HOME and TMPDIR).
    std::string description;  ///< One line for the log: how the runner is confined, or why it is not.
};

/// Makes the folders and chooses the user id: TILELAB_RUNNER_UID where set, else one derived from the
/// checker's process id, else "nobody"; none when the checker is not root (the description says so). With
/// @p confine false (a program of the kit's own, such as the gate's reference program), only the folders: it runs
/// as the checker's user, out of reach of the lab's program, whose user id may not signal or trace it.
Sandbox prepare_sandbox(bool confine = true);

/// True when this process is root and a lab's program it starts (prepare_sandbox) runs as another user: then a
/// folder of this process's user alone (mode 0700) is out of every lab's program's reach.
bool labs_run_as_other_users();

/// In a freshly forked child: becomes the sandbox's user (when it is confined) with no way back or up, keeps only
/// an allowlisted environment (paths, locale, CUDA's and the GPU's variables, TILELAB_CPU_WORKERS), and
/// limits what it may use (processes, core files, file size). False when the user could not be taken.
bool become_sandbox_user(const Sandbox& sandbox);

/// In a freshly forked child: becomes the sandbox's user with no way back or up, limits, enters the scratch
/// folder, puts @p request_fd, @p reply_fd and @p output_fd at 3, 4 and 1 (and 2), and runs @p argv.
/// Never returns; if anything fails it says why on the output and exits with 127.
[[noreturn]] void exec_in_sandbox(const Sandbox& sandbox, const std::vector<std::string>& argv, int request_fd,
                                  int reply_fd, int output_fd);

/// Ends the runner's process group and, with a user id of its own, every process of that user (a child that
/// left the group included), and returns once they have ended (their exits done, a GPU context torn down), or
/// after a minute: a hold on the GPU kept until then covers what the killed processes still ran on it.
void end_sandboxed_processes(const Sandbox& sandbox, pid_t group);

/// True while a process of the runner's group, or with a user id of its own of that user, has not ended (zombies,
/// whose exits are done, do not count).
bool sandboxed_processes_left(const Sandbox& sandbox, pid_t group);

/// The CPU time process @p pid has used, its threads' (those ended too) summed, from /proc/<pid>/stat; negative
/// when it cannot be read (no such process, or no /proc).
std::chrono::milliseconds process_cpu_time(pid_t pid);

/// True when the environment entry @p entry ("NAME=value") may reach the runner or the compiler: PATH, the
/// locale, the compiler's and the libraries' paths, CUDA's, NVCC's and the GPU's variables (CUDA_*, NVIDIA_*, ...)
/// and TILELAB_CPU_WORKERS; nothing else of the grader's (no TILELAB_SEED, no CTest or CI variables).
bool sandbox_variable_allowed(const std::string& entry);

/// Removes what user @p uid owns under @p root: each entry it owns, whole, found by walking only the folders it
/// could write in (world-writable ones, such as /tmp itself); nothing of other users. Call it once that user's
/// processes have all ended.
void remove_files_of(uid_t uid, const std::filesystem::path& root);

/// Removes the sandbox's folders and, when its user id is its own, everything that user left in /tmp, /var/tmp
/// and /dev/shm (call it after end_sandboxed_processes): nothing of one check reaches the next.
void remove_sandbox(const Sandbox& sandbox);

/// Lowers this process's CPU priority (and that of everything it starts) to the niceness in TILELAB_CPU_NICE
/// (1 to 19; grader/batch.sh sets 10), where it is set; does nothing otherwise. A batch calls it in the work that no
/// clock judges, the CPU backend's checks and the compiles, so that the GPU checks' programs, whose answers the
/// performance gate times, get a core as soon as they wake.
void lower_cpu_priority_in_batch();

}  // namespace tilelab::grader
