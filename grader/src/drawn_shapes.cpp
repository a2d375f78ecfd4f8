#include "drawn_shapes.hpp"

#include <tilelab/random.hpp>

#include <algorithm>
#include <random>
#include <stdexcept>

namespace tilelab::grader {
namespace {

// How many shapes each draw takes: few, since each costs two runs of the lab (its launcher's, the kit's launch).
int shapes_per_draw(ShapeDraw draw) { return draw == ShapeDraw::edges ? 2 : 1; }

// Redraws before giving up: a draw's ranges hold far more acceptable shapes than listed or over-bound ones, so a
// draw that needs this many is a defect of the ranges (the unit tests draw thousands of seeds).
constexpr int attempts_allowed = 10000;

// A size within 3 of 1 to @p most multiples of @p edge: both sides of the edge, and every residue mod 4.
int near_multiple(std::mt19937_64& generator, int edge, int most) {
    const int size = edge * uniform_int(generator, 1, most) + uniform_int(generator, -3, 3);
    return std::max(1, size);
}

// The large draw's shape: rows and cols both far past large_side (1.5 to 3 times it), inner thin, so that it costs
// about half what the fixed cube does: a kernel wrong only where rows and cols are both large fails here.
Shape flat_large(const LabUnderTest& lab, std::mt19937_64& generator) {
    const int low = large_side + large_side / 2 + 1, high = 3 * large_side;
    if (lab.needs_tile_multiples) {
        const int t = lab.tile_width;
        return {t * uniform_int(generator, low / t + 1, high / t), t, t * uniform_int(generator, low / t + 1, high / t)};
    }
    return {uniform_int(generator, low, high), uniform_int(generator, 1, large_side / 16), uniform_int(generator, low, high)};
}

// One candidate shape of @p draw for @p lab (not yet tested against the cost bound or the fixed lists).
Shape candidate(const LabUnderTest& lab, ShapeDraw draw, std::mt19937_64& generator) {
    if (draw == ShapeDraw::large) return flat_large(lab, generator);
    const int b = lab.tile(), d = lab.depth();
    if (lab.needs_tile_multiples) {
        const int t = lab.tile_width;
        const auto multiple = [&](int lo, int hi) { return t * uniform_int(generator, lo, hi); };
        switch (draw) {
            case ShapeDraw::edges: return {multiple(1, 5), multiple(1, 5), multiple(1, 5)};
            case ShapeDraw::sanitizer: return {multiple(1, 4), multiple(1, 4), multiple(1, 4)};
            case ShapeDraw::odd: return {multiple(1, 8), multiple(1, 8), multiple(1, 8)};
            case ShapeDraw::index_order: return {multiple(1, 6), multiple(1, 6), multiple(1, 6)};
            case ShapeDraw::large: break;  // flat_large, above
        }
    }
    switch (draw) {
        case ShapeDraw::edges:
            return {near_multiple(generator, b, 2), near_multiple(generator, d, 3), near_multiple(generator, b, 2)};
        case ShapeDraw::sanitizer:
            return {uniform_int(generator, b + 1, 2 * b - 1), uniform_int(generator, d + 1, 2 * d + 3),
                    uniform_int(generator, b + 1, 2 * b - 1)};
        case ShapeDraw::odd:
            return {uniform_int(generator, 2, 3 * b), uniform_int(generator, 1, 3 * d), uniform_int(generator, 2, 3 * b)};
        case ShapeDraw::index_order:
            return {uniform_int(generator, 2, 2 * b + 3), uniform_int(generator, 2, 2 * d + 3),
                    uniform_int(generator, 2, 2 * b + 3)};
        case ShapeDraw::large: break;  // flat_large, above
    }
    throw std::logic_error("unknown shape draw");
}

std::uint64_t multiply_adds(const Shape& shape) {
    return static_cast<std::uint64_t>(shape.rows) * static_cast<std::uint64_t>(shape.inner) *
           static_cast<std::uint64_t>(shape.cols);
}

bool same(const Shape& a, const Shape& b) { return a.rows == b.rows && a.inner == b.inner && a.cols == b.cols; }

}  // namespace

const char* draw_name(ShapeDraw draw) {
    switch (draw) {
        case ShapeDraw::edges: return "edges";
        case ShapeDraw::sanitizer: return "sanitizer";
        case ShapeDraw::odd: return "odd";
        case ShapeDraw::index_order: return "index-order";
        case ShapeDraw::large: return "large";
    }
    return "unknown";
}

std::uint64_t draw_cost_bound(const LabUnderTest& lab, ShapeDraw draw) {
    const std::uint64_t d = static_cast<std::uint64_t>(lab.depth());
    if (draw == ShapeDraw::large) {  // flat_large's largest
        const std::uint64_t t = static_cast<std::uint64_t>(lab.tile_width), n = large_side;
        return 3 * n * 3 * n * (lab.needs_tile_multiples ? t : n / 16);
    }
    // Three halves of one block tile of P past an edge, over a phase and a bit: a lab with large block tiles (labs
    // 05 and up) reaches two tiles in one dimension with a thin inner, and the small labs reach all their ranges.
    const std::uint64_t b = static_cast<std::uint64_t>(lab.tile()) + 3;
    return std::max<std::uint64_t>(std::uint64_t{1} << 18, 3 * b * b * (d + 4) / 2);
}

std::vector<Shape> listed_shapes(const LabUnderTest& lab) {
    std::vector<Shape> all;
    for (auto list : {tiny_shapes, edge_shapes, sanitizer_shapes, odd_shapes, large_shapes, index_order_shapes,
                      input_range_shapes}) {
        const std::vector<Shape> part = list(lab);
        all.insert(all.end(), part.begin(), part.end());
    }
    return all;
}

std::vector<Shape> drawn_shapes(const LabUnderTest& lab, ShapeDraw draw, std::uint64_t seed) {
    // Its own stream of the seed for each draw, so that one draw's ranges changing leaves the others' shapes alone.
    std::mt19937_64 generator(derive_seed(seed, std::string("drawn shapes ") + draw_name(draw)));
    const std::vector<Shape> listed = listed_shapes(lab);
    const std::uint64_t bound = draw_cost_bound(lab, draw);
    std::vector<Shape> shapes;
    for (int attempt = 0; attempt < attempts_allowed && static_cast<int>(shapes.size()) < shapes_per_draw(draw);
         ++attempt) {
        const Shape shape = candidate(lab, draw, generator);
        const auto is_shape = [&](const Shape& other) { return same(shape, other); };
        if (shape.rows == shape.cols || multiply_adds(shape) > bound) continue;
        if (draw == ShapeDraw::index_order && (shape.inner == shape.rows || shape.inner == shape.cols)) continue;
        if (std::any_of(listed.begin(), listed.end(), is_shape) ||
            std::any_of(shapes.begin(), shapes.end(), is_shape))
            continue;
        shapes.push_back(shape);
    }
    if (static_cast<int>(shapes.size()) < shapes_per_draw(draw))
        throw std::logic_error(std::string("the ") + draw_name(draw) + " draw found too few shapes for " + lab.name);
    return shapes;
}

}  // namespace tilelab::grader
