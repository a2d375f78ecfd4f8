/// @file technique_measure.hpp
/// @brief The technique checks' arithmetic (CPU backend): from what the emulator's operand probe counted in the
/// lab's kernel, its model answer and a reference lab's model, the measure each lab's technique improves and the
/// requirement, as the performance gate's is: a fraction of the way from the reference to the lab's own model.
#pragma once

#include <tilelab/wire.hpp>

#include <cstdint>
#include <string>

namespace tilelab::grader {

/// What a lab's technique improves, as the emulator counts it (the registry's technique measure).
enum class TechniqueMeasure {
    global_reads,     ///< Operand elements brought into shared memory per multiply-add (the naive kernel reads 2).
    shared_reads,     ///< Words read from shared memory per multiply-add (a float4 read is four).
    vector_accesses,  ///< The share of operand words that 16-byte global loads brought in: of those staged into
                      ///< the tiles, and never less than every element of M and N once.
    async_in_flight,  ///< The share of shared reads made of tiles whose asynchronous copies ran ahead.
    tensor_cores,     ///< The share of the multiply-adds done by warp matrix operations.
    mma_sync,         ///< The share of the multiply-adds done by mma.sync (tilelab/mma.hpp).
};

/// The measure named @p name in the registry; throws std::invalid_argument for another name.
TechniqueMeasure technique_measure(const std::string& name);

/// A measure as a gain: how much better than the reference (higher is better, 1 is the reference's level) for the
/// per-multiply-add measures; the share itself (0 to 1) for the shares. @p multiply_adds is rows × inner × cols,
/// @p operand_elements the elements of M and N (rows × inner + inner × cols), each of which some load must bring.
double technique_value(TechniqueMeasure measure, const wire::ProbeCounts& counts, std::uint64_t multiply_adds,
                       std::uint64_t operand_elements);

/// The gain of @p value over @p reference_value (both technique_value's): their ratio for the per-multiply-add
/// measures (for global_reads the reference is the naive kernel's 2 per multiply-add when @p reference_value is 0),
/// the value itself for the shares.
double technique_gain(TechniqueMeasure measure, double value, double reference_value);

/// What the check requires of the gain: 1 + f (g − 1) for the ratios (g the lab's own model's gain), f · g for the
/// shares; never less than the reference's own level.
double technique_requirement(TechniqueMeasure measure, double model_gain, double fraction);

}  // namespace tilelab::grader
