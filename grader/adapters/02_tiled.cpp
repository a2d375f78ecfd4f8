// Tells the grader which launcher and kernel lab 02 provides and which shapes it must handle.
#include "lab_under_test.hpp"

#include <tilelab/labs.hpp>

const tilelab::grader::LabUnderTest& tilelab::grader::lab_under_test() {
    static const LabUnderTest lab{"lab02", "matmul_tiled", &::matmul_tiled, reinterpret_cast<const void*>(&::matmul_tiled_kernel), TILE_WIDTH, true, true};
    return lab;
}
