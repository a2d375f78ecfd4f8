// The GPU backend's evidence of tiles in use, read from real cuobjdump -sass listings of sm_90 code (TILE_WIDTH 16):
// the model tiled kernel, the gate's "tiles-unused" kernel (tiles filled, product from global memory) and its
// "global-one-operand" kernel (N from global memory). Made with: nvcc -cubin -arch=sm_90 -DTILE_WIDTH=16, then
// cuobjdump -sass, encodings and blank lines removed. The pipeline check's: a model answer whose tiles arrive by
// asynchronous copies issued ahead of the multiply-adds (sass_async-pipelined.txt), the same copies waited for at
// once (sass_async-single-buffered.txt: the gate's "single-buffered" kernel) and the previous lab's model, whose
// tiles arrive through registers (sass_registers-no-async.txt: the gate's "previous-lab-model"), made with nvcc -c
// -O3 -arch=sm_90, then cuobjdump -sass, kept to the instructions the loop tally reads (runs of FFMA cut to their
// first four), their kernel renamed matmul_pipelined_kernel.
#include "sass_evidence.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace {
std::string fixture(const char* name) {
    std::ifstream in(std::string(TILELAB_UNIT_FIXTURES) + "/" + name);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}
const std::string kernel = tilelab::grader::mangled_prefix("matmul_tiled_kernel");
const std::string pipelined_kernel = tilelab::grader::mangled_prefix("matmul_pipelined_kernel");
}  // namespace

TEST_SUITE("sass_evidence") {
    TEST_CASE("names a kernel as the compiler mangles it") {
        CHECK(kernel == "_Z19matmul_tiled_kernel");
    }
    TEST_CASE("the model tiled kernel's inner product loads two tile elements per multiply-add") {
        const auto listings = tilelab::grader::parse_sass(fixture("sass_tiled.txt"), kernel);
        REQUIRE(listings.size() == 1);
        CHECK(listings[0].architecture == "sm_90");
        const auto* loop = tilelab::grader::tiled_inner_product(listings[0]);
        REQUIRE(loop != nullptr);
        CHECK(loop->multiply_adds == 16);
        CHECK(loop->shared_elements == 32);
    }
    TEST_CASE("tiles filled but not computed from, or one operand from global memory, show no such loop") {
        for (const char* name : {"sass_tiles-unused.txt", "sass_half-tiled.txt"}) {
            const auto listings = tilelab::grader::parse_sass(fixture(name), kernel);
            REQUIRE(listings.size() == 1);
            CHECK(!listings[0].loops.empty());
            CHECK(tilelab::grader::tiled_inner_product(listings[0]) == nullptr);
        }
    }
    TEST_CASE("another kernel's name finds nothing") {
        CHECK(tilelab::grader::parse_sass(fixture("sass_tiled.txt"), "_Z19matmul_naive_kernel").empty());
    }
    TEST_CASE("the pipelined model copies the next phases while it multiplies: LDGSTS, then FFMA, before the DEPBAR") {
        const auto listings = tilelab::grader::parse_sass(fixture("sass_async-pipelined.txt"), pipelined_kernel);
        REQUIRE(listings.size() == 1);
        const auto* loop = tilelab::grader::pipelined_loop(listings[0]);
        REQUIRE(loop != nullptr);
        CHECK(loop->copied_bytes > 0);
        CHECK(loop->stored_bytes == 0);
        CHECK(loop->waits == 1);
    }
    TEST_CASE("copies waited for before the multiply-adds, or tiles stored through registers, run nothing ahead") {
        const auto waited = tilelab::grader::parse_sass(fixture("sass_async-single-buffered.txt"), pipelined_kernel);
        REQUIRE(waited.size() == 1);
        CHECK(tilelab::grader::pipelined_loop(waited[0]) == nullptr);
        bool copies_in_a_loop = false;
        for (const auto& loop : waited[0].loops) copies_in_a_loop |= loop.copied_bytes > 0 && loop.waits > 0;
        CHECK(copies_in_a_loop);
        const auto stored = tilelab::grader::parse_sass(fixture("sass_registers-no-async.txt"), pipelined_kernel);
        REQUIRE(stored.size() == 1);
        CHECK(tilelab::grader::pipelined_loop(stored[0]) == nullptr);
        for (const auto& loop : stored[0].loops) CHECK(loop.copied_bytes == 0);
    }
    TEST_CASE("a wait that leaves batches in flight (DEPBAR.LE SB0, 0x1) lets the copies before it run ahead") {
        // The CUDA Samples' multi-stage form: the producer loop issues and commits the next stage, then the wait for
        // the oldest stage leaves the newest in flight through the multiply-adds. The single-buffered kernel's
        // listing with its wait for all (0x0) turned into a wait for all but one: the copies now overlap.
        std::string text = fixture("sass_async-single-buffered.txt");
        const std::string wait_all = "DEPBAR.LE SB0, 0x0";
        REQUIRE(text.find(wait_all) != std::string::npos);
        text.replace(text.find(wait_all), wait_all.size(), "DEPBAR.LE SB0, 0x1");
        const auto listings = tilelab::grader::parse_sass(text, pipelined_kernel);
        REQUIRE(listings.size() == 1);
        CHECK(tilelab::grader::pipelined_loop(listings[0]) != nullptr);
    }
    TEST_CASE("zeros stored for tile elements outside M or N are not tile data arriving by stores") {
        // The model's pipelined loop with a store of the zero register added after its barrier (the zero fill of
        // a kernel whose copies take only what lies inside): still pipelined, nothing counted as stored. The same
        // store of a data register is counted.
        const std::string barrier = "/*2b60*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n";
        std::string zeros = fixture("sass_async-pipelined.txt");
        REQUIRE(zeros.find(barrier) != std::string::npos);
        std::string data = zeros;
        zeros.insert(zeros.find(barrier) + barrier.size(), "        /*2b68*/                   STS [R6+0x4], RZ ;\n");
        data.insert(data.find(barrier) + barrier.size(), "        /*2b68*/                   STS [R6+0x4], R9 ;\n");
        const auto with_zeros = tilelab::grader::parse_sass(zeros, pipelined_kernel);
        REQUIRE(with_zeros.size() == 1);
        const auto* loop = tilelab::grader::pipelined_loop(with_zeros[0]);
        REQUIRE(loop != nullptr);
        CHECK(loop->stored_bytes == 0);
        const auto with_data = tilelab::grader::parse_sass(data, pipelined_kernel);
        REQUIRE(with_data.size() == 1);
        int stored = 0;
        for (const auto& l : with_data[0].loops) stored += l.stored_bytes;
        CHECK(stored >= 4);
    }
}
