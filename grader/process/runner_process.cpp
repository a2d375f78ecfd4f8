#include "runner_process.hpp"

#include "lab_runner.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace tilelab::grader {
namespace {

using Clock = std::chrono::steady_clock;

// The hint the report shows for a check that ran out of time while @p doing (the record's hint is its first "hint:"
// line, check_record.hpp).
std::string too_slow_hint(const std::string& doing) {
    return "hint: the check did not finish in time while " + doing +
           ": a kernel that never ends (check the loop bounds), or one far too slow";
}

// The hint for a program that ended, with exit status @p status (waitpid's), while (or, @p before, before) @p doing:
// what the checker saw, in its own words, from how the program ended. On the CPU backend a kernel's fault is answered
// as a reply before the program ends (runner_main.cpp), so a fault here is one the emulator did not see.
std::string ended_hint(int status, const std::string& doing, bool before) {
    const int signal_number = WIFSIGNALED(status) ? WTERMSIG(status)
                              : WIFEXITED(status) && WEXITSTATUS(status) > 128 ? WEXITSTATUS(status) - 128
                                                                               : 0;
    const std::string when = (before ? "before " : "while ") + doing;
    if (signal_number == SIGSEGV || signal_number == SIGBUS)
        return "hint: the lab's program crashed with a memory fault " + when +
               ": a pointer used outside its memory, in the kernel or the launcher (an index out of bounds, a host "
               "pointer given to a kernel, a device pointer read on the host); check the bounds tests and the pointers";
    if (signal_number == SIGABRT)
        return "hint: the lab's program called abort() (or an assert failed) " + when +
               ": a lab's program must not end by itself";
    if (WIFSIGNALED(status))
        return "hint: the lab's program was ended by a signal " + when +
               ": a lab's program must not end by itself (one that uses too much memory is killed)";
    return "hint: the lab's program ended by itself " + when + ", with exit status " +
           std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
           ": look for exit() or abort(); a lab's program must not end by itself, also not in code that runs before "
           "main (global initializers)";
}

// A limit in seconds as the messages say it: "5", "0.5".
std::string seconds_text(std::chrono::milliseconds limit) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", static_cast<double>(limit.count()) / 1000.0);
    return text;
}

}  // namespace

RunnerProcess::RunnerProcess(std::vector<std::string> command, Clock::time_point deadline, bool kit_program)
    : sandbox_(prepare_sandbox(!kit_program)), output_path_(sandbox_.folder + "/output.txt"), deadline_(deadline) {
    int request[2], reply[2];
    if (pipe2(request, O_CLOEXEC) != 0 || pipe2(reply, O_CLOEXEC) != 0)
        throw RunnerGone(std::string("cannot make the channel to the lab's program: ") + std::strerror(errno));
    const int output = open(output_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (output < 0) throw RunnerGone("cannot make " + output_path_);
    std::fflush(nullptr);
    pid_ = fork();
    if (pid_ == 0) {
        command.insert(command.end(), {"--in", "3", "--out", "4"});
        exec_in_sandbox(sandbox_, command, request[0], reply[1], output);
    }
    close(request[0]);
    close(reply[1]);
    close(output);
    request_fd_ = request[1];
    reply_fd_ = reply[0];
    if (pid_ < 0) throw RunnerGone(std::string("cannot start the lab's program: ") + std::strerror(errno));
    setpgid(pid_, pid_);  // also here, so the group exists whichever of the two runs first
    signal(SIGPIPE, SIG_IGN);
}

RunnerProcess::~RunnerProcess() {
    if (request_fd_ >= 0) close(request_fd_);
    if (reply_fd_ >= 0) close(reply_fd_);
    end_sandboxed_processes(sandbox_, pid_);
    if (pid_ > 0 && exit_status_ < 0) waitpid(pid_, nullptr, 0);
    remove_sandbox(sandbox_);
}

std::string RunnerProcess::ended_how(int status) const {
    if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) {
        const int number = WTERMSIG(status);
        const char* name = sigabbrev_np(number);
        return "was killed by signal " + std::to_string(number) + (name ? std::string(" (SIG") + name + ")" : "");
    }
    return "ended";
}

void RunnerProcess::gone(const std::string& what, const std::string& hint) {
    end_sandboxed_processes(sandbox_, pid_);
    std::string message = what;
    const std::string text = printed();
    if (!text.empty()) message += "\n  what the lab's program printed:\n" + text;
    message += "\n  " + hint;
    throw RunnerGone(message);
}

bool RunnerProcess::wait_readable(Clock::time_point until) {
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
        if (left <= 0) {
            if (until < deadline_) {
                ran_out_of_time_ = true;
                gone("the lab's program did not answer within " + seconds_text(request_limit_) +
                         " s, the limit of one request (--request-limit)",
                     too_slow_hint(doing_));
            }
            gone("the lab's program did not answer in time (the check's limit ran out)", too_slow_hint(doing_));
        }
        pollfd p{reply_fd_, POLLIN, 0};
        const int ready = poll(&p, 1, static_cast<int>(std::min<long long>(left, 200)));
        if (ready > 0) return true;
        if (request_cpu_limit_.count() > 0 && cpu_at_request_.count() >= 0) {
            const auto used = process_cpu_time(pid_) - cpu_at_request_;
            if (used > request_cpu_limit_) {
                ran_out_of_time_ = true;
                gone("the lab's program used more than " + seconds_text(request_cpu_limit_) +
                         " s of CPU time on one request, the CPU backend's limit of one request "
                         "(TILELAB_REQUEST_CPU_LIMIT): a correct kernel's largest multiply takes about one",
                     too_slow_hint(doing_));
            }
        }
        if (ready < 0 && errno != EINTR) return true;  // let the read report it
        // Ended, though a child it left behind may still hold the channel open: no reply is coming.
        int status = 0;
        if (exit_status_ < 0 && waitpid(pid_, &status, WNOHANG) == pid_) {
            exit_status_ = status;
            return false;
        }
    }
}

bool RunnerProcess::read_bytes(void* data, std::size_t size) {
    auto* p = static_cast<unsigned char*>(data);
    while (size > 0) {
        if (!wait_readable(reply_due_)) return false;
        const ssize_t n = read(reply_fd_, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

std::vector<unsigned char> RunnerProcess::call(const wire::Writer& request, const std::string& doing,
                                               ReplyHeader& header) {
    if (exit_status_ >= 0) throw RunnerGone("the lab's program has already ended");
    doing_ = doing;
    reply_due_ = deadline_;
    if (request_limit_.count() > 0) reply_due_ = std::min(deadline_, Clock::now() + request_limit_);
    cpu_at_request_ = request_cpu_limit_.count() > 0 ? process_cpu_time(pid_) : std::chrono::milliseconds{-1};
    if (!wire::send_frame(request_fd_, request.bytes())) {
        // It is gone: say how.
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) != pid_) {
            end_sandboxed_processes(sandbox_, pid_);
            waitpid(pid_, &status, 0);
        }
        exit_status_ = status;
        gone("the lab's program " + ended_how(status) + " before " + doing, ended_hint(status, doing, true));
    }
    std::uint32_t magic = 0;
    std::uint64_t size = 0;
    const bool framed = read_bytes(&magic, sizeof magic) && read_bytes(&size, sizeof size);
    if (!framed) {
        int status = exit_status_;
        if (status < 0) {  // the reply pipe closed: the runner has ended, or is ending
            const auto until = Clock::now() + std::chrono::seconds(5);
            while (waitpid(pid_, &status, WNOHANG) == 0 && Clock::now() < until) usleep(10000);
            exit_status_ = status;
        }
        gone("the lab's program " + ended_how(status) + " while " + doing, ended_hint(status, doing, false));
    }
    if (magic != wire::frame_magic || size > wire::max_frame_bytes)
        gone("the lab's program sent something that is not a reply while " + doing,
             "hint: the channel between the checker and the lab's program is not the lab's to write to");
    std::vector<unsigned char> payload(static_cast<std::size_t>(size));
    if (!read_bytes(payload.data(), payload.size()))
        gone("the lab's program stopped in the middle of a reply while " + doing,
             "hint: the lab's program ended, or hung, in the middle of a reply: a lab's program must not end by itself");
    wire::Reader in(payload);
    header = read_header(in);
    if (!in.ok())
        gone("the lab's program sent a malformed reply while " + doing,
             "hint: the channel between the checker and the lab's program is not the lab's to write to");
    return payload;
}

std::vector<unsigned char> RunnerProcess::call_as_start(const wire::Writer& request, const std::string& doing,
                                                        ReplyHeader& header) {
    const auto deadline = deadline_;
    const auto limit = request_limit_, cpu_limit = request_cpu_limit_;
    const auto started = Clock::now();
    deadline_ = started + start_allowance;
    request_limit_ = request_cpu_limit_ = std::chrono::milliseconds{0};
    struct Restore {  // the check's own limits again, whatever happens; its deadline later by the start's time
        RunnerProcess& process;
        Clock::time_point deadline, started;
        std::chrono::milliseconds limit, cpu_limit;
        ~Restore() {
            process.deadline_ = deadline + (Clock::now() - started);
            process.request_limit_ = limit;
            process.request_cpu_limit_ = cpu_limit;
        }
    } restore{*this, deadline, started, limit, cpu_limit};
    return call(request, doing, header);
}

int RunnerProcess::finish() {
    if (request_fd_ >= 0) {
        close(request_fd_);
        request_fd_ = -1;
    }
    if (exit_status_ >= 0) return WIFSIGNALED(exit_status_) ? 128 + WTERMSIG(exit_status_) : WEXITSTATUS(exit_status_);
    int status = 0;
    for (;;) {
        const pid_t done = waitpid(pid_, &status, WNOHANG);
        if (done == pid_) break;
        if (Clock::now() >= deadline_) {
            end_sandboxed_processes(sandbox_, pid_);
            waitpid(pid_, &status, 0);
            exit_status_ = status;
            return -1;
        }
        usleep(20000);
    }
    exit_status_ = status;
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

std::string RunnerProcess::printed(std::size_t max_bytes) const {
    std::ifstream file(output_path_, std::ios::binary);
    std::string text(max_bytes, '\0');
    file.read(&text[0], static_cast<std::streamsize>(max_bytes));
    text.resize(static_cast<std::size_t>(file.gcount()));
    const bool cut = file.peek() != std::char_traits<char>::eof();
    std::string quoted;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        for (char& c : line)
            if (static_cast<unsigned char>(c) < 32 && c != '\t') c = '?';
        if (!line.empty()) quoted += "  | " + line + "\n";
    }
    if (cut) quoted += "  | (more, not shown)\n";
    if (!quoted.empty()) quoted.pop_back();
    return quoted;
}

}  // namespace tilelab::grader
