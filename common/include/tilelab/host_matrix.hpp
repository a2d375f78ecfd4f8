/// @file host_matrix.hpp
/// @brief A row-major matrix of floats in host memory.
#pragma once

#include <cstddef>
#include <vector>

namespace tilelab {

/// A `rows × cols` row-major matrix in host memory; element (r, c) is `data()[r * cols + c]`.
class HostMatrix {
public:
    /// A `rows × cols` matrix with every element set to @p value.
    HostMatrix(int rows, int cols, float value = 0.0f);

    /// Number of rows.
    int rows() const noexcept { return rows_; }
    /// Number of columns.
    int cols() const noexcept { return cols_; }
    /// Number of elements, rows × cols.
    std::size_t size() const noexcept { return values_.size(); }

    /// Element (r, c).
    float& at(int r, int c) { return values_[static_cast<std::size_t>(r) * cols_ + c]; }
    /// Element (r, c).
    float at(int r, int c) const { return values_[static_cast<std::size_t>(r) * cols_ + c]; }

    /// The elements, row after row.
    float* data() noexcept { return values_.data(); }
    /// The elements, row after row.
    const float* data() const noexcept { return values_.data(); }

private:
    int rows_;
    int cols_;
    std::vector<float> values_;
};

}  // namespace tilelab
