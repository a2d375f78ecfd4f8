// Lab 04's judge of one call of matmul_timed (grader/checks/timed_evidence.cpp), on observations made up here: what a
// CPU-backend runner reports for honest and dishonest calls, in device memory and in managed or pinned memory.
#include "timed_evidence.hpp"

#include <tilelab/compare.hpp>
#include <tilelab/gate_data.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using tilelab::grader::judge_timed_call;
using tilelab::grader::OperandDigests;
using tilelab::grader::Shape;
using tilelab::wire::TimedObservation;
using tilelab::wire::TraceStep;

enum Kind : std::uint8_t { allocation = 1, release = 2, copy = 3, launch = 4, event = 5, managed = 7, pinned = 8 };

const Shape shape{2, 3, 4};
constexpr int tile_width = 16;
constexpr std::uint64_t kernel = 0x400000;
constexpr std::uint64_t host_M = 0x7000000, host_N = 0x7100000, host_P = 0x7200000;
constexpr std::uint64_t at_M = 0x1000000, at_N = 0x2000000, at_P = 0x3000000;
constexpr std::uint64_t m_bytes = 2 * 3 * 4, n_bytes = 3 * 4 * 4, p_bytes = 2 * 4 * 4;

TraceStep step(std::uint8_t kind, std::uint64_t address, std::uint64_t bytes = 0, std::uint64_t source = 0,
               std::uint32_t detail = 0) {
    TraceStep s{};
    s.kind = kind, s.address = address, s.bytes = bytes, s.source = source, s.detail = detail;
    return s;
}

// The inputs and the P a call computes: M and N as the checker holds them, P as the kernel wrote it.
struct Call {
    std::vector<float> M{1, 2, 3, 4, 5, 6};
    std::vector<float> N{1, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1, 0};
    std::vector<float> P = std::vector<float>(8, 0.0f);
    Call() {
        for (int r = 0; r < 2; ++r)
            for (int c = 0; c < 4; ++c)
                for (int k = 0; k < 3; ++k) P[r * 4 + c] += M[r * 3 + k] * N[k * 4 + c];
    }
    OperandDigests digests() const {
        return {tilelab::gate::digest(M.data(), M.size()), tilelab::gate::digest(N.data(), N.size())};
    }
};

// What the runner reports for a call whose operands are allocated as @p kind (allocation, managed or pinned): the
// allocations, for device memory the copies, the events around the launch, the kernel's record with its digests.
TimedObservation observed(const Call& call, std::uint8_t kind) {
    TimedObservation seen;
    seen.host_M = host_M, seen.host_N = host_N, seen.host_P = host_P, seen.kernel = kernel;
    seen.has_record = 1, seen.has_trace = 1;
    tilelab::KernelRecord& r = seen.record;
    r.launches = 1, r.blocks = 1;
    r.grid[0] = r.grid[1] = r.grid[2] = 1;
    r.block[0] = r.block[1] = tile_width, r.block[2] = 1;
    r.M = at_M, r.N = at_N, r.P = at_P;
    r.rows = shape.rows, r.inner = shape.inner, r.cols = shape.cols;
    r.first_written = r.last_written = 1;
    r.first = call.P.front(), r.last = call.P.back();
    r.digested = 1;
    r.M_digest = call.digests().M, r.N_digest = call.digests().N;
    r.P_digest = tilelab::gate::digest(call.P.data(), call.P.size());
    std::vector<TraceStep>& t = seen.trace;
    t.push_back(step(kind, at_M, m_bytes));
    t.push_back(step(kind, at_N, n_bytes));
    t.push_back(step(kind, at_P, p_bytes));
    if (kind == allocation) {
        t.push_back(step(copy, at_M, m_bytes, host_M, 1));
        t.push_back(step(copy, at_N, n_bytes, host_N, 1));
    }
    TraceStep start = step(event, 0x10), run = step(launch, kernel), stop = step(event, 0x20);
    start.start_ns = start.end_ns = 1000;
    run.start_ns = 1000, run.end_ns = 6000;
    stop.start_ns = stop.end_ns = 6000;
    t.push_back(start), t.push_back(run), t.push_back(stop);
    if (kind == allocation) t.push_back(step(copy, host_P, p_bytes, at_P, 2));
    for (std::uint64_t at : {at_M, at_N, at_P}) t.push_back(step(release, at));
    return seen;
}

constexpr float events_ms = 0.005f;  // the 5000 ns between the events

}  // namespace

TEST_SUITE("timed_evidence") {
    TEST_CASE("device memory with its copies, managed memory and pinned memory with the kernel's digests pass") {
        const Call call;
        for (std::uint8_t kind : {allocation, managed, pinned})
            CHECK(judge_timed_call(shape, tile_width, events_ms, call.P, call.digests(), observed(call, kind)) == "");
    }

    TEST_CASE("managed memory that did not hold M when the kernel started fails, naming M") {
        const Call call;
        TimedObservation seen = observed(call, managed);
        std::vector<float> partial = call.M;
        partial[2] = 0.0f;  // one element of M never filled in
        seen.record.M_digest = tilelab::gate::digest(partial.data(), partial.size());
        const std::string verdict = judge_timed_call(shape, tile_width, events_ms, call.P, call.digests(), seen);
        CHECK(verdict.find("the managed (or pinned) memory the kernel read as M (0x1000000) did not hold M when the "
                           "kernel started") != std::string::npos);
        seen.record.M_digest = call.digests().M;
        seen.record.N_digest ^= 1;
        CHECK(judge_timed_call(shape, tile_width, events_ms, call.P, call.digests(), seen).find("read as N") !=
              std::string::npos);
    }

    TEST_CASE("a host P that is not the kernel's managed P fails, even with the first and last elements right") {
        const Call call;
        const TimedObservation seen = observed(call, managed);
        std::vector<float> host = call.P;
        host[3] += 1.0f;  // computed on the host, or changed after the copy
        const std::string verdict = judge_timed_call(shape, tile_width, events_ms, host, call.digests(), seen);
        CHECK(verdict.find("the host P is not what the kernel wrote into the managed (or pinned) memory") !=
              std::string::npos);
    }

    TEST_CASE("managed memory allocated after the launch, or never, is not the kernel's operand") {
        const Call call;
        TimedObservation seen = observed(call, managed);
        seen.trace.erase(seen.trace.begin() + 1);  // N's allocation gone
        const std::string verdict = judge_timed_call(shape, tile_width, events_ms, call.P, call.digests(), seen);
        CHECK(verdict.find("the kernel's N (0x2000000) is not a device buffer of 48 bytes that matmul_timed "
                           "allocated before the launch") != std::string::npos);
        seen = observed(call, managed);
        seen.trace[2].bytes = p_bytes - 4;  // too small for P
        CHECK(judge_timed_call(shape, tile_width, events_ms, call.P, call.digests(), seen).find("the kernel's P") !=
              std::string::npos);
    }

    TEST_CASE("device memory still needs its copies: the digests do not stand in for them") {
        const Call call;
        TimedObservation seen = observed(call, allocation);
        seen.trace.erase(seen.trace.begin() + 3);  // M's copy to the device gone
        CHECK(judge_timed_call(shape, tile_width, events_ms, call.P, call.digests(), seen)
                  .find("M was never copied to the device before the launch") != std::string::npos);
        seen = observed(call, allocation);
        seen.trace.erase(seen.trace.begin() + 8);  // P's copy back gone
        CHECK(judge_timed_call(shape, tile_width, events_ms, call.P, call.digests(), seen)
                  .find("P was never copied back from the device after the kernel") != std::string::npos);
    }

    TEST_CASE("a time that is not the events' fails in managed memory as in device memory") {
        const Call call;
        const std::string verdict =
            judge_timed_call(shape, tile_width, 1.0f, call.P, call.digests(), observed(call, managed));
        CHECK(verdict.find("but its events around the kernel measured 0.005000 ms") != std::string::npos);
    }
}
