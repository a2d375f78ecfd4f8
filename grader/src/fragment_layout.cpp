#include "fragment_layout.hpp"

#include <tilelab/reference.hpp>

#include <cstddef>

namespace tilelab::grader {

namespace {

// Products up to this many multiply-adds are cheap enough to recompute with each mistake.
constexpr long long max_work = 256LL * 256 * 256;

int layout_round_up(int n, int multiple) { return (n + multiple - 1) / multiple * multiple; }

// @p a, zero-filled to @p rows × @p cols (the zeros a kernel's partial tiles hold).
HostMatrix layout_padded(const HostMatrix& a, int rows, int cols) {
    HostMatrix p(rows, cols, 0.0f);
    for (int r = 0; r < a.rows(); ++r)
        for (int c = 0; c < a.cols(); ++c) p.at(r, c) = a.at(r, c);
    return p;
}

// The run's own product with its elements moved: element (r, c) of the result is the element of P that @p move names.
template <class Move>
ReferenceProduct layout_moved(const FailedRun& run, Move move) {
    ReferenceProduct p = run.reference;
    for (int r = 0; r < p.rows; ++r)
        for (int c = 0; c < p.cols; ++c) {
            int from_r = r, from_c = c;
            move(r, c, from_r, from_c);
            const std::size_t to = static_cast<std::size_t>(r) * p.cols + c;
            const std::size_t from = static_cast<std::size_t>(from_r) * p.cols + from_c;
            p.value[to] = run.reference.value[from];
            p.magnitude[to] = run.reference.magnitude[from];
        }
    return p;
}

const char* const layout_lane_roles = "lane l (g = l / 4, t = l % 4)";

}  // namespace

std::string fragment_layout_hint(const FailedRun& run) {
    const Shape& s = run.shape;
    if (run.reference.input_precision != InputPrecision::tf32 || run.comparison.wrong == 0) return {};
    if (static_cast<long long>(s.rows) * s.inner * s.cols > max_work) return {};
    const int rows16 = layout_round_up(s.rows, 16), inner8 = layout_round_up(s.inner, 8);
    const int cols8 = layout_round_up(s.cols, 8);
    const HostMatrix M = layout_padded(run.M, rows16, inner8);
    const HostMatrix N = layout_padded(run.N, inner8, cols8);
    const std::string a_table = std::string("in mma.m16n8k8's A fragment (TF32), ") + layout_lane_roles +
                                " holds a[0] = A(g, t), a[1] = A(g + 8, t), a[2] = A(g, t + 4), a[3] = A(g + 8, t + 4)";

    // A's a[1] and a[2] exchanged: rows 8-15 of k 0-3 and rows 0-7 of k 4-7 of each 16 x 8 fragment trade places.
    HostMatrix a_swapped = M;
    for (int r0 = 0; r0 < rows16; r0 += 16)
        for (int k0 = 0; k0 < inner8; k0 += 8)
            for (int x = 0; x < 8; ++x)
                for (int y = 0; y < 4; ++y) {
                    a_swapped.at(r0 + 8 + x, k0 + y) = M.at(r0 + x, k0 + 4 + y);
                    a_swapped.at(r0 + x, k0 + 4 + y) = M.at(r0 + 8 + x, k0 + y);
                }
    if (result_matches(run, product_cut_to_run(a_swapped, N, run)))
        return "P equals M * N with each 16 x 8 fragment of M in the wrong layout, its registers a[1] and a[2] "
               "exchanged: " + a_table + "; with tilelab::ldmatrix_x4, matrix j is a[j], so lane l gives the address "
               "of the fragment's row l % 16 at column 4 * (l / 16)";

    // B read with k and n exchanged: b[0] = B(g, t), b[1] = B(g, t + 4), each 8 x 8 block of N transposed.
    HostMatrix b_transposed = N;
    for (int k0 = 0; k0 < inner8; k0 += 8)
        for (int n0 = 0; n0 < cols8; n0 += 8)
            for (int x = 0; x < 8; ++x)
                for (int y = 0; y < 8; ++y) b_transposed.at(k0 + x, n0 + y) = N.at(k0 + y, n0 + x);
    if (result_matches(run, product_cut_to_run(M, b_transposed, run)))
        return std::string("P equals M times N with each 8 x 8 block of N transposed: the B fragment was read with k "
                           "and n exchanged. In mma.m16n8k8's B fragment (TF32), ") + layout_lane_roles +
               " holds b[0] = B(t, g) and b[1] = B(t + 4, g): rows k + t and k + t + 4 of N_tile, column n + g";

    // The halves of a step of 8 along k exchanged in A's registers (a[0], a[1] with a[2], a[3]) or in B's (b[0] with
    // b[1]): the same product, M with the columns k0 + y and k0 + 4 + y of each step exchanged.
    HostMatrix k_swapped = M;
    for (int r = 0; r < rows16; ++r)
        for (int k0 = 0; k0 < inner8; k0 += 8)
            for (int y = 0; y < 4; ++y) {
                k_swapped.at(r, k0 + y) = M.at(r, k0 + 4 + y);
                k_swapped.at(r, k0 + 4 + y) = M.at(r, k0 + y);
            }
    if (result_matches(run, product_cut_to_run(k_swapped, N, run)))
        return "P equals the product with the two halves of each step of 8 along k exchanged in one operand's "
               "fragments: " + a_table + ", and b[0] = B(t, g), b[1] = B(t + 4, g): a[0], a[1] and b[0] are k + t, "
               "a[2], a[3] and b[1] are k + t + 4";

    if (s.rows % 16 != 0 || s.cols % 8 != 0) return {};
    const std::string c_table = std::string("in mma.m16n8k8's accumulator (FP32), ") + layout_lane_roles +
                                " holds c[0] = D(g, 2t), c[1] = D(g, 2t + 1), c[2] = D(g + 8, 2t), c[3] = "
                                "D(g + 8, 2t + 1)";
    // The accumulator's c[1] and c[2] exchanged on the way to P: D(g, 2t + 1) stored at (g + 8, 2t) and back.
    const ReferenceProduct c_swapped = layout_moved(run, [](int r, int c, int& from_r, int& from_c) {
        const int x = r % 16, y = c % 8;
        if (x < 8 && y % 2 == 1) from_r = r + 8, from_c = c - 1;
        if (x >= 8 && y % 2 == 0) from_r = r - 8, from_c = c + 1;
    });
    if (result_matches(run, c_swapped))
        return "P's elements are misplaced within each 16 x 8 product, the accumulator's registers c[1] and c[2] "
               "exchanged: " + c_table;
    // The accumulator's columns taken as t and t + 4: D(g, 2t) stored at column t, D(g, 2t + 1) at column t + 4.
    const ReferenceProduct c_spread = layout_moved(run, [](int, int c, int&, int& from_c) {
        const int y = c % 8;
        from_c = c - y + (y < 4 ? 2 * y : 2 * (y - 4) + 1);
    });
    if (result_matches(run, c_spread))
        return "P's columns are misplaced within each 8-column product: a lane's c[0] and c[1] are neighbours, "
               "columns 2t and 2t + 1, not t and t + 4: " + c_table;
    return {};
}

}  // namespace tilelab::grader
