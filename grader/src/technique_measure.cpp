// See technique_measure.hpp.
#include "technique_measure.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace tilelab::grader {

TechniqueMeasure technique_measure(const std::string& name) {
    if (name == "global_reads") return TechniqueMeasure::global_reads;
    if (name == "shared_reads") return TechniqueMeasure::shared_reads;
    if (name == "vector_accesses") return TechniqueMeasure::vector_accesses;
    if (name == "async_in_flight") return TechniqueMeasure::async_in_flight;
    if (name == "tensor_cores") return TechniqueMeasure::tensor_cores;
    if (name == "mma_sync") return TechniqueMeasure::mma_sync;
    throw std::invalid_argument("no technique measure is called \"" + name + "\"");
}

namespace {
double per(std::uint64_t count, std::uint64_t of) {
    return of == 0 ? 0.0 : static_cast<double>(count) / static_cast<double>(of);
}
}  // namespace

double technique_value(TechniqueMeasure measure, const wire::ProbeCounts& counts, std::uint64_t multiply_adds,
                       std::uint64_t operand_elements) {
    switch (measure) {
        case TechniqueMeasure::global_reads: return per(counts.operand_words_staged, multiply_adds);
        case TechniqueMeasure::shared_reads: return per(counts.shared_reads, multiply_adds);
        case TechniqueMeasure::vector_accesses:
            // Of the operands staged, and never of fewer than every element once: tiles that hold something else
            // (negated values, say) stage few operands, and one float4 load must not make them all.
            return std::min(1.0, per(counts.vector_global_operand_words,
                                     std::max(counts.operand_words_staged, operand_elements)));
        case TechniqueMeasure::async_in_flight: return per(counts.in_flight_reads, counts.shared_reads);
        case TechniqueMeasure::tensor_cores: return std::min(1.0, per(counts.tensor_core_multiply_adds, multiply_adds));
        case TechniqueMeasure::mma_sync: return std::min(1.0, per(counts.mma_sync_multiply_adds, multiply_adds));
    }
    return 0;
}

double technique_gain(TechniqueMeasure measure, double value, double reference_value) {
    switch (measure) {
        case TechniqueMeasure::global_reads:
        case TechniqueMeasure::shared_reads: {
            // Fewer per multiply-add is better: the gain is the reference's count over this one. The naive kernel,
            // the reference of the tiled labs, reads both operands of every multiply-add from global memory.
            const double reference = measure == TechniqueMeasure::global_reads && reference_value == 0 ? 2.0
                                                                                                       : reference_value;
            return value <= 0 ? std::numeric_limits<double>::infinity() : reference / value;
        }
        default: return value;
    }
}

double technique_requirement(TechniqueMeasure measure, double model_gain, double fraction) {
    switch (measure) {
        case TechniqueMeasure::global_reads:
        case TechniqueMeasure::shared_reads: return std::max(1.0, 1.0 + fraction * (model_gain - 1.0));
        default: return fraction * model_gain;
    }
}

}  // namespace tilelab::grader
