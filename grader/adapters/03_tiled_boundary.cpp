// Tells the grader which launcher and kernel lab 03 provides and which shapes it must handle.
#include "lab_under_test.hpp"

#include <tilelab/labs.hpp>

const tilelab::grader::LabUnderTest& tilelab::grader::lab_under_test() {
    static const LabUnderTest lab{"lab03", "matmul_tiled_boundary", &::matmul_tiled_boundary, reinterpret_cast<const void*>(&::matmul_tiled_boundary_kernel), TILE_WIDTH, false, true};
    return lab;
}
