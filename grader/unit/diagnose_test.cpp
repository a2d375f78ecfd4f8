// The hints are pure CPU logic: each pattern is built here the way a buggy kernel would leave it.
#include "diagnose.hpp"
#include "lab_runner.hpp"

#include <tilelab/cpu/past_end.hpp>
#include <tilelab/random.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
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

    // The hints for the kit's launch of the kernel (the launcher's P was right), for @p lab.
    std::string contract_hints(const tilelab::grader::LabUnderTest& lab) {
        const auto comparison = tilelab::compare(got.data(), ref);
        std::string all;
        for (const auto& hint :
             tilelab::grader::diagnose_contract_launch(lab, {shape, lab.tile(), M, N, ref, got, comparison}))
            all += hint + "\n";
        return all;
    }

    // What a kernel that takes its row from x and its column from y leaves under the kit's launch (x over columns,
    // in blocks of @p tile): right values where x reaches rows and y columns, the rest never written.
    void leave_x_over_rows(int tile) {
        const int rows_reached = std::min(shape.rows, (shape.cols + tile - 1) / tile * tile);
        const int cols_reached = std::min(shape.cols, (shape.rows + tile - 1) / tile * tile);
        for (int r = 0; r < shape.rows; ++r)
            for (int c = 0; c < shape.cols; ++c)
                if (r >= rows_reached || c >= cols_reached) at(r, c) = tilelab::unwritten_value();
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

// Lab 01 at TILE_WIDTH 16, and a lab with its own configuration (128 x 128 block tiles, 16 deep, 256 threads).
tilelab::grader::LabUnderTest naive_lab() { return {"lab01", "matmul_naive", 16, false, false}; }
tilelab::grader::LabUnderTest block_tile_lab() {
    tilelab::grader::LabUnderTest lab{"own-configuration", "matmul_block_tiles", 16, false, false};
    lab.block_tile = 128;
    lab.phase_depth = 16;
    lab.block_threads = 256;
    return lab;
}
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
        CHECK_FALSE(has(s.hints(), "just past the end of every device buffer"));
    }

    TEST_CASE("NaN results with the CPU backend's past-the-end bits say where they came from") {
        Scenario s({20, 9, 37});
        const std::uint32_t quieted = tilelab::cpu::past_end_poison_bits | 0x00400000u;  // as arithmetic leaves it
        float value = 0;
        std::memcpy(&value, &quieted, sizeof value);
        s.at(19, 36) = value;
        CHECK(has(s.hints(), "results are NaN: the kernel read past the end of M or N (these results carry the NaN "
                             "that the CPU backend keeps in the bytes just past the end of every device buffer)"));
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

    TEST_CASE("the kit's launch is described for the shape: grid, block, x over columns, y over rows") {
        const std::string naive = tilelab::grader::describe_contract_launch(naive_lab(), {20, 9, 37});
        CHECK(has(naive, "grid (3, 2) of blocks (16, 16)"));
        CHECK(has(naive, "x = blockIdx.x * blockDim.x + threadIdx.x runs over the columns of P (0 to 47, P has 37)"));
        CHECK(has(naive, "over its rows (0 to 31, P has 20)"));
        const std::string tiles = tilelab::grader::describe_contract_launch(block_tile_lab(), {300, 9, 130});
        CHECK(has(tiles, "grid (2, 3) of blocks (256, 1), each a 128 x 128 tile of P"));
        CHECK(has(tiles, "blockIdx.x * 128 is the tile's first column (columns 0 to 255, P has 130)"));
    }

    TEST_CASE("a kernel that maps x to rows is named outright under the kit's launch") {
        for (const Shape shape : {Shape{20, 9, 37}, Shape{37, 9, 20}, Shape{1, 1, 17}}) {
            CAPTURE(tilelab::grader::to_string(shape));
            Scenario s(shape);
            s.leave_x_over_rows(16);
            const std::string hints = s.contract_hints(naive_lab());
            CHECK(has(hints, "the kernel maps x to rows and y to columns"));
            CHECK(has(hints, "col = blockIdx.x * blockDim.x + threadIdx.x"));
            CHECK_FALSE(has(hints, "likely causes"));
        }
        Scenario s({20, 9, 37});
        s.leave_x_over_rows(16);
        CHECK(has(s.contract_hints(naive_lab()), "it wrote exactly the elements with row < 20 and col < 32, all of them right"));
        // A lab with its own 128 x 128 block tiles: whole tiles swap, the threads within a block do not.
        Scenario w({300, 4, 130});
        w.leave_x_over_rows(128);
        const std::string tiles = w.contract_hints(block_tile_lab());
        CHECK(has(tiles, "with row < 256 and col < 130"));
        CHECK(has(tiles, "the tile starts at column blockIdx.x * 128 and row blockIdx.y * 128"));
    }

    TEST_CASE("the x-over-rows pattern needs every reached element right and every other one unwritten") {
        Scenario wrong_inside({20, 9, 37});
        wrong_inside.leave_x_over_rows(16);
        wrong_inside.at(3, 3) += 1.0f;
        Scenario written_outside({20, 9, 37});
        written_outside.leave_x_over_rows(16);
        written_outside.at(5, 35) = 0.0f;
        for (Scenario* s : {&wrong_inside, &written_outside}) {
            const std::string hints = s->contract_hints(naive_lab());
            CHECK_FALSE(has(hints, "the kernel maps x to rows"));
            CHECK(has(hints, "likely causes"));
        }
    }

    TEST_CASE("otherwise the causes come in order: x mapped to rows, a grid or block of one's own, the host") {
        Scenario row_zero({20, 9, 37});  // a 1D grid of the student's own: only the first row reached
        for (int r = 1; r < 20; ++r)
            for (int c = 0; c < 37; ++c) row_zero.at(r, c) = tilelab::unwritten_value();
        const std::string hints = row_zero.contract_hints(naive_lab());
        CHECK(has(hints, "its threads cover less of P than under your launcher"));
        const auto first = hints.find("(1) x mapped to rows"), second = hints.find("(2) the kernel relies on a grid or block"),
                   third = hints.find("(3) your launcher computes P itself, on the host or through another kernel");
        REQUIRE(first != std::string::npos);
        REQUIRE(second != std::string::npos);
        REQUIRE(third != std::string::npos);
        CHECK(first < second);
        CHECK(second < third);

        Scenario nothing({20, 9, 37});
        for (float& x : nothing.got) x = tilelab::unwritten_value();
        CHECK(has(nothing.contract_hints(naive_lab()), "the kernel wrote nothing under the kit's launch"));
    }

    TEST_CASE("a square shape is never blamed on x mapped to rows: both mappings reach all of P") {
        Scenario s({20, 20, 20});
        s.at(19, 19) = tilelab::unwritten_value();
        CHECK_FALSE(has(s.contract_hints(naive_lab()), "the kernel maps x to rows"));
    }

    TEST_CASE("TF32 inputs truncated instead of converted: close misses name __float_to_tf32, far ones do not") {
        // A short inner dimension, where one truncated product (up to twice TF32's rounding error per input) is
        // the whole sum; over long sums the errors average out within TF32's bound, and no grader can tell them.
        Scenario s({32, 2, 32});
        s.ref.input_precision = tilelab::InputPrecision::tf32;
        auto truncated = [](float x) {  // the top 19 bits, as tensor cores take an unconverted float
            std::uint32_t bits = 0;
            std::memcpy(&bits, &x, sizeof bits);
            bits &= 0xFFFFE000u;
            std::memcpy(&x, &bits, sizeof x);
            return x;
        };
        for (int r = 0; r < 32; ++r)
            for (int c = 0; c < 32; ++c) {
                double sum = 0.0;
                for (int k = 0; k < 2; ++k)
                    sum += static_cast<double>(truncated(s.M.at(r, k))) * truncated(s.N.at(k, c));
                s.at(r, c) = static_cast<float>(sum);
            }
        REQUIRE_FALSE(tilelab::compare(s.got.data(), s.ref).passed());  // some product errs past TF32's bound
        CHECK(has(s.hints(), "wmma::__float_to_tf32"));
        s.at(3, 5) += 1.0f;  // one element off by far more: not a rounding matter
        CHECK_FALSE(has(s.hints(), "wmma::__float_to_tf32"));
        s.ref.input_precision = tilelab::InputPrecision::fp32;  // an FP32 lab never gets the hint
        CHECK_FALSE(has(s.hints(), "wmma::__float_to_tf32"));
    }
    TEST_CASE("mma.m16n8k8 fragments in another layout: each mistake named, with the documented layout") {
        // A shape with partial fragments everywhere but the last cases', which need whole 16 x 8 pieces of P.
        Scenario s({40, 20, 24});
        s.ref.input_precision = tilelab::InputPrecision::tf32;
        CHECK_FALSE(has(s.hints(), "fragment"));  // the right product
        // A's a[1] and a[2] exchanged: M's fragments (16 rows by 8 k, zero-filled) with those quadrants swapped.
        HostMatrix M(48, 24, 0.0f), N(24, 24, 0.0f);
        for (int r = 0; r < 40; ++r)
            for (int k = 0; k < 20; ++k) M.at(r, k) = s.M.at(r, k);
        for (int k = 0; k < 20; ++k)
            for (int c = 0; c < 24; ++c) N.at(k, c) = s.N.at(k, c);
        HostMatrix A = M;
        for (int r0 = 0; r0 < 48; r0 += 16)
            for (int k0 = 0; k0 < 24; k0 += 8)
                for (int x = 0; x < 8; ++x)
                    for (int y = 0; y < 4; ++y) std::swap(A.at(r0 + 8 + x, k0 + y), A.at(r0 + x, k0 + 4 + y));
        auto set_from_padded = [&](const HostMatrix& left, const HostMatrix& right) {
            const auto other = tilelab::reference_matmul(left, right);
            for (int r = 0; r < 40; ++r)
                for (int c = 0; c < 24; ++c) s.at(r, c) = static_cast<float>(other.value[r * 24 + c]);
        };
        set_from_padded(A, N);
        CHECK(has(s.hints(), "registers a[1] and a[2] exchanged: in mma.m16n8k8's A fragment (TF32), lane l"));
        // B read with k and n exchanged: each 8 x 8 block of N transposed.
        HostMatrix B = N;
        for (int k0 = 0; k0 < 24; k0 += 8)
            for (int n0 = 0; n0 < 24; n0 += 8)
                for (int x = 0; x < 8; ++x)
                    for (int y = 0; y < 8; ++y) B.at(k0 + x, n0 + y) = N.at(k0 + y, n0 + x);
        set_from_padded(M, B);
        CHECK(has(s.hints(), "each 8 x 8 block of N transposed"));
        CHECK(has(s.hints(), "b[0] = B(t, g) and b[1] = B(t + 4, g)"));
        // The halves of each step of 8 along k exchanged.
        HostMatrix K = M;
        for (int r = 0; r < 48; ++r)
            for (int k0 = 0; k0 < 24; k0 += 8)
                for (int y = 0; y < 4; ++y) std::swap(K.at(r, k0 + y), K.at(r, k0 + 4 + y));
        set_from_padded(K, N);
        CHECK(has(s.hints(), "two halves of each step of 8 along k exchanged"));
        // The same mistakes in a lab of FP32 inputs get no hint: its kernels have no fragments.
        s.ref.input_precision = tilelab::InputPrecision::fp32;
        CHECK_FALSE(has(s.hints(), "fragment"));

        // The accumulator's c[1] and c[2] exchanged, and its columns taken as t and t + 4 (P 32 x 16).
        Scenario p({32, 20, 16});
        p.ref.input_precision = tilelab::InputPrecision::tf32;
        const std::vector<float> right = p.got;
        for (int r = 0; r < 32; ++r)
            for (int c = 0; c < 16; ++c) {
                const int x = r % 16, y = c % 8;
                int from_r = r, from_c = c;
                if (x < 8 && y % 2 == 1) from_r = r + 8, from_c = c - 1;
                if (x >= 8 && y % 2 == 0) from_r = r - 8, from_c = c + 1;
                p.at(r, c) = right[static_cast<std::size_t>(from_r) * 16 + from_c];
            }
        CHECK(has(p.hints(), "the accumulator's registers c[1] and c[2] exchanged"));
        for (int r = 0; r < 32; ++r)
            for (int c = 0; c < 16; ++c) {
                const int y = c % 8;
                p.at(r, c) = right[static_cast<std::size_t>(r) * 16 + c - y + (y < 4 ? 2 * y : 2 * (y - 4) + 1)];
            }
        CHECK(has(p.hints(), "columns 2t and 2t + 1, not t and t + 4"));
    }

    TEST_CASE("a fault under the kit's launch names that launch's rule, not the bounds tests, and says kernel once") {
        const tilelab::grader::LabUnderTest lab = naive_lab();
        const std::string rule = tilelab::grader::contract_launch_rule(lab, {20, 7, 37});
        CHECK(has(rule, "the kit launches the lab's kernel itself with the contract's grid (3, 2) of blocks (16, 16)"));
        CHECK(has(rule, "with the dynamic shared memory that your launcher's launch gave it"));
        tilelab::grader::ReplyHeader fault;
        fault.status = tilelab::wire::Status::cuda_error;
        fault.code = static_cast<int>(cudaErrorIllegalAddress);
        fault.message = "kernel failed: cudaErrorIllegalAddress (an illegal memory access was encountered)";
        const std::string ruled = tilelab::grader::LabError(fault, "the kit's launch of the kernel", rule).what();
        CHECK(has(ruled, "the kit's launch of the kernel failed: cudaErrorIllegalAddress"));
        CHECK_FALSE(has(ruled, "kernel kernel"));
        CHECK(has(ruled, "hint: your launcher's run was right, but under the kit's own launch the same kernel failed"));
        CHECK_FALSE(has(ruled, "check the bounds tests"));
        // The student's own launch keeps the usual hint, and its words.
        const std::string own = tilelab::grader::LabError(fault, "matmul_naive(...)").what();
        CHECK(has(own, "matmul_naive(...) kernel failed: cudaErrorIllegalAddress"));
        CHECK(has(own, "check the bounds tests"));
        // An error that is no launch's or address's keeps its own hint under the kit's launch too.
        fault.code = static_cast<int>(cudaErrorLaunchTimeout);
        const std::string slow = tilelab::grader::LabError(fault, "the kit's launch of the kernel", rule).what();
        CHECK(has(slow, "hint: the kernel ran too long"));
        CHECK_FALSE(has(slow, "rule of that launch"));
    }
}
