// The checker's side of a lab's program (grader/process/runner_process.hpp): a program's start, which creates its CUDA
// context, is the driver's time, not the check's (a stand-in program, a shell script speaking the wire's framing,
// answers its first request late, as a context created in a burst of starts does, and its next one at once); and
// every program gets the CUDA settings the grader chooses, not the environment's.
#include "lab_runner.hpp"
#include "runner_process.hpp"

#include <tilelab/wire.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using tilelab::grader::hello_request;
using tilelab::grader::ReplyHeader;
using tilelab::grader::RunnerProcess;
namespace wire = tilelab::wire;
using namespace std::chrono_literals;

// Shell that writes one "ok" reply frame on the reply channel (fd 4): the frame's magic, its size (36 bytes) and
// the header (status, code, two empty strings, context not lost, no fault site), all zeros.
constexpr const char* ok_reply = "printf 'TLB1\\044\\0\\0\\0\\0\\0\\0\\0' >&4; head -c 36 /dev/zero >&4; ";

// A program (the kit's own: unconfined) that answers its first request after 1.5 s and the next at once, with the
// check's deadline 0.5 s away and a limit of 0.2 s a request.
std::unique_ptr<RunnerProcess> slow_starter() {
    const std::string script = std::string("sleep 1.5; ") + ok_reply + ok_reply + "sleep 5";
    auto process = std::make_unique<RunnerProcess>(std::vector<std::string>{"/bin/sh", "-c", script},
                                                   std::chrono::steady_clock::now() + 500ms, true);
    process->set_request_limit(200ms);
    return process;
}

}  // namespace

TEST_SUITE("runner_process") {
    TEST_CASE("a program's start does not count against the check's limits") {
        const auto process = slow_starter();
        ReplyHeader header;
        process->call_as_start(hello_request(), "starting the lab's program", header);
        CHECK(header.status == wire::Status::ok);
        // The check's deadline has moved by the start's 1.5 s: the next request, answered at once, is in time.
        CHECK_NOTHROW(process->call(hello_request(), "asking again", header));
    }

    TEST_CASE("a start asked as an ordinary request is held to the check's limits") {
        const auto process = slow_starter();
        ReplyHeader header;
        CHECK_THROWS_WITH_AS(process->call(hello_request(), "starting the lab's program", header),
                             doctest::Contains("in time"), std::runtime_error);
    }

    TEST_CASE("a request that runs out of its own limit says so; one whose program ends does not") {
        const auto program = [](const std::string& script) {
            auto process = std::make_unique<RunnerProcess>(std::vector<std::string>{"/bin/sh", "-c", script},
                                                           std::chrono::steady_clock::now() + 30s, true);
            process->set_request_limit(300ms);
            return process;
        };
        ReplyHeader header;
        const auto hung = program("sleep 5");
        CHECK_THROWS_WITH_AS(hung->call(hello_request(), "waiting", header), doctest::Contains("within 0.3 s"),
                             std::runtime_error);
        CHECK(hung->ran_out_of_time());
        const auto ended = program("exit 3");
        CHECK_THROWS_AS(ended->call(hello_request(), "ending", header), std::runtime_error);
        CHECK_FALSE(ended->ran_out_of_time());
    }

    TEST_CASE("a request that spins the CPU is stopped by the CPU time it used, one that waits is not") {
        // One spins a core and never answers (the shell itself, whose CPU time is the program's), as an emulated
        // kernel that never ends does; the other waits 1.2 s and answers. The CPU limit is 0.3 s and the
        // wall-clock limit 30 s, so the message tells which limit stopped the spinner, however loaded the machine
        // (on CI's two busy cores the spinner may get a third of a core).
        const auto program = [](const std::string& waiting) {
            auto process = std::make_unique<RunnerProcess>(
                std::vector<std::string>{"/bin/sh", "-c", waiting + ok_reply + "sleep 5"},
                std::chrono::steady_clock::now() + 60s, true);
            process->set_request_limit(30s);
            process->set_request_cpu_limit(300ms);
            return process;
        };
        ReplyHeader header;
        CHECK_THROWS_WITH_AS(program("while :; do :; done; ")->call(hello_request(), "spinning", header),
                             doctest::Contains("CPU time on one request"), std::runtime_error);
        CHECK_NOTHROW(program("sleep 1.2; ")->call(hello_request(), "waiting", header));
    }

    TEST_CASE("every program runs with one hardware queue per CUDA context, whatever the grader's environment") {
        ::setenv("CUDA_DEVICE_MAX_CONNECTIONS", "8", 1);
        RunnerProcess process({"/bin/sh", "-c", std::string("echo connections=$CUDA_DEVICE_MAX_CONNECTIONS; ") + ok_reply},
                              std::chrono::steady_clock::now() + 5s, true);
        ::unsetenv("CUDA_DEVICE_MAX_CONNECTIONS");
        ReplyHeader header;
        process.call(hello_request(), "asking", header);
        CHECK(process.finish() == 0);
        CHECK(process.printed().find("connections=1") != std::string::npos);
    }
}
