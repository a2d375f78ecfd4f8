// Tells the grader which launcher lab 02 provides and which shapes it must handle.
#include "lab_under_test.hpp"

#include <tilelab/labs.hpp>

const tilelab::grader::LabUnderTest& tilelab::grader::lab_under_test() {
    static const LabUnderTest lab{"lab02", "matmul_tiled", &::matmul_tiled, TILE_WIDTH, true};
    return lab;
}
