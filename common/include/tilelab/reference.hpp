/// @file reference.hpp
/// @brief The float64 CPU reference product that every GPU result is checked against.
#pragma once

#include "tilelab/host_matrix.hpp"

#include <vector>

namespace tilelab {

/// P = M · N computed in float64, with the size of each element's terms for the error bound.
struct ReferenceProduct {
    int rows = 0;   ///< Rows of P (and of M).
    int inner = 0;  ///< Columns of M, rows of N: the number of terms in each element's sum.
    int cols = 0;   ///< Columns of P (and of N).
    /// Σₖ M(r,k)·N(k,c) in float64, row-major.
    std::vector<double> value;
    /// Σₖ |M(r,k)|·|N(k,c)|, row-major: any float32 summation order errs by at most inner·u times this.
    std::vector<double> magnitude;

    /// The reference value of element (r, c).
    double at(int r, int c) const { return value[static_cast<std::size_t>(r) * cols + c]; }
};

/// Computes M · N in float64 on the CPU, blocked for the cache and split over the hardware threads
/// (a 1024³ product takes a fraction of a second on two cores).
/// Throws std::invalid_argument when M.cols() != N.rows().
ReferenceProduct reference_matmul(const HostMatrix& M, const HostMatrix& N);

}  // namespace tilelab
