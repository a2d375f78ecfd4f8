/// @file runner_process.hpp
/// @brief The lab's runner as the checker sees it: a sandboxed process behind two pipes, asked one thing at a
/// time, never trusted: an exit, a hang, a crash or garbage on the channel is a failed check with a message.
#pragma once

#include "sandbox.hpp"

#include <tilelab/wire.hpp>

#include <sys/types.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

namespace tilelab::grader {

/// The runner did not answer: it ended, hung or sent something that is not a reply. what() says which, with a
/// hint, and quotes what it printed.
class RunnerGone : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A reply's header, read by RunnerProcess::call(); the rest of the reply stays in the reader.
struct ReplyHeader {
    wire::Status status = wire::Status::ok;
    int code = 0;              ///< CUDA error code when status is cuda_error.
    std::string name;          ///< The CUDA error's name.
    std::string message;       ///< What failed, in the runner's words.
    bool context_lost = false; ///< The error ended the CUDA context: nothing more can run in this runner.
    wire::FaultSite fault;     ///< Where an out-of-bounds access failed the request (CPU backend), checked.
};

/// One running runner.
class RunnerProcess {
public:
    /// Starts @p command (the runner, after any wrapper such as compute-sanitizer) in a new sandbox. Every
    /// request must be answered before @p deadline. @p kit_program: the command is the kit's own (the gate's
    /// reference program), run unconfined, as the checker's user (prepare_sandbox).
    RunnerProcess(std::vector<std::string> command, std::chrono::steady_clock::time_point deadline,
                  bool kit_program = false);
    ~RunnerProcess();
    RunnerProcess(const RunnerProcess&) = delete;
    RunnerProcess& operator=(const RunnerProcess&) = delete;

    /// Sends @p request and waits for the reply; @p doing says what was asked, for messages ("multiplying
    /// 17x15x33"). Throws RunnerGone. The returned reader is positioned after the header, read into @p header.
    std::vector<unsigned char> call(const wire::Writer& request, const std::string& doing, ReplyHeader& header);

    /// call() for the request that creates the program's CUDA context (hello). Creating a context is the driver's
    /// time, not the lab's: with many programs starting at once the driver takes seconds for each (a 64-submission
    /// batch on 16 cores: 9 s on average, 25 s at the 90th percentile), and a check's limit is for its kernels. So
    /// the start has a limit of its own, start_allowance, in place of the check's, and the time it took moves the
    /// check's deadline.
    std::vector<unsigned char> call_as_start(const wire::Writer& request, const std::string& doing, ReplyHeader& header);

    /// How long a program's start may take (call_as_start): far more than a burst of starts needs, and a bound on
    /// what code run before the first reply (a lab's global initializers, in a program that loads the lab's
    /// module when it starts) can cost.
    static constexpr std::chrono::seconds start_allowance{120};

    /// Closes the channel, lets the runner end on its own (a wrapper such as compute-sanitizer reports then)
    /// and returns its exit status (128 + signal when a signal ended it; -1 when it did not end in time).
    int finish();

    /// What the runner printed so far, each line quoted as "  | ..." (at most @p max_bytes of it).
    std::string printed(std::size_t max_bytes = 6000) const;

    /// Each request must also be answered within @p limit of being sent (zero: only the deadline counts), so that
    /// a kernel that never ends is stopped long before the whole check's limit.
    void set_request_limit(std::chrono::milliseconds limit) noexcept { request_limit_ = limit; }

    /// Each request must also use at most @p limit of CPU time in the runner (zero: no such limit). On the CPU
    /// backend a kernel that never ends spins the emulator's cores: stopped by the CPU time it used, it is stopped
    /// after the same work however busy the machine is, and a busy machine needs no longer wall-clock limit for it.
    void set_request_cpu_limit(std::chrono::milliseconds limit) noexcept { request_cpu_limit_ = limit; }

    /// Moves the deadline @p by later: the time this checker waited for its turn on the GPU is not the lab's.
    void postpone_deadline(std::chrono::steady_clock::duration by) noexcept { deadline_ += by; }
    /// Sets the deadline anew: the next check of a series has its own (grader_main's --suite).
    void set_deadline(std::chrono::steady_clock::time_point deadline) noexcept { deadline_ = deadline; }

    /// Whether a request ran out of its own limit (wall-clock or CPU time; not the check's deadline): a kernel that
    /// never ends, or one far too slow.
    bool ran_out_of_time() const noexcept { return ran_out_of_time_; }

    /// How the runner is confined, in one line.
    const std::string& confinement() const noexcept { return sandbox_.description; }

private:
    std::string ended_how(int status) const;
    [[noreturn]] void gone(const std::string& what, const std::string& hint);
    /// True once the reply can be read; false when the runner has ended; a timeout is gone().
    bool wait_readable(std::chrono::steady_clock::time_point until);
    bool read_bytes(void* data, std::size_t size);

    Sandbox sandbox_;
    std::string output_path_;
    pid_t pid_ = -1;
    int request_fd_ = -1;
    int reply_fd_ = -1;
    int exit_status_ = -1;
    std::chrono::steady_clock::time_point deadline_;
    std::chrono::milliseconds request_limit_{0};
    std::chrono::milliseconds request_cpu_limit_{0};
    std::chrono::milliseconds cpu_at_request_{-1};  ///< The runner's CPU time when this request was sent.
    std::chrono::steady_clock::time_point reply_due_;  ///< This request's: the deadline, or sooner.
    std::string doing_;  ///< What this request asks, for the messages of one that runs out of time.
    bool ran_out_of_time_ = false;
};

}  // namespace tilelab::grader
