/// @file lab_under_test.hpp
/// @brief What the grader needs to know about the lab it was built against.
#pragma once

namespace tilelab::grader {

/// A lab's launcher: device pointers in, P = M · N launched (asynchronously) on the GPU.
using Launcher = void (*)(const float* M, const float* N, float* P, int rows, int inner, int cols);

/// The lab linked into this grader program, as one adapter in grader/adapters/ describes it.
struct LabUnderTest {
    const char* name;         ///< "lab01", "lab02", ...
    const char* launcher;     ///< The launcher's name, for messages.
    Launcher launch;            ///< The student's (or solution's) launcher.
    const void* kernel;         ///< The kernel the launcher starts (its host stub), for cudaFuncGetAttributes.
    int tile_width;             ///< TILE_WIDTH the lab was compiled with.
    bool needs_tile_multiples;  ///< True when the lab may assume every dimension is a multiple of tile_width.
    bool uses_shared_tiles;     ///< True when the kernel must keep a tile of M and one of N in shared memory.
};

/// The lab this program grades; defined by exactly one adapter linked into the program.
const LabUnderTest& lab_under_test();

}  // namespace tilelab::grader
