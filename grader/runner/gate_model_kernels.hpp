/// @file gate_model_kernels.hpp
/// @brief The model answers from solutions/, built under other names, that the performance gate races: a lab's
/// reference (its registry entry's gate reference) and the lab's own model, whose speedup over the same reference
/// calibrates the gate on the grading GPU. Each is linked into a gate program of its own (adapters/gate_model.cu),
/// never into a lab's runner: the process that holds a student's code has none of them. All at the gate's tile
/// width, on device pointers.
///
/// The build renames a model's launcher and kernel (grader/CMakeLists.txt: -D<launcher>=tilelab_model_<launcher>,
/// the same for <kernel>, from the registry's names) and names the program's launcher with TILELAB_GATE_MODEL, so
/// that one gate program source serves every lab of the registry and no model can be taken for a lab's own.
#pragma once

/// Declares the model launcher @p name (tilelab_model_<launcher>), as labs.hpp declares a lab's launcher.
#define TILELAB_DECLARE_MODEL_LAUNCHER(name) \
    void name(const float* M, const float* N, float* P, int rows, int inner, int cols)
