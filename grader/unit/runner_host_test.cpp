// The runner host (grader/runner/runner_host.cpp), which loads each lab's module in turn so that a submission's labs
// share one CUDA context: it loads a module it is told, refuses a file that is not one with the loader's reason, and
// answers every request but hello with that reason while it has no lab. None of this needs a GPU: loading a module
// registers its kernels with the CUDA runtime, which meets the driver only at the first launch.
#include "runner_process.hpp"

#include <tilelab/wire.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#if defined(TILELAB_RUNNER_HOST) && defined(TILELAB_GATE_MODULE)
namespace {

using tilelab::grader::ReplyHeader;
using tilelab::grader::RunnerProcess;
namespace wire = tilelab::wire;

// The host, as the gate's programs run it (the kit's own, unconfined), with @p module first.
RunnerProcess host(const std::string& module) {
    return RunnerProcess({TILELAB_RUNNER_HOST, "--module", module, "--tile-width", "16"},
                         std::chrono::steady_clock::now() + std::chrono::seconds(60), true);
}

ReplyHeader load(RunnerProcess& process, const std::string& module) {
    wire::Writer request;
    request.put(wire::Op::load_lab).put_string(module).put<std::int32_t>(16);
    ReplyHeader header;
    process.call(request, "loading a module", header);
    return header;
}

}  // namespace

TEST_SUITE("runner_host") {
    TEST_CASE("the runner host loads a lab's module and refuses a file that is not one") {
        RunnerProcess process = host(TILELAB_GATE_MODULE);
        CHECK(load(process, TILELAB_GATE_MODULE).status == wire::Status::ok);
        const ReplyHeader refused = load(process, TILELAB_RUNNER_HOST);  // a program, not a module
        CHECK(refused.status == wire::Status::unsupported);
        CHECK(refused.message.find("cannot load") != std::string::npos);
        CHECK(load(process, TILELAB_GATE_MODULE).status == wire::Status::ok);  // and loads again after
        CHECK(process.finish() == 0);
    }

    TEST_CASE("a host whose module did not load answers every request with the reason") {
        RunnerProcess process = host("/nonexistent/module.so");
        wire::Writer request;
        request.put(wire::Op::free_memory);
        ReplyHeader header;
        process.call(request, "asking for free memory", header);
        CHECK(header.status == wire::Status::unsupported);
        CHECK(header.message.find("the lab's module could not be loaded") != std::string::npos);
        CHECK(header.message.find("/nonexistent/module.so") != std::string::npos);
    }
}
#endif
