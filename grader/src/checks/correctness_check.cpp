// The correctness checks: each test suite is one CTest test (lab, tile width, suite), run in its own checker
// process with its own runner, so that a kernel that faults or hangs costs only that test.
#include "check_shape.hpp"
#include "lab_runner.hpp"
#include "shapes.hpp"
#include "work_spread.hpp"

#include <tilelab/random.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace tilelab::grader {
namespace {

// A failing lab usually fails many shapes the same way; the first few reports say all there is to say.
constexpr int reports_shown = 3;

void check_shapes(std::vector<Shape> shapes, Operands operands = Operands::uniform) {
    const LabUnderTest& lab = lab_under_test();
    // Every suite watches the work spread on a shape or more (work_spread.hpp): one whose own are all too large to
    // watch (large) multiplies one small product more, so a kernel that one thread computes fails it too.
    const Shape small = work_spread_shape(lab);
    if (watches_work_spread(small) && std::none_of(shapes.begin(), shapes.end(), watches_work_spread))
        shapes.push_back(small);
    const std::uint64_t seed = base_seed();
    int failed = 0;
    for (const Shape& shape : shapes) {
        ShapeVerdict verdict;
        const std::string where = std::string(lab.name) + ", TILE_WIDTH " + std::to_string(lab.tile_width) +
                                  ", shape " + to_string(shape) + " (rows x inner x cols): ";
        try {
            verdict = check_shape(lab, shape, seed, operands);
        } catch (const LabError& error) {
            // Messages are built as std::string: doctest prints a const char* operand as a pointer.
            const std::string message = where + "CUDA error\n  " + std::string(error.what());
            if (!error.context_lost()) {
                if (++failed <= reports_shown) FAIL_CHECK(message);
                continue;
            }
            // After a fault the CUDA context is lost: every later shape would fail the same way.
            FAIL(message);
        } catch (const RunnerGone& gone) {
            FAIL((where + gone.what()));
        }
        if (verdict.passed) continue;
        if (++failed <= reports_shown) FAIL_CHECK(verdict.report);
    }
    if (failed > reports_shown)
        FAIL_CHECK(("and " + std::to_string(failed - reports_shown) + " more of " + std::to_string(shapes.size()) +
                    " shapes failed (not shown)"));
    MESSAGE((std::to_string(shapes.size() - failed) + " of " + std::to_string(shapes.size()) + " shapes correct"));
}

}  // namespace

TEST_SUITE("tiny") {
    TEST_CASE("computes the smallest product") { check_shapes(tiny_shapes(lab_under_test())); }
}

TEST_SUITE("edges") {
    TEST_CASE("handles every dimension at 1 and around the tile width, and both sides of each fast path") {
        check_shapes(edge_shapes(lab_under_test()));
    }
}

// Not a check of its own: what each compute-sanitizer run multiplies (cmake/TileLab.cmake).
TEST_SUITE("sanitized") {
    TEST_CASE("multiplies partial and single tiles under compute-sanitizer") {
        check_shapes(sanitizer_shapes(lab_under_test()));
    }
}

// The CPU backend's equal of the three compute-sanitizer checks: the same partial and single tiles, where the
// emulator checks every access against its buffer, every shared-memory access for a race and every barrier for
// divergence, in every run (docs/cpu-backend.md); any of them fails the run with its kernel, block and thread.
TEST_SUITE("emulator-checks") {
    TEST_CASE("multiplies partial and single tiles with no race, divergent barrier or access out of bounds") {
        check_shapes(sanitizer_shapes(lab_under_test()));
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

// Operands of one sign over float32's range: a kernel that rounds its inputs or keeps its sums in half precision
// (range 6e-5 to 65504, 11 significant bits) fails here, one in TF32 or float32 passes (docs/grading.md).
TEST_SUITE("input-range") {
    TEST_CASE("keeps float32's range in its inputs and float32's precision in its sums") {
        check_shapes(input_range_shapes(lab_under_test()), Operands::wide_one_signed);
    }
}

}  // namespace tilelab::grader
