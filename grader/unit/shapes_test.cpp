#include "shapes.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using tilelab::grader::LabUnderTest;
using tilelab::grader::Shape;

namespace {
LabUnderTest lab(int tile_width, bool multiples) { return {"labXX", "launcher", tile_width, multiples, true}; }

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
}
