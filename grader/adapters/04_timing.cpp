// Lab 04 times the lab 03 kernel: the grader runs that kernel itself too, to compare the student's timing with its own.
#include "lab_under_test.hpp"

#include <tilelab/labs.hpp>

const tilelab::grader::LabUnderTest& tilelab::grader::lab_under_test() {
    static const LabUnderTest lab{"lab04", "matmul_timed", &::matmul_tiled_boundary,
                                  reinterpret_cast<const void*>(&::matmul_tiled_boundary_kernel), TILE_WIDTH, false,
                                  true};
    return lab;
}
