// The GPU backend's evidence of tiles in use, read from real cuobjdump -sass listings of sm_90 code (TILE_WIDTH 16):
// the model tiled kernel, the gate's "tiles-unused" kernel (tiles filled, product from global memory) and its
// "global-one-operand" kernel (N from global memory). Made with: nvcc -cubin -arch=sm_90 -DTILE_WIDTH=16, then
// cuobjdump -sass, encodings and blank lines removed.
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
}
