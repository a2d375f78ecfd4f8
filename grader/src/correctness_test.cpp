// The correctness checks: each test suite is one CTest test (lab, tile width, suite), run in its own process
// so that a kernel that faults or hangs costs only that test.
#include "check_shape.hpp"
#include "shapes.hpp"

#include <tilelab/cuda_check.hpp>
#include <tilelab/random.hpp>

#include <doctest/doctest.h>

#include <vector>

namespace tilelab::grader {
namespace {

// A failing lab usually fails many shapes the same way; the first few reports say all there is to say.
constexpr int reports_shown = 3;

void check_shapes(const std::vector<Shape>& shapes) {
    const LabUnderTest& lab = lab_under_test();
    const std::uint64_t seed = base_seed();
    int failed = 0;
    for (const Shape& shape : shapes) {
        ShapeVerdict verdict;
        try {
            verdict = check_shape(lab, shape, seed);
        } catch (const CudaError& error) {
            // The CUDA context is lost after a fault: every later shape would fail the same way.
            FAIL(lab.name << ", TILE_WIDTH " << lab.tile_width << ", shape " << to_string(shape)
                          << " (rows x inner x cols): CUDA error\n  " << error.what());
        }
        if (verdict.passed) continue;
        if (++failed <= reports_shown) FAIL_CHECK(verdict.report);
    }
    if (failed > reports_shown)
        FAIL_CHECK("and " << failed - reports_shown << " more of " << shapes.size() << " shapes failed (not shown)");
    MESSAGE("" << shapes.size() - failed << " of " << shapes.size() << " shapes correct");
}

}  // namespace

TEST_SUITE("tiny") {
    TEST_CASE("computes the smallest product") { check_shapes(tiny_shapes(lab_under_test())); }
}

TEST_SUITE("edges") {
    TEST_CASE("handles every dimension at 1 and around the tile width") {
        check_shapes(edge_shapes(lab_under_test()));
    }
}

TEST_SUITE("odd-shapes") {
    TEST_CASE("handles prime, tall, wide and thin shapes") { check_shapes(odd_shapes(lab_under_test())); }
}

TEST_SUITE("large") {
    TEST_CASE("computes large products") { check_shapes(large_shapes(lab_under_test())); }
}

TEST_SUITE("index-order") {
    TEST_CASE("keeps rows, columns and operands in order") { check_shapes(index_order_shapes(lab_under_test())); }
}

}  // namespace tilelab::grader
