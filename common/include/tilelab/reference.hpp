/// @file reference.hpp
/// @brief The float64 CPU reference product that every GPU result is checked against.
#pragma once

#include "tilelab/host_matrix.hpp"

#include <cstdint>
#include <vector>

namespace tilelab {

/// The precision a lab's kernel may round its inputs to before multiplying them (the registry's
/// "input_precision"): the tolerance (compare.hpp) allows that rounding on top of float32's.
enum class InputPrecision : std::uint8_t {
    fp32,  ///< The inputs as given: float32 products and sums.
    tf32,  ///< Each input rounded to TF32 (10 explicit mantissa bits, float32's exponent range), then float32 sums.
};

/// P = M · N computed in float64, with the size of each element's terms for the error bound.
struct ReferenceProduct {
    int rows = 0;   ///< Rows of P (and of M).
    int inner = 0;  ///< Columns of M, rows of N: the number of terms in each element's sum.
    int cols = 0;   ///< Columns of P (and of N).
    /// Σₖ M(r,k)·N(k,c) in float64, row-major.
    std::vector<double> value;
    /// Σₖ |M(r,k)|·|N(k,c)|, row-major: any float32 summation order errs by at most inner·u times this.
    std::vector<double> magnitude;
    /// What the kernel under test may round M and N to (its lab's registry entry): compare() allows for it.
    InputPrecision input_precision = InputPrecision::fp32;

    /// The reference value of element (r, c).
    double at(int r, int c) const { return value[static_cast<std::size_t>(r) * cols + c]; }
};

/// Computes M · N in float64 on the CPU, blocked for the cache and split over the hardware threads
/// (a 1024³ product takes a fraction of a second on two cores).
/// Throws std::invalid_argument when M.cols() != N.rows().
ReferenceProduct reference_matmul(const HostMatrix& M, const HostMatrix& N);

}  // namespace tilelab
