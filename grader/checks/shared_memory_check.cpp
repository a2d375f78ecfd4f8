// The tiled labs must keep their tiles in shared memory, and use them: naive code in a tiled stub fails here,
// with a message that says so, even on a GPU where its caches make it fast. On the CPU backend the emulator also
// runs a graded multiply a second time with every float stored into shared memory scaled by s (tile_sources.hpp):
// P must come back scaled by s², so tiles that are declared (or filled, or read) but not computed from fail; on
// the GPU backend the kernel's machine code must show a loop whose multiply-adds load their operands from shared
// memory (sass_evidence.hpp).
#include "lab_runner.hpp"
#include "lab_under_test.hpp"
#include "sass_evidence.hpp"
#include "tile_sources.hpp"

#include <tilelab/random.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace tilelab::grader {

namespace {

// GPU backend: the evidence that the tiles are computed from is in the kernel's machine code, every architecture
// the program carries: a loop with multiply-adds (FFMA) that loads two tile elements (LDS) per multiply-add.
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
        const SassLoop* tiled = tiled_inner_product(listing);
        if (tiled != nullptr) {
            MESSAGE((kernel + " on " + listing.architecture + ": a loop of " + std::to_string(tiled->multiply_adds) +
                     " multiply-adds loads " + std::to_string(tiled->shared_elements) +
                     " tile elements from shared memory and " + std::to_string(tiled->global_elements) +
                     " from global memory"));
            continue;
        }
        const SassLoop* busiest = nullptr;
        for (const SassLoop& loop : listing.loops)
            if (busiest == nullptr || loop.multiply_adds > busiest->multiply_adds) busiest = &loop;
        const std::string seen =
            busiest == nullptr || busiest->multiply_adds == 0
                ? std::string("no loop of multiply-adds at all")
                : "its busiest loop has " + std::to_string(busiest->multiply_adds) + " multiply-adds (FFMA) fed by " +
                      std::to_string(busiest->shared_elements) + " elements loaded from shared memory (LDS) and " +
                      std::to_string(busiest->global_elements) + " from global memory (LDG)";
        FAIL_CHECK(("the kernel has its tiles, but its machine code for " + listing.architecture +
                    " (cuobjdump -sass) shows " + seen + "; a tiled kernel's inner product loads two tile elements "
                    "from shared memory per multiply-add: this looks like untiled (or half-tiled) code in a tiled "
                    "lab, with tiles that are not computed from: both operands of every multiply-add come from the "
                    "tiles"));
    }
#else
    FAIL_CHECK(("the kit cannot check that " + std::string(lab.launcher) + "_kernel computes from its tiles: cuobjdump "
                "was not found when the kit was configured (it comes with the CUDA toolkit; tell your instructor)"));
#endif
}

}  // namespace

TEST_SUITE("shared-memory") {
    TEST_CASE("keeps a tile of M and a tile of N in shared memory") {
        const LabUnderTest& lab = lab_under_test();
        const int t = lab.tile_width;
        // One run of one block (the CPU backend learns a kernel's static shared memory by running it); the dynamic
        // shared memory is what the kit's launch gives the kernel, the launcher's.
        const int rows = t, inner = 4 * t, cols = t;
        wire::Writer request;
        request.put(wire::Op::attributes).put<std::int32_t>(rows).put<std::int32_t>(inner).put<std::int32_t>(cols);
        const std::string doing = "reading the kernel's attributes";
        Reply reply;
        try {
            reply = ask_runner(request, doing);
            require_ok(reply, "the kernel");
        } catch (const std::exception& error) {
            FAIL(std::string(error.what()));
        }
        wire::Reader in = body(reply);
        const auto static_bytes = in.get<std::uint64_t>(), dynamic_bytes = in.get<std::uint64_t>();
        const std::uint64_t shared_bytes = static_bytes + dynamic_bytes;  // tiles in either kind count alike
        const int registers = in.get<std::int32_t>(), blocks_per_sm = in.get<std::int32_t>();
        // The counts of this run (on zeros): tile_sources.hpp's run decides.
        const bool counted = in.get<wire::LaunchCounts>().counted != 0;
        require_complete(in, doing);

        const std::size_t needed = 2 * static_cast<std::size_t>(t) * t * sizeof(float);
        const std::string found = std::to_string(shared_bytes);
        const int threads = t * t;
        MESSAGE(("TILE_WIDTH " + std::to_string(t) + ": " + std::to_string(threads) + " threads and " + found +
                 " bytes of shared memory per block (" + std::to_string(static_bytes) + " static, " +
                 std::to_string(dynamic_bytes) + " dynamic; two tiles need " + std::to_string(needed) + "), " +
                 std::to_string(registers) + " registers per thread; " + std::to_string(blocks_per_sm) +
                 " blocks (" + std::to_string(blocks_per_sm * threads) + " threads) fit on one multiprocessor"));
        if (shared_bytes < needed)
            FAIL_CHECK(("the kernel uses " + found + " bytes of shared memory, but two TILE_WIDTH x TILE_WIDTH "
                        "float tiles need 2 * " + std::to_string(t) + " * " + std::to_string(t) + " * 4 = " +
                        std::to_string(needed) + " bytes: this looks like untiled code in a tiled lab. Declare "
                        "__shared__ float M_tile[TILE_WIDTH][TILE_WIDTH] and N_tile the same way, and compute "
                        "from them"));
        if (shared_bytes < needed) return;
        if (!counted) {
            check_machine_code(lab);
            return;
        }
        // The evidence that the tiles are computed from: a graded multiply with random operands, run again with
        // every float stored into shared memory scaled (tile_sources.hpp).
        TileSources sources;
        try {
            sources = check_tile_sources(lab, base_seed());
        } catch (const std::exception& error) {
            FAIL(std::string(error.what()));
        }
        if (!sources.counts.empty()) MESSAGE(sources.counts);
        if (sources.passed)
            MESSAGE(sources.report);
        else
            FAIL_CHECK(sources.report);
    }
}

}  // namespace tilelab::grader
