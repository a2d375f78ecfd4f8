#include "shapes.hpp"

namespace tilelab::grader {

std::string to_string(const Shape& shape) {
    return std::to_string(shape.rows) + "x" + std::to_string(shape.inner) + "x" + std::to_string(shape.cols);
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
    return shapes;
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
    if (lab.needs_tile_multiples)
        return {{7 * t, 11 * t, 5 * t}, {32 * t, t, 2 * t}, {2 * t, 3 * t, 32 * t}, {8 * t, t, 9 * t}};
    return {
        {97, 131, 61},     // primes
        {1031, 37, 29},    // tall
        {29, 41, 1031},    // wide
        {257, 1, 263},     // thin inner dimension
        {131, 2, 127},
        {1, 1000, 1},      // one long dot product
    };
}

std::vector<Shape> large_shapes(const LabUnderTest& lab) {
    const int n = large_side;
    if (lab.needs_tile_multiples) return {{n, n, n}};
    return {{n, n, n}, {n - 1, n + 1, n - 3}};
}

std::vector<Shape> index_order_shapes(const LabUnderTest& lab) {
    const int t = lab.tile_width;
    if (lab.needs_tile_multiples) return {{64, 64, 64}, {2 * t, 3 * t, 5 * t}, {5 * t, 3 * t, 2 * t}};
    return {{64, 64, 64}, {37, 53, 71}, {71, 53, 37}};
}

}  // namespace tilelab::grader
