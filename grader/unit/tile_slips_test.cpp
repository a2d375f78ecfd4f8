// The index slips of tiled kernels (tile_slips.hpp): each wrong P is what a kernel with that slip leaves, built here
// by running the lab's kernel on the host, block by block and thread by thread, with the slip in its code.
#include "diagnose.hpp"
#include "tile_slips.hpp"

#include <tilelab/random.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

using tilelab::HostMatrix;
using tilelab::grader::LabUnderTest;
using tilelab::grader::Shape;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

LabUnderTest tile_width_lab(bool whole_tiles) {
    return {whole_tiles ? "lab02" : "lab03", whole_tiles ? "matmul_tiled" : "matmul_tiled_boundary", 16, whole_tiles,
            true};
}

LabUnderTest own_lab(const char* name, int tile, int depth, int threads) {
    LabUnderTest lab{name, "matmul", 16, false, false};
    lab.block_tile = tile;
    lab.phase_depth = depth;
    lab.block_threads = threads;
    return lab;
}
LabUnderTest lab05() { return own_lab("lab05", 64, 8, 512); }
LabUnderTest lab06() { return own_lab("lab06", 128, 8, 256); }

// The slips of labs 02 and 03, as a student's code has them.
enum class Slip2d {
    none,
    m_col_from_ty,        // M_tile[ty][tx] = M[row * inner + phase * T + ty]
    n_row_from_tx,        // N_tile[ty][tx] = N[(phase * T + tx) * cols + col]
    m_tile_transposed,    // M_tile[tx][ty] = M[row * inner + phase * T + tx]
    n_tile_transposed,    // N_tile[tx][ty] = N[(phase * T + ty) * cols + col]
    m_without_phase,      // M[row * inner + tx]
    n_without_phase,      // N[ty * cols + col]
    products_transposed,  // sum += M_tile[tx][k] * N_tile[k][ty]
    sum_reset,            // float sum = 0.0f inside the phase loop
    last_phase_left_out,  // phase < inner / T (lab 03), phase < inner / T - 1 (lab 02)
};

// Lab 03's kernel (lab 02's, where the shape is whole tiles) with @p slip, run on the host.
std::vector<float> tiled_kernel(const HostMatrix& M, const HostMatrix& N, int T, Slip2d slip) {
    const int rows = M.rows(), inner = M.cols(), cols = N.cols();
    std::vector<float> P(static_cast<std::size_t>(rows) * cols, tilelab::unwritten_value());
    const int phases = (inner + T - 1) / T - (slip == Slip2d::last_phase_left_out ? 1 : 0);
    for (int by = 0; by * T < rows; ++by)
        for (int bx = 0; bx * T < cols; ++bx) {
            std::vector<float> sum(T * T, 0.0f), M_tile(T * T), N_tile(T * T);
            for (int phase = 0; phase < phases; ++phase) {
                for (int ty = 0; ty < T; ++ty)
                    for (int tx = 0; tx < T; ++tx) {
                        const int row = by * T + ty, col = bx * T + tx;
                        const int m_col = slip == Slip2d::m_without_phase ? tx
                                          : slip == Slip2d::m_col_from_ty ? phase * T + ty
                                                                          : phase * T + tx;
                        const int n_row = slip == Slip2d::n_without_phase ? ty
                                          : slip == Slip2d::n_row_from_tx ? phase * T + tx
                                                                          : phase * T + ty;
                        const float m = row < rows && m_col < inner ? M.at(row, m_col) : 0.0f;
                        const float n = n_row < inner && col < cols ? N.at(n_row, col) : 0.0f;
                        (slip == Slip2d::m_tile_transposed ? M_tile[tx * T + ty] : M_tile[ty * T + tx]) = m;
                        (slip == Slip2d::n_tile_transposed ? N_tile[tx * T + ty] : N_tile[ty * T + tx]) = n;
                    }
                for (int ty = 0; ty < T; ++ty)
                    for (int tx = 0; tx < T; ++tx) {
                        float& s = sum[ty * T + tx];
                        if (slip == Slip2d::sum_reset) s = 0.0f;
                        const bool swapped = slip == Slip2d::products_transposed;
                        for (int k = 0; k < T; ++k)
                            s += (swapped ? M_tile[tx * T + k] : M_tile[ty * T + k]) *
                                 (swapped ? N_tile[k * T + ty] : N_tile[k * T + tx]);
                    }
            }
            for (int ty = 0; ty < T; ++ty)
                for (int tx = 0; tx < T; ++tx) {
                    const int row = by * T + ty, col = bx * T + tx;
                    if (row < rows && col < cols) P[static_cast<std::size_t>(row) * cols + col] = sum[ty * T + tx];
                }
        }
    return P;
}

// The slips of labs 05 and 06.
enum class SlipOwn {
    none,
    m_without_phase,      // M[m_r * inner + m_col]
    n_without_phase,      // N[n_row * cols + n_c]
    m_tile_read_k_r,      // M_tile[k][out_row + i]
    micro_transposed,     // P[row * cols + col] = sums[j][i]
    sums_reset,           // the sums set to zero at the start of each phase
    last_phase_left_out,  // for (phase = 0; phase + depth <= inner; ...)
};

// A kernel of labs 05 and 06 (block tile b, phase depth d; micro-tiles @p micro x @p micro where it stores them
// transposed) with @p slip, run on the host, element of the block tile by element.
std::vector<float> own_kernel(const HostMatrix& M, const HostMatrix& N, int b, int d, int micro, SlipOwn slip) {
    const int rows = M.rows(), inner = M.cols(), cols = N.cols();
    std::vector<float> P(static_cast<std::size_t>(rows) * cols, tilelab::unwritten_value());
    const int phases = (inner + d - 1) / d - (slip == SlipOwn::last_phase_left_out ? 1 : 0);
    for (int tile_row = 0; tile_row < rows; tile_row += b)
        for (int tile_col = 0; tile_col < cols; tile_col += b) {
            std::vector<float> sums(b * b, 0.0f), M_tile(b * d), N_tile(d * b);
            for (int p = 0; p < phases; ++p) {
                const int phase = p * d;
                for (int e = 0; e < b * d; ++e) {
                    const int m_r = tile_row + e / d, m_k = (slip == SlipOwn::m_without_phase ? 0 : phase) + e % d;
                    M_tile[e] = m_r < rows && m_k < inner ? M.at(m_r, m_k) : 0.0f;
                    const int n_k = (slip == SlipOwn::n_without_phase ? 0 : phase) + e / b, n_c = tile_col + e % b;
                    N_tile[e] = n_k < inner && n_c < cols ? N.at(n_k, n_c) : 0.0f;
                }
                for (int r = 0; r < b; ++r)
                    for (int c = 0; c < b; ++c) {
                        float& s = sums[r * b + c];
                        if (slip == SlipOwn::sums_reset) s = 0.0f;
                        for (int k = 0; k < d; ++k)  // M_tile[k][r] of a b x d array: element k * d + r
                            s += (slip == SlipOwn::m_tile_read_k_r ? M_tile[k * d + r] : M_tile[r * d + k]) *
                                 N_tile[k * b + c];
                    }
            }
            for (int r = 0; r < b; ++r)
                for (int c = 0; c < b; ++c) {
                    const int row = tile_row + r, col = tile_col + c;
                    const bool moved = slip == SlipOwn::micro_transposed;
                    const int from_r = moved ? r - r % micro + c % micro : r;
                    const int from_c = moved ? c - c % micro + r % micro : c;
                    if (row < rows && col < cols) P[static_cast<std::size_t>(row) * cols + col] = sums[from_r * b + from_c];
                }
        }
    return P;
}

// One failed run of @p lab on @p shape: random M and N, and what the kernel left in P.
struct Run {
    Shape shape;
    LabUnderTest lab;
    HostMatrix M, N;
    tilelab::ReferenceProduct reference;
    std::vector<float> got;

    Run(Shape s, LabUnderTest l) : shape(s), lab(l), M(s.rows, s.inner), N(s.inner, s.cols) {
        tilelab::fill_uniform(M, 11);
        tilelab::fill_uniform(N, 12);
        reference = tilelab::reference_matmul(M, N);
    }

    // Every hint diagnose() gives, one a line; empty when P is right.
    std::string hints() const {
        const tilelab::Comparison comparison = tilelab::compare(got.data(), reference);
        if (comparison.passed()) return {};
        std::string all;
        for (const std::string& hint : tilelab::grader::diagnose(
                 {shape, lab.tile(), M, N, reference, got, comparison, &lab}))
            all += hint + "\n";
        return all;
    }
};

const char* const several = "too small to tell them apart";

// True when @p hints hold a slip's hint: every one starts with one of these.
bool has_slip_hint(const std::string& hints) {
    for (const char* start : {"P is what ", "P holds only the last phase", "P holds every phase's terms but the last",
                              "P is 0 everywhere"})
        if (has(hints, start)) return true;
    return false;
}

}  // namespace

TEST_SUITE("tile_slips") {
    TEST_CASE("labs 02 and 03: each slip of the tiles' loads, reads and phases is named, with the index to fix") {
        struct Case {
            Slip2d slip;
            const char* hint;
        };
        const Case cases[] = {
            {Slip2d::m_col_from_ty, "the M tile is loaded with ty where tx belongs, M_tile[ty][tx] = M[row * inner + "
                                    "phase * TILE_WIDTH + ty]"},
            {Slip2d::n_row_from_tx, "the N tile is loaded with tx where ty belongs, N_tile[ty][tx] = N[(phase * "
                                    "TILE_WIDTH + tx) * cols + col]"},
            {Slip2d::m_tile_transposed, "P is what you get with the M tile transposed"},
            {Slip2d::n_tile_transposed, "P is what you get with the N tile transposed"},
            {Slip2d::m_without_phase, "M's load leaves out the phase, M[row * inner + tx]"},
            {Slip2d::n_without_phase, "N's load leaves out the phase, N[ty * cols + col]"},
            {Slip2d::products_transposed, "each TILE_WIDTH x TILE_WIDTH tile of P transposed"},
            {Slip2d::sum_reset, "P holds only the last phase's terms of each sum"},
            {Slip2d::last_phase_left_out, "P holds every phase's terms but the last"},
        };
        // Lab 02 (whole tiles) and lab 03 (a partial tile in every dimension, zero-filled).
        for (const bool whole : {true, false}) {
            const Shape shape = whole ? Shape{48, 32, 64} : Shape{37, 41, 29};
            for (const Case& c : cases) {
                CAPTURE(whole);
                CAPTURE(c.hint);
                Run run(shape, tile_width_lab(whole));
                run.got = tiled_kernel(run.M, run.N, 16, c.slip);
                const std::string hints = run.hints();
                CHECK(has(hints, c.hint));
                CHECK_FALSE(has(hints, several));
                CHECK(hints.find('\n') + 1 == hints.size());  // the slip alone: the patterns it causes are not hints
            }
            Run right(shape, tile_width_lab(whole));
            right.got = tiled_kernel(right.M, right.N, 16, Slip2d::none);
            CHECK(right.hints().empty());  // the host kernel itself is right
        }
        // The last phase left out: a partial one is named so, the existing words of lab 03's table included.
        Run partial({37, 41, 29}, tile_width_lab(false));
        partial.got = tiled_kernel(partial.M, partial.N, 16, Slip2d::last_phase_left_out);
        CHECK(has(partial.hints(), "the last phase covers a partial tile (inner = 41, TILE_WIDTH = 16) and never ran"));
        Run whole({48, 32, 64}, tile_width_lab(true));
        whole.got = tiled_kernel(whole.M, whole.N, 16, Slip2d::last_phase_left_out);
        CHECK(has(whole.hints(), "the phase loop stops one phase early"));
        // A partial phase that is the only one: nothing ran, and P is 0 (lab 03's first such shape is 1 x 1 x 1).
        Run only({20, 9, 37}, tile_width_lab(false));
        only.got = tiled_kernel(only.M, only.N, 16, Slip2d::last_phase_left_out);
        CHECK(has(only.hints(), "P is 0 everywhere: the last phase, here the only one, covers a partial tile (inner "
                                "= 9, TILE_WIDTH = 16) and never ran"));
        // A whole phase that is the only one is not named: many a mistake leaves P 0.
        Run one({16, 16, 16}, tile_width_lab(true));
        one.got = tiled_kernel(one.M, one.N, 16, Slip2d::last_phase_left_out);
        CHECK_FALSE(has_slip_hint(one.hints()));
    }

    TEST_CASE("labs 05 and 06: each slip is named in the lab's terms") {
        struct Case {
            LabUnderTest lab;
            int micro;
            SlipOwn slip;
            const char* hint;
        };
        const Case cases[] = {
            {lab05(), 1, SlipOwn::m_without_phase, "M's load leaves out the phase: every phase stages the first 8 "
                                                   "columns of M again"},
            {lab05(), 1, SlipOwn::n_without_phase, "N's load leaves out the phase: every phase stages the first 8 "
                                                   "rows of N again"},
            {lab05(), 1, SlipOwn::m_tile_read_k_r, "M_tile is read with its indices exchanged, M_tile[k][r] where "
                                                   "M_tile[r][k] belongs: M_tile is 64 x 8"},
            {lab05(), 1, SlipOwn::sums_reset, "P holds only the last phase's terms of each sum"},
            {lab05(), 1, SlipOwn::last_phase_left_out, "the last phase covers a partial tile (inner = 20, a phase "
                                                       "covers 8 k) and never ran"},
            {lab06(), 8, SlipOwn::micro_transposed, "each 8 x 8 micro-tile of P transposed"},
            {lab06(), 8, SlipOwn::m_tile_read_k_r, "M_tile is 128 x 8"},
            {lab06(), 8, SlipOwn::sums_reset, "P holds only the last phase's terms of each sum"},
        };
        for (const Case& c : cases) {
            CAPTURE(c.lab.name);
            CAPTURE(c.hint);
            Run run({70, 20, 140}, c.lab);
            run.got = own_kernel(run.M, run.N, c.lab.block_tile, c.lab.phase_depth, c.micro, c.slip);
            const std::string hints = run.hints();
            CHECK(has(hints, c.hint));
            CHECK_FALSE(has(hints, several));
        }
        // Lab 05's thread owns a column of 8, not a square: no micro-tile to transpose.
        Run column({70, 20, 140}, lab05());
        column.got = own_kernel(column.M, column.N, 64, 8, 8, SlipOwn::micro_transposed);
        CHECK_FALSE(has_slip_hint(column.hints()));
    }

    TEST_CASE("a shape too small to tell slips apart names each that fits, and one that fits no slip gets none") {
        // One row and one term: the N tile's row from tx, the N tile transposed and P's tiles transposed all leave
        // P(0, 0) right and the rest of the row 0.
        Run thin({1, 1, 15}, tile_width_lab(false));
        thin.got = tiled_kernel(thin.M, thin.N, 16, Slip2d::n_row_from_tx);
        const std::string hints = thin.hints();
        CHECK(has(hints, several));
        CHECK(has(hints, "the N tile's row taken from tx"));
        CHECK(has(hints, "the N tile transposed"));
    }

    TEST_CASE("a lab of its own configuration is told its phase depth, not its block tile, for a partial phase") {
        Run run({64, 9, 64}, lab05());
        for (double v : run.reference.value) run.got.push_back(static_cast<float>(v) + 0.5f);
        CHECK(has(run.hints(), "inner (9) is not a multiple of the phase depth (8): the last phase covers a partial tile"));
        CHECK_FALSE(has(run.hints(), "TILE_WIDTH (64)"));
    }

    TEST_CASE("a wrong P that follows no slip gets no slip hint") {
        for (const LabUnderTest& lab : {tile_width_lab(true), tile_width_lab(false), lab05(), lab06()}) {
            CAPTURE(lab.name);
            const Shape shape = lab.needs_tile_multiples ? Shape{48, 32, 64} : Shape{70, 20, 140};
            Run random(shape, lab);  // random values everywhere
            HostMatrix noise(shape.rows, shape.cols);
            tilelab::fill_uniform(noise, 13);
            random.got.assign(noise.data(), noise.data() + noise.size());
            CHECK_FALSE(has_slip_hint(random.hints()));
            Run one_off(shape, lab);  // the right P, one element off
            for (double v : one_off.reference.value) one_off.got.push_back(static_cast<float>(v));
            one_off.got[5] += 1.0f;
            CHECK_FALSE(has_slip_hint(one_off.hints()));
        }
        // Lab 01 has no tiles: a transposed M is said as lab 01's hint says it, not as a tile's.
        const LabUnderTest naive{"lab01", "matmul_naive", 16, false, false};
        Run run({48, 48, 48}, naive);
        run.got = tiled_kernel(run.M, run.N, 48, Slip2d::m_tile_transposed);  // one tile: M read down its columns
        CHECK(has(run.hints(), "M was read down a column"));
        CHECK_FALSE(has(run.hints(), "M tile"));
    }
}
