// The correctness checks: each test suite is one CTest test (lab, tile width, suite), run in its own checker
// process with its own runner, so that a kernel that faults or hangs costs only that test.
#include "check_shape.hpp"
#include "drawn_shapes.hpp"
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

// "37x20x45, 50x9x29".
std::string listed(const std::vector<Shape>& shapes) {
    std::string text;
    for (const Shape& shape : shapes) text += (text.empty() ? "" : ", ") + to_string(shape);
    return text;
}

// Multiplies @p shapes (a check's fixed list) and then @p drawn, the shapes its draw took from the seed
// (drawn_shapes.hpp), which the output names with the seed, so that a failure on one of them can be run again.
void check_shapes(std::vector<Shape> shapes, const std::vector<Shape>& drawn, Operands operands = Operands::uniform) {
    const LabUnderTest& lab = lab_under_test();
    const std::uint64_t seed = base_seed();
    const std::string from_seed = "drawn from the seed " + std::to_string(seed);
    const std::string again = "TILELAB_SEED=" + std::to_string(seed) + " draws the same again";
    if (!drawn.empty())
        MESSAGE(("besides the fixed shapes, " + listed(drawn) + ", " + from_seed + " (" + again + ")"));
    const std::size_t first_drawn = shapes.size();
    shapes.insert(shapes.end(), drawn.begin(), drawn.end());
    // Every suite watches the work spread on a shape or more (work_spread.hpp): one whose own are all too large to
    // watch (large) multiplies one small product more, so a kernel that one thread computes fails it too.
    const Shape small = work_spread_shape(lab);
    if (watches_work_spread(small) && std::none_of(shapes.begin(), shapes.end(), watches_work_spread))
        shapes.push_back(small);
    int failed = 0;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const Shape& shape = shapes[i];
        const bool was_drawn = i >= first_drawn && i < first_drawn + drawn.size();
        ShapeVerdict verdict;
        const std::string where = std::string(lab.name) + ", TILE_WIDTH " + std::to_string(lab.tile_width) +
                                  ", shape " + to_string(shape) + " (rows x inner x cols" +
                                  (was_drawn ? ", " + from_seed : "") + "): ";
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
        // The report names the shape; one drawn from the seed says so, since no list will show it.
        if (was_drawn) verdict.report += "\n  (" + to_string(shape) + " was " + from_seed + ": " + again + ")";
        if (++failed <= reports_shown) FAIL_CHECK(verdict.report);
    }
    if (failed > reports_shown)
        FAIL_CHECK(("and " + std::to_string(failed - reports_shown) + " more of " + std::to_string(shapes.size()) +
                    " shapes failed (not shown)"));
    MESSAGE((std::to_string(shapes.size() - failed) + " of " + std::to_string(shapes.size()) + " shapes correct"));
}

// A check's fixed shapes and those @p draw takes from the grading's seed.
void check_with_draw(const std::vector<Shape>& shapes, ShapeDraw draw) {
    check_shapes(shapes, drawn_shapes(lab_under_test(), draw, base_seed()));
}

}  // namespace

TEST_SUITE("tiny") {
    TEST_CASE("computes the smallest product") { check_shapes(tiny_shapes(lab_under_test()), std::vector<Shape>{}); }
}

TEST_SUITE("edges") {
    TEST_CASE("handles every dimension at 1 and around the tile width, and both sides of each fast path") {
        check_with_draw(edge_shapes(lab_under_test()), ShapeDraw::edges);
    }
}

// Not a check of its own: what each compute-sanitizer run multiplies (cmake/TileLab.cmake).
TEST_SUITE("sanitized") {
    TEST_CASE("multiplies partial and single tiles under compute-sanitizer") {
        check_with_draw(sanitizer_shapes(lab_under_test()), ShapeDraw::sanitizer);
    }
}

// The CPU backend's equal of the three compute-sanitizer checks: the same partial and single tiles, where the
// emulator checks every access against its buffer, every shared-memory access for a race and every barrier for
// divergence, in every run (docs/cpu-backend.md); any of them fails the run with its kernel, block and thread.
TEST_SUITE("emulator-checks") {
    TEST_CASE("multiplies partial and single tiles with no race, divergent barrier or access out of bounds") {
        check_with_draw(sanitizer_shapes(lab_under_test()), ShapeDraw::sanitizer);
    }
}

TEST_SUITE("odd-shapes") {
    TEST_CASE("handles prime, tall, wide and thin shapes") {
        check_with_draw(odd_shapes(lab_under_test()), ShapeDraw::odd);
    }
}

TEST_SUITE("large") {
    TEST_CASE("computes large products") { check_with_draw(large_shapes(lab_under_test()), ShapeDraw::large); }
}

TEST_SUITE("index-order") {
    TEST_CASE("keeps rows, columns and operands in order") {
        check_with_draw(index_order_shapes(lab_under_test()), ShapeDraw::index_order);
    }
}

// Operands of one sign over float32's range: a kernel that rounds its inputs or keeps its sums in half precision
// (range 6e-5 to 65504, 11 significant bits) fails here, one in TF32 or float32 passes (docs/grading.md).
TEST_SUITE("input-range") {
    TEST_CASE("keeps float32's range in its inputs and float32's precision in its sums") {
        check_shapes(input_range_shapes(lab_under_test()), std::vector<Shape>{}, Operands::wide_one_signed);
    }
    // TF32 labs only (an FP32 lab has nothing to convert): operands that show one element left unconverted at any
    // k, which the short sums of the edges show only at the first k (check_shape.hpp, Operands::tf32_steps).
    TEST_CASE("converts every input to TF32, at every step of k") {
        if (lab_under_test().input_precision != InputPrecision::tf32) return;
        check_shapes(tf32_step_shapes(lab_under_test()), std::vector<Shape>{}, Operands::tf32_steps);
    }
}

}  // namespace tilelab::grader
