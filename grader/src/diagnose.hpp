/// @file diagnose.hpp
/// @brief Turns the pattern of wrong elements into a plain-language hint.
#pragma once

#include "shapes.hpp"

#include <tilelab/compare.hpp>
#include <tilelab/host_matrix.hpp>

#include <string>
#include <vector>

namespace tilelab::grader {

/// The inputs and output of one failed run, as diagnose() needs them.
struct FailedRun {
    const Shape& shape;                ///< The product's sizes.
    int tile_width;                    ///< TILE_WIDTH of the lab.
    const HostMatrix& M;               ///< Left input.
    const HostMatrix& N;               ///< Right input.
    const ReferenceProduct& reference; ///< M · N in float64.
    const std::vector<float>& got;     ///< What the kernel wrote, rows × cols.
    const Comparison& comparison;      ///< compare(got, reference).
    /// The lab, for the index slips of its tiles (tile_slips.hpp) in its own terms; null: none are tested.
    const LabUnderTest* lab = nullptr;
};

/// M · N recomputed in float64 from operands at least as large as @p run's (zero-filled past them, as a kernel's
/// partial tiles are), cut to the run's rows × cols and compared at its input precision: the product that a kernel
/// with a given mistake computes, for result_matches().
ReferenceProduct product_cut_to_run(const HostMatrix& M, const HostMatrix& N, const FailedRun& run);

/// True when @p run's result equals @p alternative within the tolerance: the kernel computed that product.
bool result_matches(const FailedRun& run, const ReferenceProduct& alternative);

/// Hints, most specific first, for a result that failed its comparison; empty when no pattern is recognised.
/// Recognised: nothing written; the last partial tile left unwritten (grid too small); NaN from reads past
/// an input; only the last partial tile wrong (boundary checks); a partial tile along the inner dimension;
/// a tensor-core kernel's fragments in another layout than mma.m16n8k8's (fragment_layout.hpp); a tiled kernel's
/// index slip, when run.lab is set (tile_slips.hpp); and, for square shapes, a transposed result, a transposed
/// input or swapped operands.
std::vector<std::string> diagnose(const FailedRun& run);

/// The kit's own launch of @p lab's kernel for @p shape, in words: its grid and block, x over the columns of P and
/// y over its rows, e.g. "grid (3, 2) of blocks (16, 16): x = blockIdx.x * blockDim.x + threadIdx.x runs over the
/// columns of P (0 to 47, P has 37), y = ... over its rows (0 to 31, P has 20)".
std::string describe_contract_launch(const LabUnderTest& lab, const Shape& shape);

/// The rule of the kit's own launch of @p lab's kernel on @p shape, as the hint for a kernel that did @p what under
/// that launch ("failed": a bad address, a refused launch; "wrote outside P") after its launcher's run of it was
/// right: the contract's grid and block (describe_contract_launch) and the launcher's dynamic shared memory.
std::string contract_launch_rule(const LabUnderTest& lab, const Shape& shape, const std::string& what = "failed");

/// True when @p run is what a kernel that takes its row from x and its column from y leaves under the kit's launch
/// (x over columns): every element that launch's x and y reach with the axes swapped holds its right value, and
/// every other element was never written. run.tile_width is the lab's block tile (LabUnderTest::tile()).
bool looks_like_x_over_rows(const FailedRun& run);

/// Hints, most likely cause first, for a kernel whose launcher's P was right but whose P under the kit's launch
/// (the contract's grid and block) is wrong: x mapped to rows (said outright when looks_like_x_over_rows), a grid
/// or block of the student's own, P computed by other code than the kernel. Replaces diagnose() for that launch,
/// whose hints (a grid too small...) would blame the kit's grid.
std::vector<std::string> diagnose_contract_launch(const LabUnderTest& lab, const FailedRun& run);

}  // namespace tilelab::grader
