#include "fault_words.hpp"

#include <tilelab/matrix_element.hpp>

namespace tilelab::grader {

std::string describe_fault(const wire::FaultSite& fault, int rows, int inner, int cols, const std::string& doing) {
    const char* name = nullptr;
    int matrix_rows = 0, matrix_cols = 0;
    switch (fault.matrix) {
        case wire::Matrix::M: name = "M", matrix_rows = rows, matrix_cols = inner; break;
        case wire::Matrix::N: name = "N", matrix_rows = inner, matrix_cols = cols; break;
        case wire::Matrix::P: name = "P", matrix_rows = rows, matrix_cols = cols; break;
        case wire::Matrix::none: return "";
    }
    if (matrix_rows <= 0 || matrix_cols <= 0) return "";
    char element[256];
    format_matrix_element(element, sizeof element, name, static_cast<std::size_t>(matrix_rows),
                          static_cast<std::size_t>(matrix_cols), static_cast<long long>(fault.element));
    const char* access = fault.access == 1 ? "read" : fault.access == 2 ? "wrote" : "read or wrote";
    if (fault.host_code != 0)
        return std::string("host code (the launcher, not a kernel) ") + access + " " + element + ", while " + doing +
               ": memory from cudaMalloc is the GPU's; copy it to a host array with cudaMemcpy and use that";
    return std::string("the kernel ") + access + " " + element + ", while " + doing +
           ": check the bounds tests and the index arithmetic";
}

std::string outside_every_matrix(const std::string& doing) {
    return "the kernel reached an address in none of M, N and P while " + doing +
           ": an index far out of bounds, or a pointer that is not from cudaMalloc; check the bounds tests, the index "
           "arithmetic and the pointers the kernel is given";
}

}  // namespace tilelab::grader
