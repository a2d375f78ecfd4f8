#include "tile_slips.hpp"

#include <tilelab/reference.hpp>

#include <cmath>
#include <cstddef>
#include <functional>
#include <vector>

namespace tilelab::grader {

namespace {

// Products up to this many multiply-adds (operands rounded up to whole tiles) are cheap enough to recompute once per
// slip: a few milliseconds each. The GPU's large products (1024³) are left out.
constexpr long long max_work = 512LL * 512 * 512;

int round_up_to(int n, int multiple) { return (n + multiple - 1) / multiple * multiple; }

// The lab's tiles: rows and columns of P per block, k per phase, and whether its blocks are TILE_WIDTH × TILE_WIDTH
// threads (labs 02 and 03) or a configuration of its own.
struct Tiles {
    int tile = 0;
    int depth = 0;
    bool tile_width_lab = false;
};

// Where a staged tile element comes from: given an element's place within its tile (@p within_tile, @p within_phase)
// and the tile's first row or column and the phase's first k, the row and column of the operand it holds.
using Source = std::function<void(int within_tile, int within_phase, int tile_start, int phase_start, int& row,
                                  int& col)>;

// M as a kernel with a slip stages it: the left operand, rows rounded up to the block tile and inner to the phase
// depth, whose element (R, K) is M at @p from's place, or 0 outside M (the tiles' zero fill).
HostMatrix left_as_staged(const FailedRun& run, const Tiles& t, const Source& from) {
    HostMatrix a(round_up_to(run.shape.rows, t.tile), round_up_to(run.shape.inner, t.depth), 0.0f);
    for (int R = 0; R < a.rows(); ++R)
        for (int K = 0; K < a.cols(); ++K) {
            int r = -1, k = -1;
            from(R % t.tile, K % t.depth, R - R % t.tile, K - K % t.depth, r, k);
            if (r >= 0 && r < run.M.rows() && k >= 0 && k < run.M.cols()) a.at(R, K) = run.M.at(r, k);
        }
    return a;
}

// N as a kernel with a slip stages it, as left_as_staged: @p from gets an element's column within the block tile,
// its k within the phase, the tile's first column and the phase's first k, and gives N's row and column.
HostMatrix right_as_staged(const FailedRun& run, const Tiles& t, const Source& from) {
    HostMatrix b(round_up_to(run.shape.inner, t.depth), round_up_to(run.shape.cols, t.tile), 0.0f);
    for (int K = 0; K < b.rows(); ++K)
        for (int C = 0; C < b.cols(); ++C) {
            int k = -1, c = -1;
            from(C % t.tile, K % t.depth, C - C % t.tile, K - K % t.depth, k, c);
            if (k >= 0 && k < run.N.rows() && c >= 0 && c < run.N.cols()) b.at(K, C) = run.N.at(k, c);
        }
    return b;
}

void left_as_given(int i, int k, int tile_row, int phase, int& row, int& col) { row = tile_row + i, col = phase + k; }
void right_as_given(int j, int k, int tile_col, int phase, int& row, int& col) { row = phase + k, col = tile_col + j; }

// The run's product with its elements moved: element (r, c) of the result is the one of M · N at @p from's place,
// 0 where that lies outside P (computed from the tiles' zero fill).
ReferenceProduct result_moved(const FailedRun& run, const std::function<void(int, int, int&, int&)>& from) {
    ReferenceProduct p = run.reference;
    for (int r = 0; r < p.rows; ++r)
        for (int c = 0; c < p.cols; ++c) {
            int from_r = r, from_c = c;
            from(r, c, from_r, from_c);
            const std::size_t to = static_cast<std::size_t>(r) * p.cols + c;
            const bool inside = from_r < p.rows && from_c < p.cols;
            const std::size_t at = static_cast<std::size_t>(from_r) * p.cols + from_c;
            p.value[to] = inside ? run.reference.value[at] : 0.0;
            p.magnitude[to] = inside ? run.reference.magnitude[at] : 0.0;
        }
    return p;
}

// A slip that a result may follow: its name, for a shape that several slips fit, its hint, and its product.
struct Slip {
    std::string name;
    std::string hint;
    std::function<ReferenceProduct()> product;
};

// P transposed within each aligned @p side × @p side square.
std::function<ReferenceProduct()> squares_transposed(const FailedRun& run, int side) {
    return [&run, side] {
        return result_moved(run, [side](int r, int c, int& from_r, int& from_c) {
            from_r = r - r % side + c % side;
            from_c = c - c % side + r % side;
        });
    };
}

// The slips of the TILE_WIDTH labs' loads, reads and store (thread (tx, ty) of a TILE_WIDTH × TILE_WIDTH block).
void tile_width_slips(const FailedRun& run, const Tiles& t, std::vector<Slip>& slips) {
    const auto left = [&run, t](Source from) { return [&run, t, from] {
        return product_cut_to_run(left_as_staged(run, t, from), right_as_staged(run, t, right_as_given), run); }; };
    const auto right = [&run, t](Source from) { return [&run, t, from] {
        return product_cut_to_run(left_as_staged(run, t, left_as_given), right_as_staged(run, t, from), run); }; };
    slips.push_back({"the M tile's column taken from ty",
                     "P is what you get when the M tile is loaded with ty where tx belongs, M_tile[ty][tx] = "
                     "M[row * inner + phase * TILE_WIDTH + ty]: each row of the tile then holds one element of M, "
                     "TILE_WIDTH times. The tile's column is the thread's tx: M_tile[ty][tx] = M[row * inner + phase * "
                     "TILE_WIDTH + tx]",
                     left([](int i, int, int tile_row, int phase, int& r, int& k) { r = tile_row + i, k = phase + i; })});
    slips.push_back({"the N tile's row taken from tx",
                     "P is what you get when the N tile is loaded with tx where ty belongs, N_tile[ty][tx] = "
                     "N[(phase * TILE_WIDTH + tx) * cols + col]: each column of the tile then holds one element of N, "
                     "TILE_WIDTH times. The tile's row is the thread's ty: N_tile[ty][tx] = N[(phase * TILE_WIDTH + "
                     "ty) * cols + col]",
                     right([](int j, int, int tile_col, int phase, int& k, int& c) { k = phase + j, c = tile_col + j; })});
    slips.push_back({"the M tile transposed",
                     "P is what you get with the M tile transposed: M(row, phase * TILE_WIDTH + tx) stored at "
                     "M_tile[tx][ty], or M's index built with tx and ty exchanged, or the products reading "
                     "M_tile[k][ty]. Thread (tx, ty) stores that element at M_tile[ty][tx], and its products read "
                     "M_tile[ty][k]",
                     left([](int i, int k, int tile_row, int phase, int& r, int& c) { r = tile_row + k, c = phase + i; })});
    slips.push_back({"the N tile transposed",
                     "P is what you get with the N tile transposed: N(phase * TILE_WIDTH + ty, col) stored at "
                     "N_tile[tx][ty], or N's index built with tx and ty exchanged, or the products reading "
                     "N_tile[tx][k]. Thread (tx, ty) stores that element at N_tile[ty][tx], and its products read "
                     "N_tile[k][tx]",
                     right([](int j, int k, int tile_col, int phase, int& r, int& c) { r = phase + j, c = tile_col + k; })});
    if (run.shape.inner > t.depth) {
        slips.push_back({"M's load without the phase",
                         "P is what you get when M's load leaves out the phase, M[row * inner + tx]: every phase "
                         "multiplies the first TILE_WIDTH columns of M again. Phase p's M tile holds columns p * "
                         "TILE_WIDTH onwards: M[row * inner + phase * TILE_WIDTH + tx]",
                         left([](int i, int k, int tile_row, int, int& r, int& c) { r = tile_row + i, c = k; })});
        slips.push_back({"N's load without the phase",
                         "P is what you get when N's load leaves out the phase, N[ty * cols + col]: every phase "
                         "multiplies the first TILE_WIDTH rows of N again. Phase p's N tile holds rows p * TILE_WIDTH "
                         "onwards: N[(phase * TILE_WIDTH + ty) * cols + col]",
                         right([](int j, int k, int tile_col, int, int& r, int& c) { r = k, c = tile_col + j; })});
    }
    slips.push_back({"each tile of P transposed",
                     "P is what you get with each TILE_WIDTH x TILE_WIDTH tile of P transposed: thread (tx, ty) "
                     "computed the element at row tx, column ty of its block's tile, from M_tile[tx][k] * "
                     "N_tile[k][ty] (or stored it at row blockIdx.y * TILE_WIDTH + tx). Its element is row = "
                     "blockIdx.y * TILE_WIDTH + ty, col = blockIdx.x * TILE_WIDTH + tx: sum += M_tile[ty][k] * "
                     "N_tile[k][tx]",
                     squares_transposed(run, t.tile)});
}

// The slips of the labs with a configuration of their own: a 1D block, a t.tile × t.tile tile of P, M_tile t.tile ×
// t.depth and N_tile t.depth × t.tile, a share of @p share elements of P per thread.
void own_configuration_slips(const FailedRun& run, const Tiles& t, int share, std::vector<Slip>& slips) {
    const std::string b = std::to_string(t.tile), d = std::to_string(t.depth);
    const auto left = [&run, t](Source from) { return [&run, t, from] {
        return product_cut_to_run(left_as_staged(run, t, from), right_as_staged(run, t, right_as_given), run); }; };
    const auto right = [&run, t](Source from) { return [&run, t, from] {
        return product_cut_to_run(left_as_staged(run, t, left_as_given), right_as_staged(run, t, from), run); }; };
    if (run.shape.inner > t.depth) {
        slips.push_back({"M's load without the phase",
                         "P is what you get when M's load leaves out the phase: every phase stages the first " + d +
                             " columns of M again. In the phase that starts at k = phase, M_tile's element (r, c) is "
                             "M(blockIdx.y * " + b + " + r, phase + c), 0.0f outside M",
                         left([](int i, int k, int tile_row, int, int& r, int& c) { r = tile_row + i, c = k; })});
        slips.push_back({"N's load without the phase",
                         "P is what you get when N's load leaves out the phase: every phase stages the first " + d +
                             " rows of N again. In the phase that starts at k = phase, N_tile's element (k, c) is "
                             "N(phase + k, blockIdx.x * " + b + " + c), 0.0f outside N",
                         right([](int j, int k, int tile_col, int, int& r, int& c) { r = k, c = tile_col + j; })});
    }
    // M_tile[k][r] of a tile × depth array reads element k * depth + r of its rows laid end to end.
    if (t.tile > t.depth && t.tile % t.depth == 0)
        slips.push_back({"M_tile read as M_tile[k][r]",
                         "P is what you get when M_tile is read with its indices exchanged, M_tile[k][r] where "
                         "M_tile[r][k] belongs: M_tile is " + b + " x " + d + ", its first index the row r within the "
                         "block tile (0 to " + std::to_string(t.tile - 1) + "), its second the k of the phase (0 to " +
                             std::to_string(t.depth - 1) + "); M_tile[k][r] runs past a row's " + d +
                             " elements into the next rows",
                         left([depth = t.depth](int i, int k, int tile_row, int phase, int& r, int& c) {
                             r = tile_row + k + i / depth, c = phase + i % depth;
                         })});
    const int side = static_cast<int>(std::lround(std::sqrt(share)));
    if (side > 1 && side * side == share && t.tile % side == 0) {
        const std::string s = std::to_string(side);
        slips.push_back({"each micro-tile of P transposed",
                         "P is what you get with each " + s + " x " + s + " micro-tile of P transposed: a thread's "
                         "element (i, j) landed at row j, column i of its micro-tile (sums[j][i] stored where "
                         "sums[i][j] belongs, or m_values[i] * n_values[j] added into sums[j][i]). sums[i][j] is the "
                         "element at row micro_row + i, column micro_col + j of the block tile",
                         squares_transposed(run, side)});
    }
}

// The slips of the phase loop, for every tiled lab: the terms of some phases only.
void phase_slips(const FailedRun& run, const Tiles& t, std::vector<Slip>& slips) {
    const int inner = run.shape.inner;
    const int last = (inner - 1) / t.depth * t.depth;  // the last phase's first k
    const auto terms = [&run, t](int from_k, int to_k) { return [&run, t, from_k, to_k] {
        return product_cut_to_run(left_as_staged(run, t, [from_k, to_k](int i, int k, int tile_row, int phase,
                                                                          int& r, int& c) {
            if (phase + k >= from_k && phase + k < to_k) r = tile_row + i, c = phase + k;
        }), right_as_staged(run, t, right_as_given), run); }; };
    if (inner > t.depth)
        slips.push_back({"the sums reset every phase",
                         "P holds only the last phase's terms of each sum: the sums (or accumulator fragments) are set "
                         "to zero inside the phase loop, so each phase throws away the phases before it. Set them to "
                         "zero once, before the loop",
                         terms(last, inner)});
    // A single whole phase left out leaves P 0, as much else does; a single partial one is what a count of phases
    // rounded down (inner / TILE_WIDTH) leaves out.
    if (inner <= t.depth && inner % t.depth == 0) return;
    const std::string loop = t.tile_width_lab ? "TILE_WIDTH = " + std::to_string(t.depth)
                                              : "a phase covers " + std::to_string(t.depth) + " k";
    const std::string hint =
        inner % t.depth != 0
            ? std::string(last == 0 ? "P is 0 everywhere: the last phase, here the only one,"
                                    : "P holds every phase's terms but the last: the last phase") +
                  " covers a partial tile (inner = " +
                  std::to_string(inner) + ", " + loop + ") and never ran. " +
                  (t.tile_width_lab ? "Run (inner + TILE_WIDTH - 1) / TILE_WIDTH phases"
                                    : "Run the phases while phase < inner") +
                  ", and load 0.0f for the elements past inner"
            : "P holds every phase's terms but the last: the phase loop stops one phase early. " +
                  std::string(t.tile_width_lab ? "Run inner / TILE_WIDTH phases, phase = 0 to inner / TILE_WIDTH - 1"
                                               : "Run the phases while phase < inner");
    slips.push_back({"the last phase left out", hint, terms(0, last)});
}

}  // namespace

std::string tile_slip_hint(const FailedRun& run) {
    const LabUnderTest* lab = run.lab;
    if (lab == nullptr || run.comparison.wrong == 0) return {};
    Tiles t{lab->tile(), lab->depth(), lab->block_tile == 0};
    if (t.tile_width_lab && !lab->uses_shared_tiles) return {};  // lab 01: no tiles
    const Shape& s = run.shape;
    if (1LL * round_up_to(s.rows, t.tile) * round_up_to(s.inner, t.depth) * round_up_to(s.cols, t.tile) > max_work)
        return {};
    std::vector<Slip> slips;
    if (t.tile_width_lab)
        tile_width_slips(run, t, slips);
    else
        own_configuration_slips(run, t, lab->tile() * lab->tile() / lab->threads_per_block(), slips);
    phase_slips(run, t, slips);

    std::vector<const Slip*> fitting;
    for (const Slip& slip : slips)
        if (result_matches(run, slip.product())) fitting.push_back(&slip);
    if (fitting.size() == 1) return fitting.front()->hint;
    // A single row, column or term can leave several slips the same P: name them, and let a larger shape decide.
    constexpr std::size_t named_at_most = 3;
    if (fitting.empty() || fitting.size() > named_at_most) return {};
    std::string names;
    for (std::size_t i = 0; i < fitting.size(); ++i)
        names += (i == 0 ? "" : i + 1 == fitting.size() ? "; or " : "; ") + fitting[i]->name;
    return "P is what each of these index slips gives on this shape, too small to tell them apart (a larger failing "
           "shape names one): " + names;
}

}  // namespace tilelab::grader
