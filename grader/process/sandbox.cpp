// Confining a lab's runner with what any Linux root has (no namespaces, which container runtimes such as
// Gradescope's often refuse): a user id of its own, no new privileges, resource limits, its own process group.
#include "sandbox.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace tilelab::grader {
namespace {

// User ids from here up are taken to belong to no one: far above what distributions hand out.
constexpr unsigned long long first_private_uid = 2000000000ull;
constexpr uid_t nobody_uid = 65534;

// True when a child can become @p uid (a user namespace may map only some ids).
bool can_become(uid_t uid) {
    const pid_t child = fork();
    if (child == 0) _exit(setgroups(0, nullptr) == 0 && setresgid(uid, uid, uid) == 0 && setresuid(uid, uid, uid) == 0 ? 0 : 1);
    int status = 0;
    return child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// The user id a confined runner takes: TILELAB_RUNNER_UID where set, else one derived from this process's id, else
// nobody; none where this root process can take neither.
std::optional<uid_t> runner_uid() {
    const char* requested = std::getenv("TILELAB_RUNNER_UID");
    const uid_t uid = requested != nullptr && *requested != '\0'
                          ? static_cast<uid_t>(std::strtoul(requested, nullptr, 10))
                          : static_cast<uid_t>(first_private_uid +
                                               static_cast<unsigned long long>(getpid()) % 100000000ull);
    if (can_become(uid)) return uid;
    if (can_become(nobody_uid)) return nobody_uid;
    return std::nullopt;
}

void say(int fd, const std::string& text) {
    const ssize_t ignored = write(fd, text.data(), text.size());
    static_cast<void>(ignored);
}

void limit(int resource, rlim_t value) {
    const struct rlimit r {value, value};
    setrlimit(resource, &r);
}

// True when a variable of the grader's environment (NAME=value) may reach the runner or the compiler: what finds
// programs and libraries, the locale, what a GPU and the CUDA toolchain need, and the CPU backend's worker count.
// Nothing else of the grader's: no TILELAB_SEED (a lab that knew it could ship the answers, cheats/replays-known-
// seed), no CTest or CI variables, nothing that names the kit's folders.
}  // namespace

bool sandbox_variable_allowed(const std::string& entry) {
    const std::string name = entry.substr(0, entry.find('='));
    static const std::set<std::string> names = {
        "PATH", "LANG", "LANGUAGE", "TZ", "LD_LIBRARY_PATH", "LIBRARY_PATH", "CPATH", "C_INCLUDE_PATH",
        "CPLUS_INCLUDE_PATH", "GCC_EXEC_PREFIX", "COMPILER_PATH", "CC", "CXX", "CUDACXX", "CUDAHOSTCXX",
        "SOURCE_DATE_EPOCH", "TILELAB_CPU_WORKERS"};
    static const std::vector<std::string> prefixes = {"LC_", "CUDA_", "NVCC_", "NVIDIA_", "__NV_", "NV_"};
    if (names.count(name) != 0) return true;
    for (const std::string& prefix : prefixes)
        if (name.rfind(prefix, 0) == 0) return true;
    return false;
}

namespace {

void keep_allowed_environment() {
    std::vector<std::string> removed;
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry)
        if (!sandbox_variable_allowed(*entry)) removed.emplace_back(std::string(*entry).substr(0, std::string(*entry).find('=')));
    for (const std::string& name : removed) unsetenv(name.c_str());
}

// Removes what user @p uid owns under @p root: entries it owns (whole), and inside the folders it could write
// (world-writable ones such as /tmp's), nothing else. Its processes have all ended, so nothing changes meanwhile.
}  // namespace

void remove_files_of(uid_t uid, const std::filesystem::path& root) {
    namespace fs = std::filesystem;
    std::error_code error;
    std::vector<fs::path> owned;
    for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, error), end;
         !error && it != end; it.increment(error)) {
        struct stat st {};
        if (lstat(it->path().c_str(), &st) != 0) continue;
        if (st.st_uid == uid) {
            owned.push_back(it->path());
            it.disable_recursion_pending();
        } else if (!S_ISDIR(st.st_mode) || (st.st_mode & S_IWOTH) == 0) {
            it.disable_recursion_pending();
        }
    }
    for (const fs::path& path : owned) fs::remove_all(path, error);
}

bool labs_run_as_other_users() {
    if (geteuid() != 0) return false;
    const std::optional<uid_t> uid = runner_uid();
    return uid && *uid != 0;
}

Sandbox prepare_sandbox(bool confine) {
    Sandbox sandbox;
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/tilelab-runner-XXXXXX";
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    if (mkdtemp(name.data()) == nullptr) throw std::runtime_error("cannot make a folder for the lab's program in " + pattern);
    sandbox.folder = name.data();
    sandbox.scratch = sandbox.folder + "/scratch";
    mkdir(sandbox.scratch.c_str(), 0700);
    chmod(sandbox.folder.c_str(), 0711);  // the runner may pass through to its scratch folder, not list this one

    if (!confine) {
        sandbox.description = "a program of the kit's own: runs as the checker's user, out of the lab's program's reach";
        return sandbox;
    }
    if (geteuid() != 0) {
        sandbox.description = "not root: the lab's program runs as the grader's own user, with its rights over the "
                              "kit's files (grade as root, as Gradescope and CI do, to confine it)";
        return sandbox;
    }
    const std::optional<uid_t> taken = runner_uid();
    if (!taken) {
        sandbox.description = "root, but no other user id can be taken here (a user namespace?): the lab's program "
                              "runs as root";
        return sandbox;
    }
    const uid_t uid = *taken;
    sandbox.own_uid = uid != nobody_uid;
    sandbox.confined = true;
    sandbox.uid = uid;
    sandbox.gid = static_cast<gid_t>(uid);
    if (chown(sandbox.scratch.c_str(), sandbox.uid, sandbox.gid) != 0)
        throw std::runtime_error("cannot hand " + sandbox.scratch + " to the lab's program");
    sandbox.description = "the lab's program runs as user " + std::to_string(uid) +
                          (sandbox.own_uid ? " (its own)" : " (nobody)") +
                          ", may write only its scratch folder, and is ended with everything it started";
    return sandbox;
}

bool become_sandbox_user(const Sandbox& sandbox) {
    if (sandbox.confined) {
        if (setgroups(0, nullptr) != 0 || setresgid(sandbox.gid, sandbox.gid, sandbox.gid) != 0 ||
            setresuid(sandbox.uid, sandbox.uid, sandbox.uid) != 0)
            return false;
        limit(RLIMIT_NPROC, 4096);  // counts this user's threads: the emulator's workers fit, a fork bomb does not
    }
    // An allowlisted environment (the seed the checker draws its inputs from is not in it); HOME and TMPDIR are
    // set to the scratch folder by the caller.
    keep_allowed_environment();
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);  // after the change of user, which clears it
    limit(RLIMIT_CORE, 0);
    limit(RLIMIT_FSIZE, rlim_t{256} << 20);  // what it prints and writes, at most 256 MiB a file
    return true;
}

void exec_in_sandbox(const Sandbox& sandbox, const std::vector<std::string>& argv, int request_fd, int reply_fd,
                     int output_fd) {
    setpgid(0, 0);
    // Move the channel to 3 and 4, the output to 1 and 2, nothing on 0, and close everything else.
    const int moved_request = fcntl(request_fd, F_DUPFD, 10), moved_reply = fcntl(reply_fd, F_DUPFD, 10);
    const int moved_output = fcntl(output_fd, F_DUPFD, 10);
    const int null = open("/dev/null", O_RDONLY);
    dup2(null, 0);
    dup2(moved_output, 1);
    dup2(moved_output, 2);
    dup2(moved_request, 3);
    dup2(moved_reply, 4);
    for (int fd = 5; fd < 1024; ++fd) close(fd);

    if (!become_sandbox_user(sandbox)) {
        say(1, "TileLab: the lab's program could not be given its own user id\n");
        _exit(127);
    }
    if (chdir(sandbox.scratch.c_str()) != 0) _exit(127);
    setenv("HOME", sandbox.scratch.c_str(), 1);
    setenv("TMPDIR", sandbox.scratch.c_str(), 1);
    // One hardware work queue per CUDA context (8 by default): no check needs two kernels of one program at once,
    // and a batch's many contexts then start 2.5 to 5 times sooner and share the GPU better
    // (docs/benchmarks.md#class_connections). Set for every program alike, whatever the grader's environment.
    setenv("CUDA_DEVICE_MAX_CONNECTIONS", "1", 1);

    std::vector<char*> args;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    say(1, "TileLab: cannot run " + argv[0] + ": " + std::strerror(errno) + "\n");
    _exit(127);
}

namespace {

// What the sandbox reads of /proc/<pid>/stat.
struct ProcessStat {
    char state = 0;               // 0: no such process (or unreadable)
    long group = 0;               // its process group
    unsigned long long ticks = 0; // user and system time of all its threads, ended ones too, in clock ticks
};

// /proc/<pid>/stat, at @p path relative to @p dir: "pid (command) state ppid pgrp ..."; the command may hold spaces
// and parentheses, so the fields are counted from the last ')'.
ProcessStat process_stat(int dir, const char* path) {
    ProcessStat stat;
    const int fd = ::openat(dir, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return stat;
    char text[512];
    const ssize_t length = ::read(fd, text, sizeof text - 1);
    ::close(fd);
    if (length <= 0) return stat;
    text[length] = '\0';
    const char* close = std::strrchr(text, ')');
    if (close == nullptr || close[1] != ' ' || close[2] == '\0') return stat;
    stat.state = close[2];
    char* field = const_cast<char*>(close + 3);
    unsigned long long values[12] = {};  // fields 4 (ppid) to 15 (stime)
    for (int i = 0; i < 12; ++i) {
        char* end = nullptr;
        values[i] = std::strtoull(field, &end, 10);
        if (end == field) break;  // cut short: the fields read so far stand
        field = end;
    }
    stat.group = static_cast<long>(values[5 - 4]);
    stat.ticks = values[14 - 4] + values[15 - 4];
    return stat;
}

// The state letter of process @p pid (its folder's name under the /proc folder @p proc), 0 when there is no such
// process; its process group in @p group.
char process_state(int proc, const char* pid, long* group = nullptr) {
    char path[64];
    std::snprintf(path, sizeof path, "%s/stat", pid);
    const ProcessStat stat = process_stat(proc, path);
    if (group != nullptr) *group = stat.group;
    return stat.state;
}

bool ended(char state) { return state == 0 || state == 'Z' || state == 'X'; }  // a zombie's exit is done

}  // namespace

std::chrono::milliseconds process_cpu_time(pid_t pid) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
    const ProcessStat stat = process_stat(AT_FDCWD, path);
    if (stat.state == 0) return std::chrono::milliseconds{-1};
    static const long ticks_per_second = sysconf(_SC_CLK_TCK);
    return std::chrono::milliseconds{static_cast<long long>(stat.ticks * 1000 /
                                                            static_cast<unsigned long long>(ticks_per_second > 0 ? ticks_per_second : 100))};
}

bool sandboxed_processes_left(const Sandbox& sandbox, pid_t group) {
    const int proc = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (proc < 0) return false;
    // The runner first: while it runs, nothing else need be looked at.
    bool left = group > 0 && !ended(process_state(proc, std::to_string(group).c_str()));
    const bool whole_user = sandbox.confined && sandbox.own_uid;
    if (!left && (whole_user || group > 0)) {
        // Then, with a user of its own, every process of that user, in the group or not (compute-sanitizer's target
        // among them): /proc/<pid> belongs to a process's user once it has run a program as that user, so only
        // those are read (a batch's thousand processes cost a millisecond or two). Else the group's processes.
        if (DIR* listing = ::fdopendir(::dup(proc))) {
            while (const dirent* entry = ::readdir(listing)) {
                if (entry->d_name[0] < '1' || entry->d_name[0] > '9') continue;
                long process_group = 0;
                if (whole_user) {
                    struct stat owner {};
                    if (::fstatat(proc, entry->d_name, &owner, 0) != 0 || owner.st_uid != sandbox.uid) continue;
                    left = !ended(process_state(proc, entry->d_name));
                } else {
                    left = !ended(process_state(proc, entry->d_name, &process_group)) && process_group == group;
                }
                if (left) break;
            }
            ::closedir(listing);
        }
    }
    ::close(proc);
    return left;
}

void end_sandboxed_processes(const Sandbox& sandbox, pid_t group) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    auto pause = std::chrono::milliseconds(1);  // most processes end within it; a GPU context takes tens
    do {
        if (group > 0) kill(-group, SIGKILL);
        if (sandbox.confined && sandbox.own_uid) {
            // A process of the runner's user may signal all of that user's processes, and nothing else: kill(-1) as
            // it ends a child that started a session of its own too.
            const pid_t reaper = fork();
            if (reaper == 0) {
                if (setresgid(sandbox.gid, sandbox.gid, sandbox.gid) != 0 ||
                    setresuid(sandbox.uid, sandbox.uid, sandbox.uid) != 0)
                    _exit(1);
                for (int round = 0; round < 3; ++round) kill(-1, SIGKILL);
                _exit(0);
            }
            if (reaper > 0) waitpid(reaper, nullptr, 0);
        }
        // Killed is not yet ended: a process whose kernel is still running leaves the GPU when the driver has torn
        // down its context, at its exit, which can take a while. Until then the GPU is not free, and the caller's
        // hold on it must last (a gate that took the GPU as a killed runner's hold ended timed its kernels beside
        // that runner's kernel that never ended: honest kernels failed, docs/benchmarks.md#class_two_gpus).
        if (!sandboxed_processes_left(sandbox, group)) return;
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::milliseconds(16));
    } while (std::chrono::steady_clock::now() < give_up);
}

void remove_sandbox(const Sandbox& sandbox) {
    std::error_code ignored;
    if (!sandbox.folder.empty()) std::filesystem::remove_all(sandbox.folder, ignored);
    // What the runner's (or the compiler's) user left in the shared temporary folders: a later check, or another
    // submission's in a batch, could read it. Only with a user id of its own: "nobody" is shared.
    if (sandbox.confined && sandbox.own_uid)
        for (const char* root : {"/tmp", "/var/tmp", "/dev/shm"}) remove_files_of(sandbox.uid, root);
}

void lower_cpu_priority_in_batch() {
    const char* text = std::getenv("TILELAB_CPU_NICE");
    if (text == nullptr || *text == '\0') return;
    const long nice = std::strtol(text, nullptr, 10);
    if (nice < 1 || nice > 19) return;
    // Lowering one's own priority needs no privilege; a failure costs timing quality, never a grade.
    errno = 0;
    const int now = getpriority(PRIO_PROCESS, 0);
    if (errno == 0 && now < nice) static_cast<void>(setpriority(PRIO_PROCESS, 0, static_cast<int>(nice)));
}

}  // namespace tilelab::grader
