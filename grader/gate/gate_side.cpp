// One side of a performance gate's race and its timed request (gate_side.hpp).
#include "gate_side.hpp"

#include "lab_runner.hpp"

#include <chrono>
#include <cstring>

namespace tilelab::grader {

bool bits_equal(float a, float b) {
    std::uint32_t x, y;
    std::memcpy(&x, &a, sizeof x);
    std::memcpy(&y, &b, sizeof y);
    return x == y;
}

Reply Side::ask(const wire::Writer& request, const std::string& doing, GpuUse use) const {
    if (program != nullptr) return program->ask(request, doing, use);
    Reply reply = ask_runner(request, doing, use);
    require_ok(reply, "the kit's launch of the kernel");
    return reply;
}

Timed timed_request(Side& side, std::uint64_t seed, int sets, GpuUse use) {
    wire::Writer fill, launches;
    fill.put(wire::Op::perf_fill).put<std::uint64_t>(seed).put<std::int32_t>(sets);
    launches.put(wire::Op::perf_launches).put<std::int32_t>(sets);
    side.ask(fill, "drawing the operands", use);
    const auto start = std::chrono::steady_clock::now();
    const Reply reply = side.ask(launches, "running the timed kernels", use);
    const auto stop = std::chrono::steady_clock::now();
    Timed timed;
    timed.wall_ms = std::chrono::duration<double, std::milli>(stop - start).count();
    wire::Reader in = body(reply);
    if (in.get<std::int32_t>() != sets) throw RunnerGone(std::string(side.who) + " sent back the wrong number of results");
    for (int s = 0; s < sets; ++s) timed.digests.push_back(in.get<std::uint64_t>());
    timed.event_ms = in.get<float>();
    require_complete(in, "running the timed kernels");
    return timed;
}

}  // namespace tilelab::grader
