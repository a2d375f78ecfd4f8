// The batch grader's processes on POSIX (processes.hpp).
#include "processes.hpp"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <ctime>

namespace tilelab::batch {

namespace {

volatile std::sig_atomic_t caught = 0;

/// Notes the signal; the waits see it (no SA_RESTART: a blocking wait returns EINTR).
void note_signal(int signal) { caught = signal; }

/// The exit status a shell would report for a waitpid status.
int shell_status(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 1;
}

/// Sends `signal` to `pid`'s process group where it has one of its own, else to it alone.
void send(pid_t pid, int signal, bool own_group) { ::kill(own_group ? -pid : pid, signal); }

/// Sleeps a fifth of a second (a signal cuts it short).
void nap() {
    const timespec fifth = {0, 200 * 1000 * 1000};
    ::nanosleep(&fifth, nullptr);
}

/// In a started child: execs the command, or exits 127.
[[noreturn]] void exec_child(const Command& command) {
    if (command.own_group) ::setpgid(0, 0);
    ::signal(SIGTERM, SIG_DFL);
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGUSR1, SIG_DFL);
    if (!command.cwd.empty() && ::chdir(command.cwd.c_str()) != 0) ::_exit(127);
    if (!command.output.empty()) {
        const int fd = ::open(command.output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) ::_exit(127);
        ::dup2(fd, 1);
        ::dup2(fd, 2);
    }
    std::vector<char*> argv;
    for (const std::string& arg : command.argv) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    ::execvp(argv[0], argv.data());
    ::_exit(127);
}

}  // namespace

void catch_stop_signals(bool usr1) {
    struct sigaction action = {};
    action.sa_handler = note_signal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGTERM, &action, nullptr);
    ::sigaction(SIGINT, &action, nullptr);
    if (usr1) ::sigaction(SIGUSR1, &action, nullptr);
}

int stop_signal() { return caught; }

void clear_stop_signal() { caught = 0; }

pid_t start(const Command& command) {
    const pid_t pid = ::fork();
    if (pid == 0) exec_child(command);
    if (pid > 0 && command.own_group) ::setpgid(pid, pid);  // no race with a stop sent before the child ran
    return pid;
}

Ending wait_for(pid_t pid, long limit_seconds, bool own_group) {
    const long deadline = limit_seconds > 0 ? now_seconds() + limit_seconds : 0;
    long kill_at = 0;
    Ending ending;
    for (;;) {
        int status = 0;
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid || (done < 0 && errno == ECHILD)) {
            ending.status = done == pid ? shell_status(status) : 1;
            return ending;
        }
        if (const int signal = stop_signal()) {
            send(pid, SIGTERM, own_group);
            ::waitpid(pid, &status, 0);
            std::exit(128 + signal);
        }
        const long now = now_seconds();
        if (deadline > 0 && !ending.timed_out && now >= deadline) {
            ending.timed_out = true;
            send(pid, SIGTERM, own_group);
            kill_at = now + 30;
        } else if (kill_at > 0 && now >= kill_at) {
            send(pid, SIGKILL, own_group);
            kill_at = 0;
        }
        nap();
    }
}

std::string output_of(const std::vector<std::string>& argv) {
    int fds[2];
    if (::pipe(fds) != 0) return "";
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        ::dup2(fds[1], 1);
        ::close(fds[1]);
        exec_child(Command{argv, {}, {}, false});
    }
    ::close(fds[1]);
    std::string output;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
        if (n > 0) output.append(buffer, static_cast<std::size_t>(n));
        else if (n == 0 || errno != EINTR) break;
    }
    ::close(fds[0]);
    int status = 0;
    while (pid > 0 && ::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? output : "";
}

bool in_path(const std::string& program) {
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "";
    for (std::size_t from = 0; from <= dirs.size();) {
        std::size_t to = dirs.find(':', from);
        if (to == std::string::npos) to = dirs.size();
        const std::string dir = to > from ? dirs.substr(from, to - from) : ".";
        if (::access((dir + "/" + program).c_str(), X_OK) == 0) return true;
        from = to + 1;
    }
    return false;
}

int usable_cores() {
    cpu_set_t set;
    if (::sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
    const long cores = ::sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 ? static_cast<int>(cores) : 1;
}

std::string host_name(bool short_name) {
    char name[256] = {};
    ::gethostname(name, sizeof name - 1);
    const std::string host = name;
    return short_name ? host.substr(0, host.find('.')) : host;
}

long now_seconds() { return static_cast<long>(std::time(nullptr)); }

}  // namespace tilelab::batch
