// The hints are pure CPU logic: each pattern is built here the way a buggy kernel would leave it.
#include "diagnose.hpp"

#include <tilelab/random.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <string>

using tilelab::HostMatrix;
using tilelab::grader::Shape;

namespace {
struct Scenario {
    Shape shape;
    HostMatrix M, N;
    tilelab::ReferenceProduct ref;
    std::vector<float> got;

    explicit Scenario(Shape s) : shape(s), M(s.rows, s.inner), N(s.inner, s.cols) {
        tilelab::fill_uniform(M, 5);
        tilelab::fill_uniform(N, 6);
        ref = tilelab::reference_matmul(M, N);
        for (double v : ref.value) got.push_back(static_cast<float>(v));
    }

    float& at(int r, int c) { return got[static_cast<std::size_t>(r) * shape.cols + c]; }

    std::string hints(int tile_width = 16) {
        const auto comparison = tilelab::compare(got.data(), ref);
        std::string all;
        for (const auto& hint : tilelab::grader::diagnose({shape, tile_width, M, N, ref, got, comparison}))
            all += hint + "\n";
        return all;
    }

    void set_from(const HostMatrix& A, const HostMatrix& B) {
        const auto other = tilelab::reference_matmul(A, B);
        for (std::size_t i = 0; i < got.size(); ++i) got[i] = static_cast<float>(other.value[i]);
    }
};

HostMatrix transposed(const HostMatrix& a) {
    HostMatrix t(a.cols(), a.rows());
    for (int r = 0; r < a.rows(); ++r)
        for (int c = 0; c < a.cols(); ++c) t.at(c, r) = a.at(r, c);
    return t;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_SUITE("diagnose") {
    TEST_CASE("nothing written says the kernel is not implemented") {
        Scenario s({20, 20, 20});
        for (float& x : s.got) x = tilelab::unwritten_value();
        CHECK(has(s.hints(), "nothing was written"));
    }

    TEST_CASE("an unwritten last partial tile says the grid is too small") {
        Scenario s({20, 9, 37});
        for (int r = 0; r < 20; ++r)
            for (int c = 0; c < 37; ++c)
                if (r >= 16 || c >= 32) s.at(r, c) = tilelab::unwritten_value();
        CHECK(has(s.hints(), "grid is too small"));
    }

    TEST_CASE("unwritten elements inside full tiles are not blamed on the grid") {
        Scenario s({20, 9, 37});
        s.at(3, 3) = tilelab::unwritten_value();
        const std::string hints = s.hints();
        CHECK_FALSE(has(hints, "grid is too small"));
        CHECK(has(hints, "never written"));
    }

    TEST_CASE("wrong values only in the last partial tile point at the boundary checks") {
        Scenario s({20, 9, 37});
        s.at(17, 2) += 1.0f;
        s.at(5, 33) += 1.0f;
        CHECK(has(s.hints(), "only elements in the last partial tile"));
    }

    TEST_CASE("NaN results point at reads past an input") {
        Scenario s({20, 9, 37});
        s.at(19, 36) = std::nanf("");
        CHECK(has(s.hints(), "results are NaN"));
    }

    TEST_CASE("a transposed result, a transposed input and swapped operands are named") {
        Scenario transposed_result({48, 48, 48});
        for (int r = 0; r < 48; ++r)
            for (int c = 0; c < 48; ++c)
                transposed_result.at(c, r) = static_cast<float>(transposed_result.ref.at(r, c));
        CHECK(has(transposed_result.hints(), "P holds the transpose of M * N"));

        Scenario m_by_column({48, 48, 48});
        m_by_column.set_from(transposed(m_by_column.M), m_by_column.N);
        CHECK(has(m_by_column.hints(), "M was read down a column"));

        Scenario n_by_row({48, 48, 48});
        n_by_row.set_from(n_by_row.M, transposed(n_by_row.N));
        CHECK(has(n_by_row.hints(), "N was read along a row"));

        Scenario swapped({48, 48, 48});
        swapped.set_from(swapped.N, swapped.M);
        CHECK(has(swapped.hints(), "operands are swapped"));
    }

    TEST_CASE("a shape with no full tile gets no boundary hint") {
        Scenario s({15, 9, 15});
        s.at(3, 3) += 1.0f;
        CHECK_FALSE(has(s.hints(), "only elements in the last partial tile"));
    }

    TEST_CASE("a wrong inner partial tile is named when every element is off") {
        Scenario s({16, 20, 16});
        for (float& x : s.got) x += 0.5f;
        CHECK(has(s.hints(), "the last phase covers a partial tile"));
    }

    TEST_CASE("noise everywhere on a full-tile shape gets no misleading hint") {
        Scenario s({32, 32, 48});
        for (float& x : s.got) x += 0.5f;
        CHECK(s.hints().empty());
    }
}
