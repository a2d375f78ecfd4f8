#include "lab_runner.hpp"

#include "gpu_lease.hpp"
#include "lab_under_test.hpp"

#include <tilelab/cuda_check.hpp>

#include <cstdio>
#include <memory>
#include <utility>

namespace tilelab::grader {
namespace {

std::unique_ptr<RunnerProcess> runner;
// A runner was ended without its exit status read since the last discard_runner(): a compute-sanitizer run that
// served several labs then does not know whether the tool found an error in the first one's.
bool runner_dropped = false;

// Ends the runner without reading its exit status.
void drop_runner() {
    if (runner) runner_dropped = true;
    runner.reset();
}
std::vector<std::string> runner_command;  // what the running runner was started with, or switched to since
bool runner_unusable = false;  // it ended, hung or lost its CUDA context: a later check needs a new one
bool runner_lost_context = false;  // its CUDA context is lost: the next request, even in this check, needs a new one
bool a_request_ran_out = false;    // a request ran out of its limit (take_request_ran_out)

// Lets go of a shared or starting hold when it goes out of scope, whichever way its scope ends (a timing or
// exclusive hold is kept: GpuLease::release_shared).
struct SharedHoldRelease {
    SharedHoldRelease() = default;
    SharedHoldRelease(const SharedHoldRelease&) = delete;
    SharedHoldRelease& operator=(const SharedHoldRelease&) = delete;
    ~SharedHoldRelease() { gpu_lease().release_shared(); }
};

// The same command but for the module and its tile width: the same runner host, which can load that module.
bool same_host(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i] && (i == 0 || (a[i - 1] != "--module" && a[i - 1] != "--tile-width"))) return false;
    return true;
}

// The next lab of a series of several (--then) in the runner host that served the last: asked to load the lab's
// module, no new CUDA context. A runner that cannot (not a host, or the module did not load) is ended; the next
// request starts one for this lab, whose own start says what went wrong.
void switch_lab() {
    const CheckerOptions& options = checker_options();
    if (!runner || runner_command == options.runner) return;
    if (!options.module.empty() && same_host(runner_command, options.runner)) {
        ReplyHeader header;
        try {
            hold_gpu(GpuUse::shared);
            const SharedHoldRelease release;
            runner->call(load_lab_request(options.module, options.lab.tile_width), "loading the lab's module", header);
            if (header.status == wire::Status::ok) {
                runner_command = options.runner;
                return;
            }
        } catch (const RunnerGone&) {
        }
    }
    drop_runner();
}

// The check's limits of each request (wall-clock, and CPU time on the CPU backend) on @p process.
void apply_request_limits(RunnerProcess& process) {
    const auto ms = [](double seconds) { return std::chrono::milliseconds(static_cast<long long>(seconds * 1000)); };
    process.set_request_limit(ms(checker_options().request_limit_seconds));
    process.set_request_cpu_limit(ms(checker_options().request_cpu_limit_seconds));
}

RunnerProcess& started_runner() {
    switch_lab();
    if (!runner) {
        runner_command = checker_options().runner;
        runner = std::make_unique<RunnerProcess>(checker_options().runner, checker_options().deadline);
        apply_request_limits(*runner);
        std::printf("Sandbox: %s\n", runner->confinement().c_str());
        std::fflush(stdout);
        // The program's CUDA context is created by a request of its own, holding the GPU only as creating a context
        // needs (gpu_lease.hpp): with many programs starting at once that takes a second or more, and a check
        // waiting to time the GPU need not wait for it. Its reply is not read: the first real request says what
        // went wrong, if anything did.
        hold_gpu(GpuUse::starting);
        const SharedHoldRelease release;
        ReplyHeader header;
        runner->call_as_start(hello_request(), "starting the lab's program", header);
    }
    return *runner;
}

}  // namespace

namespace {
// Whether @p code's usual hint (hint_for) is about the launch or the memory it reached, which a rule of the launch
// that ran explains better when there is one (LabError's launch_rule).
bool launch_or_memory_error(int code) {
    switch (static_cast<cudaError_t>(code)) {
        case cudaErrorIllegalAddress:
        case cudaErrorMisalignedAddress:
        case cudaErrorInvalidValue:
        case cudaErrorInvalidConfiguration:
        case cudaErrorLaunchOutOfResources: return true;
        default: return false;
    }
}

std::string describe(const ReplyHeader& header, const std::string& who, const std::string& launch_rule,
                     const std::string& diagnosis) {
    switch (header.status) {
        case wire::Status::cuda_error: {
            // The runner says "kernel failed: ..." (or "launch failed: ..."): after a @p who that names the kernel
            // already, the word is not said twice.
            std::string message = header.message;
            const std::string kernel = " kernel";
            if (who.size() >= kernel.size() && who.compare(who.size() - kernel.size(), kernel.size(), kernel) == 0 &&
                (message.rfind("kernel failed", 0) == 0 || message.rfind("launch failed", 0) == 0))
                message.erase(0, message.find(' ') + 1);
            // The checker's own account goes first, before the runner's lines (which may hold hints of their own):
            // the diagnosis of the fault, or the rule of the kit's launch that a launch or memory error broke. The
            // first hint is the line the points table shows (check_record.hpp).
            std::string own = diagnosis;
            if (own.empty() && !launch_rule.empty() && launch_or_memory_error(header.code)) own = launch_rule;
            if (!own.empty()) {
                const std::size_t end = message.find('\n');
                return who + " " + message.substr(0, end) + "\n  hint: " + own +
                       (end == std::string::npos ? std::string() : message.substr(end));
            }
            std::string text = who + " " + message;
            // The CPU backend names the missing barrier: that is the hint (and the reason in the report).
            const std::size_t missing = header.message.find("A barrier is missing between");
            std::string hint = hint_for(static_cast<cudaError_t>(header.code));
            if (missing != std::string::npos)
                hint = header.message.substr(missing, header.message.find(':', missing) - missing) +
                       ": add a __syncthreads() there";
            if (!hint.empty()) text += "\n  hint: " + hint;
            return text;
        }
        case wire::Status::exception: {
            // The exception's text is the lab's own: its lines after the first are quoted ("  | "), as what the lab's
            // program prints is, so that none of them reads as the checker's hint.
            std::string text = who + " threw an exception: ";
            for (const char c : header.message) text += c == '\n' ? std::string("\n  | ") : std::string(1, c);
            return text;
        }
        case wire::Status::no_device: return "the lab's program found no usable GPU: " + header.message;
        default: return "the lab's program could not do what it was asked (" + header.message + ")";
    }
}
}  // namespace

LabError::LabError(const ReplyHeader& header, const std::string& who, const std::string& launch_rule,
                   const std::string& diagnosis)
    : std::runtime_error(describe(header, who, launch_rule, diagnosis)), context_lost_(header.context_lost) {}

void require_ok(const Reply& reply, const std::string& who, const std::string& launch_rule) {
    if (reply.header.status != wire::Status::ok) throw LabError(reply.header, who, launch_rule);
}

void require_complete(const wire::Reader& in, const std::string& doing) {
    if (!in.at_end())
        throw RunnerGone("the lab's program sent a reply of the wrong shape while " + doing +
                         "\n  hint: the channel between the checker and the lab's program is not the lab's to write to");
}

ReplyHeader read_header(wire::Reader& in) {
    ReplyHeader header;
    header.status = in.get<wire::Status>();
    header.code = in.get<std::int32_t>();
    header.name = in.get_string();
    header.message = in.get_string();
    header.context_lost = in.get<std::uint8_t>() != 0;
    header.fault.access = in.get<std::uint8_t>();
    header.fault.matrix = in.get<wire::Matrix>();
    header.fault.host_code = in.get<std::uint8_t>();
    header.fault.element = in.get<std::int64_t>();
    // Numbers from the lab's program: one out of range says nothing.
    if (header.fault.access > 2 || static_cast<std::uint8_t>(header.fault.matrix) > 3 || header.fault.host_code > 1)
        header.fault = wire::FaultSite{};
    return header;
}

wire::Reader body(const Reply& reply) {
    wire::Reader in(reply.bytes);
    read_header(in);
    return in;
}

void hold_gpu(GpuUse use) {
    const auto waited = gpu_lease().hold(use);
    if (waited <= std::chrono::steady_clock::duration::zero()) return;
    if (runner) {
        runner->postpone_deadline(waited);
    } else {
        CheckerOptions options = checker_options();
        options.deadline += waited;
        set_checker_options(std::move(options));
    }
}

Reply ask_runner(const wire::Writer& request, const std::string& doing) {
    // A check that measures the GPU holds it alone from its first request (the one that starts the runner's CUDA
    // context) until it ends; the others share it, one request at a time.
    return ask_runner(request, doing, checker_options().exclusive_gpu ? GpuUse::exclusive : GpuUse::shared);
}

Reply ask_runner(const wire::Writer& request, const std::string& doing, GpuUse use) {
    const SharedHoldRelease release;  // after the reply, or the failure
    Reply reply;
    // A lost context answers every later request with its error (on a GPU, and on the CPU backend): a request
    // after one, in a later test case of the same check, gets a program of its own.
    if (runner_lost_context) drop_runner();
    runner_lost_context = false;
    try {
        RunnerProcess& process = started_runner();
        hold_gpu(use);
        try {
            reply.bytes = process.call(request, doing, reply.header);
        } catch (const RunnerGone&) {
            if (process.ran_out_of_time()) a_request_ran_out = true;
            throw;
        }
    } catch (const RunnerGone&) {
        runner_unusable = true;
        throw;
    }
    if (reply.header.context_lost) runner_unusable = runner_lost_context = true;
    return reply;
}

// GCC 12 warns, wrongly, that appending the one field to the empty request overflows it (-Wstringop-overflow on
// std::vector::insert, a known false alarm of that release).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
wire::Writer hello_request() {
    wire::Writer request;
    request.put(wire::Op::hello);
    return request;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

wire::Writer load_lab_request(const std::string& module, int tile_width) {
    wire::Writer request;
    request.put(wire::Op::load_lab).put_string(module).put<std::int32_t>(tile_width);
    return request;
}

void begin_check() {
    if (runner_unusable) drop_runner();
    runner_unusable = false;
    if (!runner) return;
    runner->set_deadline(checker_options().deadline);
    apply_request_limits(*runner);
}

bool take_request_ran_out() { return std::exchange(a_request_ran_out, false); }

int finish_runner() { return runner ? runner->finish() : 0; }

int discard_runner() {
    int status = finish_runner();
    if (status == 0 && runner_dropped) status = 1;  // an earlier runner's status is not known
    runner_dropped = false;
    runner.reset();
    runner_command.clear();
    runner_unusable = runner_lost_context = false;
    return status;
}

std::string runner_confinement() { return runner ? runner->confinement() : std::string(); }

std::string runner_program() {
    const std::vector<std::string>& command = checker_options().runner;
    for (std::size_t i = 1; i < command.size(); ++i)
        if (command[i] == "--tile-width") return command[i - 1];
    return command.empty() ? std::string() : command.back();
}

}  // namespace tilelab::grader
