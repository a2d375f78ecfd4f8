/// @file matrix_element.hpp
/// @brief One element of one of a product's matrices (M, N or P), in the words a student reads: "M[4], past the end of
/// M (M is 1x1, 1 element; index 4 would be row 4, column 0)". The CPU
/// backend's fault messages use it for the buffers the kit's runner named (tilelab/cpu/named_matrices.hpp), and the
/// checker for its own diagnosis of a fault, so that both say the same thing the same way.
#pragma once

#include <cstddef>
#include <cstdio>

namespace tilelab {

/// Writes into @p text (at most @p size bytes, always terminated) where element @p element of the row-major
/// @p rows × @p cols matrix @p name lies: inside it (its row and column), past its last element or before its first
/// (a negative index). Allocates nothing and takes no lock: the CPU backend calls it from its fault handler.
/// Returns what std::snprintf returns.
inline int format_matrix_element(char* text, std::size_t size, const char* name, std::size_t rows, std::size_t cols,
                                 long long element) {
    const unsigned long long count = static_cast<unsigned long long>(rows) * cols;
    const unsigned long long width = cols > 0 ? cols : 1;
    if (element < 0)
        return std::snprintf(text, size, "%s[%lld], before the start of %s (%s is %zux%zu, %llu element%s; a negative "
                             "index)", name, element, name, name, rows, cols, count, count == 1 ? "" : "s");
    const auto index = static_cast<unsigned long long>(element);
    if (index >= count)
        return std::snprintf(text, size, "%s[%lld], past the end of %s (%s is %zux%zu, %llu element%s; index %lld "
                             "would be row %llu, column %llu)", name, element, name, name, rows, cols, count,
                             count == 1 ? "" : "s", element, index / width, index % width);
    return std::snprintf(text, size, "%s[%lld], row %llu, column %llu of %s (%s is %zux%zu)", name, element,
                         index / width, index % width, name, name, rows, cols);
}

}  // namespace tilelab
