#include "shapes.hpp"

#include <algorithm>
#include <cstdlib>

namespace tilelab::grader {

std::string to_string(const Shape& shape) {
    return std::to_string(shape.rows) + "x" + std::to_string(shape.inner) + "x" + std::to_string(shape.cols);
}

int performance_gate_size() {
    // 2048³: the smallest size tried at which every gate kernel's verdict held 20 of 20 on the H100 and the H200
    // (docs/benchmarks.md#gate_2048); a race there costs a third of 4096³'s GPU time.
    const char* text = std::getenv("TILELAB_PERF_SIZE");
    const int size = text != nullptr && *text != '\0' ? std::atoi(text) : 0;
    return size > 0 ? size : 2048;
}

std::vector<Shape> tiny_shapes(const LabUnderTest& lab) {
    const int t = lab.tile_width;
    if (lab.needs_tile_multiples) return {{t, t, t}};
    return {{1, 1, 1}};
}

std::vector<Shape> edge_shapes(const LabUnderTest& lab) {
    const int t = lab.tile_width;
    if (lab.needs_tile_multiples) {
        std::vector<Shape> shapes;
        for (int rows : {t, 2 * t, 3 * t})
            for (int inner : {t, 2 * t, 3 * t})
                for (int cols : {t, 2 * t, 3 * t}) shapes.push_back({rows, inner, cols});
        return shapes;
    }
    // Around the block's tile of P for rows and cols, around one phase's depth for inner (the same for the
    // TILE_WIDTH labs; labs 05 and up have their own).
    const int b = lab.tile(), d = lab.depth();
    std::vector<Shape> shapes;
    for (int rows : {1, b - 1, b, b + 1})
        for (int inner : {1, d - 1, d, d + 1})
            for (int cols : {1, b - 1, b, b + 1}) shapes.push_back({rows, inner, cols});
    const std::vector<Shape> fast = fast_path_shapes(lab);
    shapes.insert(shapes.end(), fast.begin(), fast.end());
    return shapes;
}

std::vector<Shape> fast_path_shapes(const LabUnderTest& lab) {
    if (lab.needs_tile_multiples) return {};
    // The fast paths seen: 16-byte loads and copies where a row's length is a multiple of 4, and blocks whose tiles
    // lie inside M and N in every phase (a pipelined model's: whole block tiles, inner a multiple of its 16-deep
    // phase, cols a multiple of 4). A weak condition shows only where the strong one is false and the weak one true:
    // inner 4, 8 or 12 past a multiple of 16, cols 1, 2 or 3 past a multiple of 4, a partial tile beside a whole
    // one. base is a multiple of 16 at least one phase deep, so that every inner below has two phases or more.
    const int b = lab.tile();
    const int base = (lab.depth() + 15) / 16 * 16;
    return {
        {2 * b, base + 4, b + 4},   // inner = 4 (mod 16), cols = 0 (mod 4): whole row tiles, a partial column tile
        {b + 1, base + 8, 2 * b},   // inner = 8 (mod 16): whole column tiles, a partial row tile
        {b + 3, base + 12, b + 8},  // inner = 12 (mod 16)
        {b + 2, base + 16, b + 4},  // inner = 0 (mod 16), cols = 0 (mod 4): one interior block, three partial ones
        // cols 1, 2, 3 (mod 4) beside a whole block tile: one tile of rows is enough, and halves their cost.
        {b, base + 16, b + 1},
        {b, base + 16, b + 2},  // every other row of N starts 8 bytes off a 16-byte boundary
        {b, base + 16, b + 3},
    };
}

std::vector<Shape> sanitizer_shapes(const LabUnderTest& lab) {
    const int t = lab.tile_width;
    std::vector<Shape> shapes;
    if (lab.needs_tile_multiples) {
        for (int rows : {t, 2 * t})
            for (int inner : {t, 2 * t})
                for (int cols : {t, 2 * t}) shapes.push_back({rows, inner, cols});
        return shapes;
    }
    // A partial block tile of P (rows, cols) and a partial phase (inner) past a whole one, as in edge_shapes.
    const int b = lab.tile(), d = lab.depth();
    for (int rows : {1, b + 1})
        for (int inner : {1, d + 1})
            for (int cols : {1, b + 1}) shapes.push_back({rows, inner, cols});
    return shapes;
}

std::vector<Shape> odd_shapes(const LabUnderTest& lab) {
    const int t = lab.tile_width;
    // Past 4096 in each dimension (every other shape stays under 1100, the large ones included): a kernel that
    // drops columns, rows or terms beyond some bound (a buffer sized 1024, a block limit) fails here. Thin, so cheap.
    const int far = (4096 / t + 1) * t;
    if (lab.needs_tile_multiples)
        return {{7 * t, 11 * t, 5 * t}, {32 * t, t, 2 * t}, {2 * t, 3 * t, 32 * t}, {8 * t, t, 9 * t},
                {t, t, far}, {far, t, t}, {t, far, t}};
    return {
        {97, 131, 61},     // primes
        {1031, 37, 29},    // tall
        {29, 41, 1031},    // wide
        {257, 1, 263},     // thin inner dimension
        {131, 2, 127},
        {1, 1000, 1},      // one long dot product
        {3, 2, 4099},      // far columns, far rows, a far inner dimension (4099 is prime)
        {4099, 2, 3},
        {1, 4099, 1},
    };
}

std::vector<Shape> large_shapes(const LabUnderTest& lab) {
    static_cast<void>(lab);  // the same for every lab; partial tiles at this size are the large draw's (drawn_shapes.hpp)
    const int n = large_side;
    return {{n, n, n}};
}

std::vector<Shape> index_order_shapes(const LabUnderTest& lab) {
    const int t = lab.tile_width;
    if (lab.needs_tile_multiples) return {{64, 64, 64}, {2 * t, 3 * t, 5 * t}, {5 * t, 3 * t, 2 * t}};
    return {{64, 64, 64}, {37, 53, 71}, {71, 53, 37}};
}

std::vector<Shape> input_range_shapes(const LabUnderTest& lab) {
    const int t = lab.tile();
    if (lab.needs_tile_multiples) return {{t, 2048, t}};
    return {{40, 2100, 70}, {3, 2050, 19}};  // one block each: the CPU backend emulates every multiply-add
}

std::vector<Shape> tf32_step_shapes(const LabUnderTest& lab) {
    const int t = lab.tile();
    const int band = tf32_step_band;
    // The last shape is deep: few rows and columns, and an inner dimension past every other shape's (4099 at most,
    // odd_shapes), so that a conversion left out only past some k is seen wherever another check or the gate
    // computes. Deeper costs the CPU backend seconds per lab and shows nothing any shape graded would.
    const int deep = 4096 + 2 * band;
    // Rows past the band's width still, so that every k is some row's.
    if (lab.needs_tile_multiples) return {{std::max(t, band), 2 * band, t}, {std::max(t, band), deep, t}};
    return {{2 * band, 2 * band, band}, {band + 36, 2 * band + 5, 40}, {band + 7, deep + 2 * band + 5, 17}};
}

}  // namespace tilelab::grader
