#include "tilelab/host_matrix.hpp"

#include <stdexcept>
#include <string>

namespace tilelab {

HostMatrix::HostMatrix(int rows, int cols, float value) : rows_(rows), cols_(cols) {
    if (rows < 0 || cols < 0)
        throw std::invalid_argument("HostMatrix: negative size " + std::to_string(rows) + "x" + std::to_string(cols));
    values_.assign(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols), value);
}

}  // namespace tilelab
