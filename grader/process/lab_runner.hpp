/// @file lab_runner.hpp
/// @brief The lab's program as the checks use it: one runner per checker process, started on first use.
#pragma once

#include "gpu_lease.hpp"
#include "runner_process.hpp"

#include <tilelab/wire.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace tilelab::grader {

/// A reply from the lab's program: its header, and its body to read with body().
struct Reply {
    ReplyHeader header;
    std::vector<unsigned char> bytes;
};

/// The lab's program could not do what it was asked: a CUDA error, an exception from the student's code, or a
/// request it does not take. what() is the message, with a hint where there is one.
class LabError : public std::runtime_error {
public:
    /// The error @p header reports of what @p who names; @p launch_rule, where not empty, is the hint for a launch
    /// or memory error (a bad address, a refused configuration) in place of hint_for's: the rule of a launch that
    /// is the kit's, which the lab's code broke. @p diagnosis, where not empty, is the checker's own account of what
    /// happened (describe_fault's): the first hint, before the runner's message's own lines, so that it is the line
    /// the points table shows.
    LabError(const ReplyHeader& header, const std::string& who, const std::string& launch_rule = "",
             const std::string& diagnosis = "");
    /// The CUDA context is lost: nothing more can run in this program.
    bool context_lost() const noexcept { return context_lost_; }

private:
    bool context_lost_;
};

/// Throws LabError unless @p reply says the request was carried out; @p who names what ran ("matmul_naive(...)");
/// @p launch_rule as LabError takes it.
void require_ok(const Reply& reply, const std::string& who, const std::string& launch_rule = "");

/// Throws RunnerGone when @p in was not read exactly to its end (a reply of the wrong shape).
void require_complete(const wire::Reader& in, const std::string& doing);

/// A reader over @p reply's body, past the header.
wire::Reader body(const Reply& reply);

/// Reads a reply's header from @p in.
ReplyHeader read_header(wire::Reader& in);

/// Holds this checker's GPU lease for @p use (gpu_lease.hpp), and moves the lab's deadline by the time it waited.
void hold_gpu(GpuUse use);

/// Sends @p request to the lab's program (starting it on first use, with the command from checker_options())
/// and returns its reply; @p doing says what was asked, for messages. Throws RunnerGone.
Reply ask_runner(const wire::Writer& request, const std::string& doing);

/// The lab's program, as the checker starts it (the word before "--tile-width" in its command): the file whose
/// machine code the GPU backend's structural checks read (sass_evidence.hpp).
std::string runner_program();

/// As ask_runner, with the GPU held for @p use during the request whatever the check's option says: the
/// performance gate holds it alone only while it times the kernels. An exclusive hold outlasts the request, until
/// gpu_lease().release().
Reply ask_runner(const wire::Writer& request, const std::string& doing, GpuUse use);

/// The first request a program gets (wire::Op::hello): it creates the program's CUDA context and says which GPU the
/// program runs on.
wire::Writer hello_request();

/// The request that has a runner host load another lab's module (wire::Op::load_lab): the lab program of the next
/// lab of a series, or a gate's next model.
wire::Writer load_lab_request(const std::string& module, int tile_width);

/// Readies the lab's program for the next check of a series run by one checker (grader_main's --suite): one
/// that ended, hung or lost its CUDA context in the last check is put away (the next request starts a new one);
/// a usable one is kept, with checker_options()'s deadline and request limit from now on. Keeping it saves a
/// CUDA context per check, which a GPU creates one at a time.
void begin_check();

/// Whether a request ran out of its limit (RunnerProcess::ran_out_of_time) since the last call; clears it.
bool take_request_ran_out();

/// Ends the lab's program, if it was started: closes the channel and returns its exit status (see
/// RunnerProcess::finish); 0 when it never ran.
int finish_runner();

/// Ends the lab's program as finish_runner() does and puts it away: the next request starts a new one. Returns 1
/// rather than 0 when an earlier program was ended since the last call without its exit status read (a lost
/// context, another lab's module that would not load): a compute-sanitizer run over several labs is clean only when
/// every program that served it ended clean.
int discard_runner();

/// How the lab's program is confined, once it has started; empty before.
std::string runner_confinement();

}  // namespace tilelab::grader
