#include "diagnose.hpp"

#include "fragment_layout.hpp"
#include "tile_slips.hpp"

#include <tilelab/cpu/past_end.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace tilelab::grader {

namespace {

// Square products up to this size are cheap enough to recompute with the inputs misread.
constexpr int max_alternative_size = 256;

HostMatrix transposed(const HostMatrix& a) {
    HostMatrix t(a.cols(), a.rows());
    for (int r = 0; r < a.rows(); ++r)
        for (int c = 0; c < a.cols(); ++c) t.at(c, r) = a.at(r, c);
    return t;
}

bool matches(const std::vector<float>& got, const ReferenceProduct& alternative) {
    return compare(got.data(), alternative, 0).passed();
}

// Elements in the last partial tile of rows or of columns (empty when both are tile multiples).
bool in_partial_tile(const Shape& s, int tile, int row, int col) {
    return row >= s.rows / tile * tile || col >= s.cols / tile * tile;
}

std::string transposition_hint(const FailedRun& run) {
    const Shape& s = run.shape;
    if (s.rows != s.inner || s.inner != s.cols || s.rows > max_alternative_size) return {};

    ReferenceProduct result_transposed = run.reference;
    for (int r = 0; r < s.rows; ++r)
        for (int c = 0; c < s.cols; ++c)
            result_transposed.value[static_cast<std::size_t>(c) * s.rows + r] = run.reference.at(r, c);
    result_transposed.magnitude.assign(run.reference.magnitude.size(), 0.0);
    for (int r = 0; r < s.rows; ++r)
        for (int c = 0; c < s.cols; ++c)
            result_transposed.magnitude[static_cast<std::size_t>(c) * s.rows + r] =
                run.reference.magnitude[static_cast<std::size_t>(r) * s.cols + c];
    if (matches(run.got, result_transposed))
        return "P holds the transpose of M * N: element (row, col) was stored at P[col * rows + row]; it belongs "
               "at P[row * cols + col]";

    const HostMatrix Mt = transposed(run.M);
    const HostMatrix Nt = transposed(run.N);
    if (matches(run.got, reference_matmul(Mt, run.N)))
        return "P equals transpose(M) * N: M was read down a column; element (row, k) of M is M[row * inner + k]";
    if (matches(run.got, reference_matmul(run.M, Nt)))
        return "P equals M * transpose(N): N was read along a row; element (k, col) of N is N[k * cols + col]";
    if (matches(run.got, reference_matmul(run.N, run.M)))
        return "P equals N * M: the operands are swapped; the row of P comes from M and the column from N";
    return {};
}

// True when the lab's inputs are TF32 and every wrong element is finite and within a few tolerances of the
// reference: what inputs truncated instead of rounded leave (a wrong index or a missed term errs by far more).
bool close_tf32_misses(const FailedRun& run, std::size_t nan_results) {
    constexpr double close_tolerances = 4.0;
    const tilelab::ReferenceProduct& ref = run.reference;
    if (ref.input_precision != tilelab::InputPrecision::tf32 || run.comparison.wrong == 0 || nan_results > 0)
        return false;
    for (std::size_t i = 0; i < run.comparison.status.size(); ++i) {
        if (run.comparison.status[i] != ElementStatus::wrong) continue;
        const double error = std::fabs(static_cast<double>(run.got[i]) - ref.value[i]);
        if (!std::isfinite(run.got[i]) ||
            error > close_tolerances * tilelab::tolerance(ref.inner, ref.magnitude[i], ref.input_precision))
            return false;
    }
    return true;
}

}  // namespace

ReferenceProduct product_cut_to_run(const HostMatrix& M, const HostMatrix& N, const FailedRun& run) {
    const ReferenceProduct full = reference_matmul(M, N);
    ReferenceProduct p;
    p.rows = run.shape.rows;
    p.inner = run.shape.inner;
    p.cols = run.shape.cols;
    p.input_precision = run.reference.input_precision;
    p.value.resize(static_cast<std::size_t>(p.rows) * p.cols);
    p.magnitude.resize(p.value.size());
    for (int r = 0; r < p.rows; ++r)
        for (int c = 0; c < p.cols; ++c) {
            const std::size_t from = static_cast<std::size_t>(r) * full.cols + c;
            const std::size_t to = static_cast<std::size_t>(r) * p.cols + c;
            p.value[to] = full.value[from];
            p.magnitude[to] = full.magnitude[from];
        }
    return p;
}

bool result_matches(const FailedRun& run, const ReferenceProduct& alternative) {
    return compare(run.got.data(), alternative, 0).passed();
}

std::vector<std::string> diagnose(const FailedRun& run) {
    const Shape& s = run.shape;
    const Comparison& cmp = run.comparison;
    const std::size_t total = cmp.status.size();
    std::vector<std::string> hints;

    if (cmp.unwritten == total)
        return {"nothing was written to P: the kernel is not implemented yet, returns before storing, or the "
                "grid has no blocks; or it adds into P (P[i] += ..., atomicAdd, beta * P) without first storing "
                "to it: P does not start at zero (the kit fills it with NaN, and the sum stays NaN)"};

    std::size_t bad_outside_partial = 0;
    std::size_t nan_results = 0;
    std::size_t past_end_results = 0;  // NaN with the bits the CPU backend keeps past the end of each buffer
    std::size_t fresh_results = 0;     // NaN with the bits of the CPU backend's fresh shared memory
    for (std::size_t i = 0; i < total; ++i) {
        if (cmp.status[i] == ElementStatus::correct) continue;
        const int row = static_cast<int>(i / s.cols);
        const int col = static_cast<int>(i % s.cols);
        if (!in_partial_tile(s, run.tile_width, row, col)) ++bad_outside_partial;
        if (cmp.status[i] == ElementStatus::wrong && std::isnan(run.got[i])) {
            ++nan_results;
            std::uint32_t bits = 0;
            std::memcpy(&bits, &run.got[i], sizeof bits);
            past_end_results += tilelab::cpu::is_past_end_poison(bits);
            fresh_results += bits == tilelab::cpu::fresh_memory_bits;
        }
    }
    // The pattern means something only when P has both full tiles (all right) and partial ones (some wrong).
    const bool has_partial_tile = s.rows % run.tile_width != 0 || s.cols % run.tile_width != 0;
    const bool has_full_tile = s.rows >= run.tile_width && s.cols >= run.tile_width;
    const bool only_partial_tile_bad = has_partial_tile && has_full_tile && bad_outside_partial == 0;

    if (cmp.unwritten > 0) {
        if (only_partial_tile_bad && cmp.wrong == 0)
            hints.push_back("the last partial tile of rows or columns was never computed: the grid is too small; "
                            "use ceiling division, (n + TILE_WIDTH - 1) / TILE_WIDTH blocks");
        else
            hints.push_back(std::to_string(cmp.unwritten) +
                            " elements of P were never written: check that the grid covers all of P and that "
                            "every thread inside P stores its sum");
    }
    if (fresh_results > 0)
        hints.push_back(std::to_string(nan_results) +
                        " results are NaN: the kernel read shared memory (or a cudaMalloc buffer of its own) before "
                        "any thread stored to it; these results carry the NaN that the CPU backend fills fresh memory "
                        "with. Most likely a tile element outside M or N is skipped instead of set to 0.0f (0 times "
                        "an unwritten value is not 0 when that value is NaN or infinite, which leftover shared memory "
                        "on a GPU may be), or a tile is read before the barrier after its loads");
    else if (past_end_results > 0)
        hints.push_back(std::to_string(nan_results) +
                        " results are NaN: the kernel read past the end of M or N (these results carry the NaN that "
                        "the CPU backend keeps in the bytes just past the end of every device buffer); check the "
                        "bounds test on each load");
    else if (nan_results > 0)
        hints.push_back(std::to_string(nan_results) +
                        " results are NaN: the kernel read past the end of M or N (the grader surrounds the inputs "
                        "with NaN); check the bounds test on each load. Or it added into P before storing to it: "
                        "P does not start at zero (the kit fills it with NaN)");
    // A tensor-core kernel's fragments in another layout: the result names its mistake, and the patterns below
    // (an inner partial tile, say) would only be its side effects.
    const std::string layout = cmp.wrong > 0 ? fragment_layout_hint(run) : std::string();
    if (!layout.empty()) {
        hints.push_back(layout);
        return hints;
    }
    // A tiled kernel's index slip: P is the product that slip computes, every element of it, so nothing is NaN or
    // unwritten; an inner partial tile, say, would only be a side effect of it.
    const std::string slip = cmp.wrong > 0 && cmp.unwritten == 0 && nan_results == 0 ? tile_slip_hint(run) : "";
    if (!slip.empty()) {
        hints.push_back(slip);
        return hints;
    }
    if (close_tf32_misses(run, nan_results))
        hints.push_back(std::to_string(cmp.wrong) +
                        " results are close to the reference but outside what TF32 inputs allow: convert every "
                        "element of M's and N's fragments with wmma::__float_to_tf32 before mma_sync (with tilelab/mma.hpp: "
                        "with tilelab::to_tf32 before tilelab::mma_m16n8k8_tf32; unconverted floats are truncated by the "
                        "tensor cores, an error of one sign per input that adds up over the inner dimension)");
    if (cmp.wrong > 0 && only_partial_tile_bad)
        hints.push_back("only elements in the last partial tile of rows or columns are wrong: check the bounds "
                        "tests, and load 0.0f into tile elements that fall outside M or N");
    // A lab of its own configuration phases by its own depth (8 in lab 05), not by its block tile.
    const int depth = run.lab != nullptr ? run.lab->depth() : run.tile_width;
    const std::string depth_name = run.lab != nullptr && run.lab->block_tile > 0 ? "the phase depth" : "TILE_WIDTH";
    if (cmp.wrong > 0 && s.inner % depth != 0 && cmp.wrong + cmp.unwritten == total)
        hints.push_back("every element is wrong and inner (" + std::to_string(s.inner) + ") is not a multiple of " +
                        depth_name + " (" + std::to_string(depth) +
                        "): the last phase covers a partial tile; run it, and load 0.0f for elements past inner");
    if (cmp.wrong > 0) {
        std::string hint = transposition_hint(run);
        if (!hint.empty()) hints.push_back(std::move(hint));
    }
    return hints;
}

namespace {

int round_up(int n, int tile) { return (n + tile - 1) / tile * tile; }

// How a block's threads are indexed, for the hints: a 2D block of TILE_WIDTH labs names threadIdx too.
bool two_dimensional_blocks(const LabUnderTest& lab) { return lab.block_tile == 0; }

}  // namespace

std::string describe_contract_launch(const LabUnderTest& lab, const Shape& shape) {
    const int t = lab.tile();
    const int grid_x = (shape.cols + t - 1) / t, grid_y = (shape.rows + t - 1) / t;
    const std::string x_range = "0 to " + std::to_string(grid_x * t - 1) + ", P has " + std::to_string(shape.cols);
    const std::string y_range = "0 to " + std::to_string(grid_y * t - 1) + ", P has " + std::to_string(shape.rows);
    const std::string grid = "grid (" + std::to_string(grid_x) + ", " + std::to_string(grid_y) + ")";
    if (two_dimensional_blocks(lab))
        return grid + " of blocks (" + std::to_string(t) + ", " + std::to_string(t) +
               "): x = blockIdx.x * blockDim.x + threadIdx.x runs over the columns of P (" + x_range +
               "), y = blockIdx.y * blockDim.y + threadIdx.y over its rows (" + y_range + ")";
    return grid + " of blocks (" + std::to_string(lab.threads_per_block()) + ", 1), each a " + std::to_string(t) +
           " x " + std::to_string(t) + " tile of P: blockIdx.x * " + std::to_string(t) +
           " is the tile's first column (columns " + x_range + "), blockIdx.y * " + std::to_string(t) +
           " its first row (rows " + y_range + ")";
}

bool looks_like_x_over_rows(const FailedRun& run) {
    const Shape& s = run.shape;
    const int t = run.tile_width;
    // With the axes swapped, x (rounded up to whole blocks over the columns) names rows and y names columns.
    const int rows_reached = std::min(s.rows, round_up(s.cols, t));
    const int cols_reached = std::min(s.cols, round_up(s.rows, t));
    if (rows_reached == s.rows && cols_reached == s.cols) return false;  // it would have computed all of P
    for (int r = 0; r < s.rows; ++r)
        for (int c = 0; c < s.cols; ++c) {
            const ElementStatus status = run.comparison.status[static_cast<std::size_t>(r) * s.cols + c];
            const bool reached = r < rows_reached && c < cols_reached;
            if (status != (reached ? ElementStatus::correct : ElementStatus::unwritten)) return false;
        }
    return true;
}

std::string contract_launch_rule(const LabUnderTest& lab, const Shape& shape, const std::string& what) {
    return "your launcher's run was right, but under the kit's own launch the same kernel " + what +
           ". The rule of that launch (labs.hpp): the kit launches the lab's kernel itself with the contract's " +
           describe_contract_launch(lab, shape) +
           ", and with the dynamic shared memory that your launcher's launch gave it. A kernel that works only under "
           "a grid or block of its launcher's own (another block size, a 1D grid, a count of threads it assumes) "
           "breaks that rule: launch it with the contract's grid and block, and take each thread's part of P from "
           "blockIdx, blockDim and threadIdx as the contract does";
}

std::vector<std::string> diagnose_contract_launch(const LabUnderTest& lab, const FailedRun& run) {
    const Shape& s = run.shape;
    const Comparison& cmp = run.comparison;
    const bool two_d = two_dimensional_blocks(lab);
    const std::string contract =
        two_d ? "the contract ties x to columns and y to rows: col = blockIdx.x * blockDim.x + threadIdx.x, "
                "row = blockIdx.y * blockDim.y + threadIdx.y, and the launcher's grid is ((cols + TILE_WIDTH - 1) / "
                "TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH)"
              : "the contract ties blockIdx.x to the tile's columns and blockIdx.y to its rows: the tile starts at "
                "column blockIdx.x * " + std::to_string(lab.tile()) + " and row blockIdx.y * " +
                    std::to_string(lab.tile()) + ", and the launcher's grid is ((cols + " + std::to_string(lab.tile()) +
                    " - 1) / " + std::to_string(lab.tile()) + ", (rows + " + std::to_string(lab.tile()) + " - 1) / " +
                    std::to_string(lab.tile()) + ")";
    if (looks_like_x_over_rows(run)) {
        const int rows_reached = std::min(s.rows, round_up(s.cols, run.tile_width));
        const int cols_reached = std::min(s.cols, round_up(s.rows, run.tile_width));
        return {"the kernel maps x to rows and y to columns: under the kit's launch it wrote exactly the elements "
                "with row < " + std::to_string(rows_reached) + " and col < " + std::to_string(cols_reached) +
                ", all of them right, the part of P that the kit's x reaches as rows and its y as columns; your "
                "launcher used the same mapping, so its own P was right. Instead, " + contract +
                " (a warp's threads then read a row of N and write a row of P side by side)"};
    }
    std::vector<std::string> hints;
    if (cmp.unwritten == cmp.status.size())
        hints.push_back("the kernel wrote nothing under the kit's launch");
    else if (cmp.wrong == 0)
        hints.push_back("every element the kernel wrote under the kit's launch is right, but " +
                        std::to_string(cmp.unwritten) + " were never written: its threads cover less of P than "
                        "under your launcher");
    hints.push_back("likely causes, most likely first: (1) x mapped to rows and y to columns; " + contract +
                    "; (2) the kernel relies on a grid or block of your launcher's own (another block size, a 1D "
                    "grid, a count of threads or blocks it assumes): it must work with exactly the kit's launch above; "
                    "(3) your launcher computes P itself, on the host or through another kernel, which earns nothing; "
                    "(4) the kernel adds into P (+=, atomicAdd) and your launcher clears P first (cudaMemset): the "
                    "kit's launch does not, and P does not start at zero; store each element instead");
    return hints;
}

}  // namespace tilelab::grader
