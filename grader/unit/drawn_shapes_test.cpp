#include "drawn_shapes.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using tilelab::grader::LabUnderTest;
using tilelab::grader::Shape;
using tilelab::grader::ShapeDraw;

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

// Every configuration the kit grades: labs 01/03 and lab 02 at each TILE_WIDTH, and labs 05 and up.
std::vector<LabUnderTest> every_lab() {
    return {lab(8, false),          lab(16, false),          lab(32, false),  lab(8, true), lab(16, true),
            lab(32, true),          configured_lab(64, 8),   configured_lab(128, 8),
            configured_lab(128, 16), configured_lab(64, 16)};
}

const ShapeDraw every_draw[] = {ShapeDraw::edges, ShapeDraw::sanitizer, ShapeDraw::odd, ShapeDraw::index_order,
                                ShapeDraw::large};

std::tuple<int, int, int> key(const Shape& s) { return {s.rows, s.inner, s.cols}; }

// The ranges drawn_shapes.hpp documents for each draw, restated here: the lowest and highest of each size.
struct Range {
    int lo, hi;
    bool holds(int size) const { return lo <= size && size <= hi; }
};
struct Bounds {
    Range rows, inner, cols;
};
Bounds documented(const LabUnderTest& l, ShapeDraw draw) {
    const int b = l.tile(), d = l.depth(), t = l.tile_width, big = tilelab::grader::large_side;
    if (draw == ShapeDraw::large) {  // flat: rows and cols 1.5 to 3 times large_side
        const int low = big + big / 2 + 1, high = 3 * big;
        if (l.needs_tile_multiples) return {{low, high}, {t, t}, {low, high}};
        return {{low, high}, {1, big / 16}, {low, high}};
    }
    if (l.needs_tile_multiples) {
        switch (draw) {
            case ShapeDraw::edges: return {{t, 5 * t}, {t, 5 * t}, {t, 5 * t}};
            case ShapeDraw::sanitizer: return {{t, 4 * t}, {t, 4 * t}, {t, 4 * t}};
            case ShapeDraw::odd: return {{t, 8 * t}, {t, 8 * t}, {t, 8 * t}};
            case ShapeDraw::index_order: return {{t, 6 * t}, {t, 6 * t}, {t, 6 * t}};
            case ShapeDraw::large: break;
        }
    }
    switch (draw) {
        case ShapeDraw::edges: return {{b - 3, 2 * b + 3}, {std::max(1, d - 3), 3 * d + 3}, {b - 3, 2 * b + 3}};
        case ShapeDraw::sanitizer: return {{b + 1, 2 * b - 1}, {d + 1, 2 * d + 3}, {b + 1, 2 * b - 1}};
        case ShapeDraw::odd: return {{2, 3 * b}, {1, 3 * d}, {2, 3 * b}};
        case ShapeDraw::index_order: return {{2, 2 * b + 3}, {2, 2 * d + 3}, {2, 2 * b + 3}};
        case ShapeDraw::large: break;
    }
    return {};
}
}  // namespace

TEST_SUITE("drawn_shapes") {
    TEST_CASE("the same seed draws the same shapes") {
        for (const LabUnderTest& l : every_lab())
            for (ShapeDraw draw : every_draw) {
                CAPTURE(std::string(tilelab::grader::draw_name(draw)));
                const auto first = tilelab::grader::drawn_shapes(l, draw, 12345);
                const auto again = tilelab::grader::drawn_shapes(l, draw, 12345);
                REQUIRE(first.size() == again.size());
                for (std::size_t i = 0; i < first.size(); ++i) CHECK(key(first[i]) == key(again[i]));
            }
    }

    // The same on every machine: the draws use std::mt19937_64, whose every output the C++ standard fixes (it gives
    // the check value below), and the kit's own mapping onto a range (no std::uniform_int_distribution, which differs
    // between standard libraries), which reaches every value of its range and no other.
    TEST_CASE("the draws' generator is the standard's and the mapping covers its range") {
        std::mt19937_64 generator(42);
        // The standard's own check value of std::mt19937_64: its 10000th output from the default seed.
        std::mt19937_64 standard;
        standard.discard(9999);
        CHECK(standard() == 9981545732273789042ull);
        std::set<int> seen;
        for (int i = 0; i < 2000; ++i) {
            const int value = tilelab::grader::uniform_int(generator, -3, 3);
            CHECK(value >= -3);
            CHECK(value <= 3);
            seen.insert(value);
        }
        CHECK(seen.size() == 7);
    }

    TEST_CASE("different seeds draw different shapes") {
        for (const LabUnderTest& l : every_lab())
            for (ShapeDraw draw : every_draw) {
                CAPTURE(l.tile());
                CAPTURE(l.needs_tile_multiples);
                CAPTURE(std::string(tilelab::grader::draw_name(draw)));
                std::set<std::vector<std::tuple<int, int, int>>> draws;
                for (std::uint64_t seed = 1; seed <= 20; ++seed) {
                    std::vector<std::tuple<int, int, int>> keys;
                    for (const Shape& s : tilelab::grader::drawn_shapes(l, draw, seed)) keys.push_back(key(s));
                    draws.insert(keys);
                }
                // Twenty seeds: more than a couple of distinct draws in every range (lab 02's large has the
                // fewest: three multiples of T past large_side each way, never the same two).
                CHECK(draws.size() >= 3);
            }
    }

    TEST_CASE("every drawn shape lies within its bounds, is not square and is none of the listed ones") {
        for (const LabUnderTest& l : every_lab()) {
            const auto listed = tilelab::grader::listed_shapes(l);
            for (ShapeDraw draw : every_draw) {
                const std::uint64_t cost = tilelab::grader::draw_cost_bound(l, draw);
                for (std::uint64_t seed = 0; seed < 300; ++seed) {
                    const auto shapes = tilelab::grader::drawn_shapes(l, draw, seed);
                    for (std::size_t index = 0; index < shapes.size(); ++index) {
                        const Shape& s = shapes[index];
                        const Bounds bounds = documented(l, draw);
                        CAPTURE(l.tile());
                        CAPTURE(l.needs_tile_multiples);
                        CAPTURE(std::string(tilelab::grader::draw_name(draw)));
                        CAPTURE(tilelab::grader::to_string(s));
                        REQUIRE(bounds.rows.holds(s.rows));
                        REQUIRE(bounds.inner.holds(s.inner));
                        REQUIRE(bounds.cols.holds(s.cols));
                        REQUIRE(s.rows != s.cols);
                        REQUIRE(static_cast<std::uint64_t>(s.rows) * s.inner * s.cols <= cost);
                        if (l.needs_tile_multiples) {
                            REQUIRE(s.rows % l.tile_width == 0);
                            REQUIRE(s.inner % l.tile_width == 0);
                            REQUIRE(s.cols % l.tile_width == 0);
                        }
                        if (draw == ShapeDraw::index_order) REQUIRE((s.inner != s.rows && s.inner != s.cols));
                        REQUIRE(std::none_of(listed.begin(), listed.end(),
                                             [&](const Shape& other) { return key(other) == key(s); }));
                    }
                }
            }
        }
    }

    // Past the CPU backend's largest fixed shapes in both rows and cols, as a kernel that sized something for them
    // would not be.
    TEST_CASE("the large draw passes large_side in rows and in cols") {
        for (const LabUnderTest& l : every_lab())
            for (std::uint64_t seed = 0; seed < 50; ++seed)
                for (const Shape& s : tilelab::grader::drawn_shapes(l, ShapeDraw::large, seed)) {
                    CHECK(s.rows > tilelab::grader::large_side);
                    CHECK(s.cols > tilelab::grader::large_side);
                }
    }

    // Far past it in both (a kernel wrong only where rows and cols are both large, a bound of 300 say), thin in
    // inner so that it costs half what the cube does.
    TEST_CASE("the large draw is flat, with rows and cols far past large_side") {
        for (const LabUnderTest& l : every_lab())
            for (std::uint64_t seed = 0; seed < 50; ++seed) {
                const auto shapes = tilelab::grader::drawn_shapes(l, ShapeDraw::large, seed);
                REQUIRE(shapes.size() == 1);
                CHECK(shapes[0].rows > tilelab::grader::large_side * 3 / 2);
                CHECK(shapes[0].cols > tilelab::grader::large_side * 3 / 2);
            }
    }

    // Both sides of each tile edge and every residue of cols mod 4 (the 16-byte paths) come up over the seeds.
    TEST_CASE("the edge draws reach both sides of the tile edges and every residue mod 4") {
        for (const LabUnderTest& l : every_lab()) {
            if (l.needs_tile_multiples) continue;
            std::set<int> row_offsets, col_residues, inner_offsets;
            for (std::uint64_t seed = 0; seed < 200; ++seed)
                for (const Shape& s : tilelab::grader::drawn_shapes(l, ShapeDraw::edges, seed)) {
                    const int b = l.tile(), d = l.depth();
                    row_offsets.insert((s.rows + b / 2) % b - b / 2);  // distance to the nearest multiple of b
                    inner_offsets.insert((s.inner + d / 2) % d - d / 2);
                    col_residues.insert(s.cols % 4);
                }
            CAPTURE(l.tile());
            for (int offset = -1; offset <= 1; ++offset) {
                CHECK(row_offsets.count(offset) == 1);
                CHECK(inner_offsets.count(offset) == 1);
            }
            CHECK(col_residues.size() == 4);
        }
    }
}
