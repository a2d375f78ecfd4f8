#include "diagnose.hpp"

#include <cmath>
#include <cstddef>

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

}  // namespace

std::vector<std::string> diagnose(const FailedRun& run) {
    const Shape& s = run.shape;
    const Comparison& cmp = run.comparison;
    const std::size_t total = cmp.status.size();
    std::vector<std::string> hints;

    if (cmp.unwritten == total)
        return {"nothing was written to P: the kernel is not implemented yet, returns before storing, or the "
                "grid has no blocks"};

    std::size_t bad_outside_partial = 0;
    std::size_t nan_results = 0;
    for (std::size_t i = 0; i < total; ++i) {
        if (cmp.status[i] == ElementStatus::correct) continue;
        const int row = static_cast<int>(i / s.cols);
        const int col = static_cast<int>(i % s.cols);
        if (!in_partial_tile(s, run.tile_width, row, col)) ++bad_outside_partial;
        if (cmp.status[i] == ElementStatus::wrong && std::isnan(run.got[i])) ++nan_results;
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
    if (nan_results > 0)
        hints.push_back(std::to_string(nan_results) +
                        " results are NaN: the kernel read past the end of M or N (the grader surrounds the inputs "
                        "with NaN); check the bounds test on each load");
    if (cmp.wrong > 0 && only_partial_tile_bad)
        hints.push_back("only elements in the last partial tile of rows or columns are wrong: check the bounds "
                        "tests, and load 0.0f into tile elements that fall outside M or N");
    if (cmp.wrong > 0 && s.inner % run.tile_width != 0 && cmp.wrong + cmp.unwritten == total)
        hints.push_back("every element is wrong and inner (" + std::to_string(s.inner) +
                        ") is not a multiple of TILE_WIDTH (" + std::to_string(run.tile_width) +
                        "): the last phase covers a partial tile; run it, and load 0.0f for elements past inner");
    if (cmp.wrong > 0) {
        std::string hint = transposition_hint(run);
        if (!hint.empty()) hints.push_back(std::move(hint));
    }
    return hints;
}

}  // namespace tilelab::grader
