// Tells the grader which launcher and kernel lab 01 provides and which shapes it must handle.
#include "lab_under_test.hpp"

#include <tilelab/labs.hpp>

const tilelab::grader::LabUnderTest& tilelab::grader::lab_under_test() {
    static const LabUnderTest lab{"lab01", "matmul_naive", &::matmul_naive, reinterpret_cast<const void*>(&::matmul_naive_kernel), TILE_WIDTH, false, false};
    return lab;
}
