/// @file technique_evidence.hpp
/// @brief The technique check's evidence (CPU backend): the lab's kernel, its model answer and a reference lab's
/// model, each run once on the same shape with the operand probe counting, and the lab's kernel run again with the
/// probe replacing operands where the lab's technique says they must pass (probed_run.hpp). The pipeline check
/// uses the same runs for the share of reads whose tiles were copied ahead.
#pragma once

#include "lab_registry.hpp"
#include "lab_under_test.hpp"
#include "shapes.hpp"
#include "technique_measure.hpp"

#include <cstdint>
#include <string>

namespace tilelab::grader {

/// The shape a lab's technique is counted on, drawn from @p seed (printed with the verdict): one or two whole block
/// tiles of rows and of columns and enough whole phases that a prologue weighs little, so that labs whose blocks
/// differ in size are compared on work none of them pads (the lab's tile is a multiple of its reference's).
Shape technique_shape(const LabUnderTest& lab, TechniqueMeasure measure, std::uint64_t seed);

/// The shape the probe replaces operands on: technique_shape's with a partial tile of rows, of columns and of the
/// inner dimension where the lab must handle one (the evidence covers the edge blocks too), and every dimension a
/// multiple of 4 where 16-byte loads must serve every element.
Shape probe_shape(const LabUnderTest& lab, TechniqueMeasure measure, std::uint64_t seed);

/// What the kernel's, its model's and the reference's counts gave.
struct TechniqueComparison {
    double value = 0;           ///< The kernel's measure (technique_value).
    double model_value = 0;     ///< The lab's own model answer's.
    double reference_value = 0; ///< The reference lab's model's (0 for the naive rule).
    double gain = 0;            ///< The kernel's gain over the reference.
    double model_gain = 0;      ///< The model's gain over the reference.
    double required = 0;        ///< What the check requires of gain.
    std::string counts;         ///< The kernel's counts, in words, for the log.
    wire::ProbeCounts kernel_counts{};  ///< The kernel's counts themselves.
};

/// Counts the lab's kernel, its model and @p entry's technique reference on @p shape and compares them with
/// @p fraction of the model's gain required. Throws what the runs throw (RunnerGone, LabError, std::runtime_error),
/// and std::runtime_error with the kernel's wrong elements when its P is wrong.
TechniqueComparison compare_technique(const LabUnderTest& lab, const LabEntry& entry, TechniqueMeasure measure,
                                      const Shape& shape, std::uint64_t seed, double fraction);

}  // namespace tilelab::grader
