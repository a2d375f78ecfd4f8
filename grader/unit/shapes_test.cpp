#include "shapes.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using tilelab::grader::LabUnderTest;
using tilelab::grader::Shape;

namespace {
LabUnderTest lab(int tile_width, bool multiples) { return {"labXX", "launcher", tile_width, multiples, true}; }

// A lab with a configuration of its own (labs 05 and up): its block tile and phase depth.
LabUnderTest configured_lab(int block_tile, int phase_depth) {
    LabUnderTest l = lab(16, false);
    l.block_tile = block_tile;
    l.phase_depth = phase_depth;
    l.block_threads = 256;
    return l;
}

// Every lab that takes any shape, as the checker's table configures them (labs 01/03 at each TILE_WIDTH, 05-08).
std::vector<LabUnderTest> any_shape_labs() {
    return {lab(8, false),         lab(16, false),         lab(32, false),        configured_lab(64, 8),
            configured_lab(128, 8), configured_lab(128, 16)};
}

std::vector<Shape> every_shape(const LabUnderTest& l) {
    std::vector<Shape> all;
    for (auto make : {tilelab::grader::tiny_shapes, tilelab::grader::edge_shapes, tilelab::grader::odd_shapes,
                      tilelab::grader::large_shapes, tilelab::grader::index_order_shapes}) {
        const auto part = make(l);
        all.insert(all.end(), part.begin(), part.end());
    }
    return all;
}
}  // namespace

TEST_SUITE("shapes") {
    TEST_CASE("a lab that needs tile multiples only gets multiples") {
        for (int t : {8, 16, 32}) {
            for (const Shape& s : every_shape(lab(t, true))) {
                CAPTURE(t);
                CAPTURE(tilelab::grader::to_string(s));
                CHECK(s.rows % t == 0);
                CHECK(s.inner % t == 0);
                CHECK(s.cols % t == 0);
            }
        }
    }

    // A kernel that skips columns, rows or terms past some bound (grader/selftest/mutants.cmake,
    // naive-skips-far-columns) is caught only where a shape reaches beyond it.
    TEST_CASE("every lab multiplies a shape past 4096 in each dimension") {
        std::vector<LabUnderTest> labs = any_shape_labs();
        for (int t : {8, 16, 32}) labs.push_back(lab(t, true));
        for (const LabUnderTest& l : labs) {
            const auto all = every_shape(l);
            CAPTURE(l.tile());
            CHECK(std::any_of(all.begin(), all.end(), [](const Shape& s) { return s.rows > 4096; }));
            CHECK(std::any_of(all.begin(), all.end(), [](const Shape& s) { return s.inner > 4096; }));
            CHECK(std::any_of(all.begin(), all.end(), [](const Shape& s) { return s.cols > 4096; }));
        }
    }

    TEST_CASE("a lab for any shape meets 1, T-1, T and T+1 in every dimension") {
        for (int t : {8, 16, 32}) {
            const auto edges = tilelab::grader::edge_shapes(lab(t, false));
            for (int size : {1, t - 1, t, t + 1}) {
                CAPTURE(t);
                CAPTURE(size);
                CHECK(std::any_of(edges.begin(), edges.end(), [&](const Shape& s) {
                    return s.rows == size && s.inner == size && s.cols == size;
                }));
                CHECK(std::any_of(edges.begin(), edges.end(),
                                  [&](const Shape& s) { return s.rows == 1 && s.inner == size && s.cols == t + 1; }));
            }
        }
    }

    TEST_CASE("the shapes include 1x1x1, a large cube and all-different dimensions") {
        const auto all = every_shape(lab(16, false));
        auto has = [&](int r, int k, int c) {
            return std::any_of(all.begin(), all.end(),
                               [&](const Shape& s) { return s.rows == r && s.inner == k && s.cols == c; });
        };
        CHECK(has(1, 1, 1));
        CHECK(has(tilelab::grader::large_side, tilelab::grader::large_side, tilelab::grader::large_side));
        CHECK(has(97, 131, 61));
        CHECK(std::any_of(all.begin(), all.end(),
                          [](const Shape& s) { return s.rows != s.inner && s.inner != s.cols && s.rows != s.cols; }));
    }

    TEST_CASE("the edges reach both sides of every fast path with whole block tiles") {
        for (const LabUnderTest& l : any_shape_labs()) {
            const int b = l.tile(), d = l.depth();
            CAPTURE(b);
            CAPTURE(d);
            const auto edges = tilelab::grader::edge_shapes(l);
            // Two block tiles of rows and of columns, the first whole; inner past one phase.
            auto two_tiles = [&](const Shape& s) {
                return s.rows > b && s.rows <= 2 * b && s.cols > b && s.cols <= 2 * b && s.inner > d;
            };
            auto has = [&](auto&& also) {
                return std::any_of(edges.begin(), edges.end(), [&](const Shape& s) { return two_tiles(s) && also(s); });
            };
            for (int residue : {4, 8, 12}) {
                CAPTURE(residue);
                // Where an interior path on inner % 4 (or % 8) rather than % 16 reads past M's rows and N's end.
                CHECK(has([&](const Shape& s) { return s.inner % 16 == residue && s.cols % 4 == 0; }));
            }
            for (int residue : {0, 1, 2, 3}) {
                CAPTURE(residue);
                // Where a 16-byte access on a weaker test of cols is misaligned or runs past a row: a whole block
                // tile and a partial one in cols, one whole tile of rows at least.
                CHECK(std::any_of(edges.begin(), edges.end(), [&](const Shape& s) {
                    return s.rows >= b && s.cols > b && s.cols < 2 * b && s.inner > d && s.inner % 16 == 0 &&
                           s.cols % 4 == residue;
                }));
            }
            // An interior block beside a partial one in each direction, on the interior path's every other condition.
            auto interior_ok = [](const Shape& s) { return s.inner % 16 == 0 && s.cols % 4 == 0; };
            CHECK(has([&](const Shape& s) { return interior_ok(s) && s.cols % b != 0; }));
            CHECK(has([&](const Shape& s) { return interior_ok(s) && s.rows % b != 0; }));
            // And whole tiles beside the partial ones in the other direction.
            CHECK(has([&](const Shape& s) { return s.rows == 2 * b && s.cols % b != 0; }));
            CHECK(has([&](const Shape& s) { return s.cols == 2 * b && s.rows % b != 0; }));
        }
    }

    TEST_CASE("a lab that needs tile multiples gets no fast-path shapes") {
        CHECK(tilelab::grader::fast_path_shapes(lab(16, true)).empty());
    }
}
