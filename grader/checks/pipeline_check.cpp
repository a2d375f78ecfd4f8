// The pipeline check, of a lab whose tiles reach shared memory by asynchronous copies: the copies of a later phase
// are in flight while this phase is multiplied. On a GPU that is worth a few percent at most over the previous
// lab's model, less than the gate can tell from noise; this check sees the structure instead. On the CPU backend the emulator counts,
// in one multiply, the bytes written into shared memory, those landed by asynchronous copies, and those whose copy
// was in flight while its thread read shared memory (wire::SharedArrivals); on the GPU backend the kernel's machine
// code must show a loop of multiply-adds in which a copy (LDGSTS) is followed by multiply-adds before its wait
// (sass_evidence.hpp).
#include "guarded_buffer.hpp"
#include "lab_runner.hpp"
#include "lab_under_test.hpp"
#include "sass_evidence.hpp"
#include "runner_process.hpp"
#include "shapes.hpp"
#include "technique_evidence.hpp"

#include <tilelab/compare.hpp>
#include <tilelab/random.hpp>
#include <tilelab/reference.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

namespace tilelab::grader {

namespace {

// What a kernel that fails this check should do, for every message.
constexpr const char* pipeline_teaching =
    " In this lab each phase's tiles reach shared memory by __pipeline_memcpy_async, and the copies of the next phase "
    "are issued (and committed) before this phase's multiply-adds, so that they are in flight while it is multiplied: "
    "wait for phase p's batch, __syncthreads(), start the copies of phase p + kStages - 1, commit, then multiply from "
    "phase p's stage (the handout's step 4). A kernel that waits for its copies right after issuing them "
    "(__pipeline_wait_prior(0) before the multiply-adds that follow) or loads its tiles with ordinary loads and "
    "stores has nothing in flight while it multiplies";

// GPU backend: a loop of multiply-adds whose copies (LDGSTS) run ahead of them, in every architecture the program
// carries.
void check_machine_code(const LabUnderTest& lab) {
#ifdef TILELAB_CUOBJDUMP
    const std::string kernel = std::string(lab.launcher) + "_kernel";
    std::vector<SassListing> listings;
    try {
        listings = parse_sass(disassemble(TILELAB_CUOBJDUMP, runner_program()), mangled_prefix(kernel));
    } catch (const std::exception& error) {
        FAIL_CHECK(("the kit could not read the kernel's machine code: " + std::string(error.what())));
        return;
    }
    if (listings.empty()) {
        FAIL_CHECK(("the kit found no machine code of " + kernel + " in the lab's program (cuobjdump -sass)"));
        return;
    }
    for (const SassListing& listing : listings) {
        // Before sm_80 there is no asynchronous copy in the hardware: __pipeline_memcpy_async compiles to an
        // ordinary load and store there, and the copies cannot run ahead whatever the code says. The program's
        // code for those GPUs is left out (the CPU backend checks the kernel's structure on every submission).
        if (std::atoi(listing.architecture.c_str() + std::min<std::size_t>(3, listing.architecture.size())) < 80) {
            MESSAGE((kernel + " on " + listing.architecture + ": not checked, that architecture has no "
                     "asynchronous copies (cp.async, LDGSTS: sm_80 and newer)"));
            continue;
        }
        const SassLoop* pipelined = pipelined_loop(listing);
        if (pipelined != nullptr) {
            MESSAGE((kernel + " on " + listing.architecture + ": a loop of " +
                     std::to_string(pipelined->multiply_adds) + " multiply-adds issues " +
                     std::to_string(pipelined->copied_bytes) + " bytes of asynchronous copies (LDGSTS) that are "
                     "followed by multiply-adds before their wait (DEPBAR): the copies run ahead"));
            continue;
        }
        const SassLoop* busiest = nullptr;
        for (const SassLoop& loop : listing.loops)
            if (busiest == nullptr || loop.multiply_adds > busiest->multiply_adds) busiest = &loop;
        std::string seen;
        if (busiest == nullptr || busiest->multiply_adds == 0)
            seen = "no loop of multiply-adds at all";
        else if (busiest->copied_bytes == 0 && busiest->stored_bytes > 0)
            seen = "a loop of " + std::to_string(busiest->multiply_adds) + " multiply-adds whose tiles are stored "
                   "into shared memory by ordinary stores (" + std::to_string(busiest->stored_bytes) + " bytes of "
                   "STS) and no asynchronous copy (LDGSTS) in it: the tiles do not arrive by asynchronous copies";
        else if (busiest->copied_bytes > 0 && busiest->copied_bytes <= busiest->stored_bytes)
            seen = "a loop of " + std::to_string(busiest->multiply_adds) + " multiply-adds whose tiles arrive by "
                   "ordinary stores at least as much as by asynchronous copies (" +
                   std::to_string(busiest->stored_bytes) + " bytes of STS against " +
                   std::to_string(busiest->copied_bytes) + " of LDGSTS): the tiles must arrive by "
                   "__pipeline_memcpy_async";
        else if (busiest->copied_bytes == 0)
            seen = "a loop of " + std::to_string(busiest->multiply_adds) + " multiply-adds with no asynchronous "
                   "copy (LDGSTS) in it";
        else
            seen = "a loop of " + std::to_string(busiest->multiply_adds) + " multiply-adds with " +
                   std::to_string(busiest->copied_bytes) + " bytes of asynchronous copies (LDGSTS), each of them "
                   "waited for (DEPBAR) before the next multiply-add: no copy is in flight while the kernel "
                   "multiplies";
        FAIL_CHECK(("the machine code of " + kernel + " for " + listing.architecture + " (cuobjdump -sass) shows " +
                    seen + "." + pipeline_teaching));
    }
#else
    FAIL_CHECK(("the kit cannot check that " + std::string(lab.launcher) + "_kernel copies its tiles ahead: "
                "cuobjdump was not found when the kit was configured (it comes with the CUDA toolkit; tell your "
                "instructor)"));
#endif
}

// What a pipelined multiply sent back.
struct PipelinedRun {
    std::vector<float> P;
    bool counted = false;
    wire::SharedArrivals arrivals{};
};

// The kit's launch of the kernel on @p shape with the emulator counting how shared memory was filled.
PipelinedRun run_pipelined(const Shape& shape, const HostMatrix& M, const HostMatrix& N) {
    wire::Writer request;
    request.put(wire::Op::pipelined_multiply).put(wire::LaunchMode::contract).put<std::int32_t>(shape.rows);
    request.put<std::int32_t>(shape.inner).put<std::int32_t>(shape.cols);
    request.put<std::uint64_t>(0).put<std::uint8_t>(0).put(guard_bits).put(unwritten_bits);
    request.put_floats(M.data(), M.size()).put_floats(N.data(), N.size());
    const std::string doing = "multiplying " + to_string(shape) + " with the kit's launch of the kernel";
    const Reply reply = ask_runner(request, doing);
    require_ok(reply, "the kit's launch of the kernel");
    wire::Reader in = body(reply);
    PipelinedRun run;
    run.P = in.get_floats();
    run.counted = in.get<wire::LaunchCounts>().counted != 0;  // the rest: the shared-memory check's counts
    run.arrivals = in.get<wire::SharedArrivals>();
    require_complete(in, doing);
    if (run.P.size() != static_cast<std::size_t>(shape.rows) * shape.cols)
        throw RunnerGone("the lab's program sent back a P of the wrong size while " + doing);
    return run;
}

std::string percent(std::uint64_t part, std::uint64_t whole) {
    return std::to_string(whole == 0 ? 0 : (100 * part + whole / 2) / whole) + "%";
}

}  // namespace

TEST_SUITE("pipeline") {
    TEST_CASE("copies run ahead of the multiply-adds") {
        const LabUnderTest& lab = lab_under_test();
        // Whole block tiles and eight phases, every element inside M and N: nothing is zero-filled by a store, and
        // every phase but the first can be copied while the one before it is multiplied.
        const Shape shape{lab.tile(), 8 * lab.depth(), lab.tile()};
        HostMatrix M(shape.rows, shape.inner), N(shape.inner, shape.cols);
        fill_uniform(M, derive_seed(base_seed(), "pipeline M"));
        fill_uniform(N, derive_seed(base_seed(), "pipeline N"));
        PipelinedRun run;
        try {
            run = run_pipelined(shape, M, N);
        } catch (const std::exception& error) {
            FAIL(std::string(error.what()));
        }
        const std::string where = "multiplying " + to_string(shape) + " (8 phases, whole block tiles) with the kit's "
                                  "launch of the kernel, ";
        const Comparison check = compare(run.P.data(), reference_matmul(M, N));
        if (!check.passed())
            FAIL((where + "P is wrong (" + std::to_string(check.wrong + check.unwritten) + " of " +
                  std::to_string(run.P.size()) + " elements; the correctness checks show where and why), so the kit "
                  "cannot judge how its tiles arrive: make the kernel right first"));
        if (!run.counted) {
            check_machine_code(lab);
            return;
        }
        const wire::SharedArrivals& a = run.arrivals;
        const std::uint64_t written = a.stored + a.copied;
        const std::string counts = where + "the kernel wrote " + std::to_string(written) + " bytes into shared "
                                   "memory: " + std::to_string(a.copied) + " landed by asynchronous copies (" +
                                   std::to_string(a.overlapped) + " of them in flight while their thread read "
                                   "shared memory) and " + std::to_string(a.stored) + " by ordinary stores";
        MESSAGE(counts);
        // An honest pipeline: its tiles arrive by copies alone, and every phase's copies but the first overlap the
        // one before (7 of 8 here). Half is far from both that and from kernels with nothing in flight (0); three
        // quarters of the bytes copied rules out tiles half stored (one tile, or a token part of both).
        if (2 * a.overlapped >= written && 4 * a.copied >= 3 * written && written > 0) {
            MESSAGE(("the copies ran ahead: " + percent(a.overlapped, written) + " of what reached shared memory "
                     "was copied while the kernel multiplied"));
            // Bytes in flight while the thread read something are not yet copies that run ahead of the
            // multiply-adds (one token read between a copy and its wait is that too): the multiply-adds' reads must
            // be of tiles whose copies were in flight while the thread did a phase's work, as the model's are
            // (the technique check's count, technique_evidence.hpp).
            const LabEntry* entry = find_lab(lab.name);
            TechniqueComparison c;
            try {
                c = compare_technique(lab, *entry, TechniqueMeasure::async_in_flight,
                                      technique_shape(lab, TechniqueMeasure::async_in_flight, base_seed()),
                                      base_seed(), 0.5);
            } catch (const std::exception& error) {
                FAIL(std::string(error.what()));
            }
            const std::string share = std::to_string(static_cast<int>(100 * c.value + 0.5)) + "% of the kernel's "
                                      "shared reads were of tiles whose copies ran ahead of the multiply-adds (the "
                                      "model answer: " + std::to_string(static_cast<int>(100 * c.model_value + 0.5)) +
                                      "%; required " + std::to_string(static_cast<int>(100 * c.required + 0.5)) + "%)";
            if (c.value >= c.required)
                MESSAGE(share);
            else
                FAIL_CHECK((share + ": the copies were in flight while the thread did little else (a token read "
                            "between a copy and its wait?)." + std::string(pipeline_teaching)));
            return;
        }
        std::string seen;
        if (a.copied == 0)
            seen = "every byte of the tiles was stored by ordinary stores: the kernel uses no asynchronous copy "
                   "(the previous lab's loads through registers)";
        else if (4 * a.copied < 3 * written)
            seen = "only " + percent(a.copied, written) + " of the bytes reached shared memory by asynchronous "
                   "copies, the rest by ordinary stores: the tiles must arrive by __pipeline_memcpy_async";
        else if (a.overlapped == 0)
            seen = "every shared-memory read of the multiply-adds happened with no asynchronous copy of the "
                   "reading thread in flight: each copy was waited for before the next multiply-add";
        else
            seen = "only " + percent(a.overlapped, written) + " of the bytes were copied while the kernel "
                   "multiplied (an honest pipeline copies all phases but the first that way)";
        FAIL_CHECK((counts + ". " + seen + "; the copies of the next phase must be issued before this phase's "
                    "multiply-adds, so that they overlap." + pipeline_teaching));
    }
}

}  // namespace tilelab::grader
