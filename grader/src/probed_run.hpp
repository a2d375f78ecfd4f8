/// @file probed_run.hpp
/// @brief One multiply with the CPU backend's operand probe on (tilelab/cpu/operand_probe.hpp), as the technique and
/// pipeline checks ask for it: the operands it needs, the request, and what came back, from the lab's program or
/// from a model answer's program of the kit's own.
#pragma once

#include "lab_runner.hpp"
#include "lab_under_test.hpp"
#include "shapes.hpp"

#include <tilelab/host_matrix.hpp>
#include <tilelab/wire.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tilelab::grader {

/// The operands of a probed multiply: M and N, every element distinct from every other and nonzero (so that the
/// emulator knows each by its value), and a second value for each (M2, N2), distinct from all of them.
struct ProbeOperands {
    HostMatrix M, N;    ///< What the kernel multiplies (empty when pooled: the lab's program draws them).
    HostMatrix M2, N2;  ///< The second values: where the probe replaces, P must come out as M2 · N2.
    /// The probe's table when the elements are drawn from a pool (probe_operands_from_pool): each value, and its
    /// second value. Empty: every element is its own key.
    std::vector<float> keys, values;
    std::uint64_t pool_seed = 0;  ///< Pooled: the seed of wire::pooled_operand's draw of every element.
    /// Whether the elements are drawn from a pool, by the lab's program as by the checker (pooled_element).
    bool pooled() const noexcept { return !keys.empty(); }
};

/// Element @p index of pooled @p operands (M's elements first, then N's, row by row), or its second value.
float pooled_element(const ProbeOperands& operands, std::uint64_t index, bool second) noexcept;

/// Operands for @p shape drawn from @p seed. For a lab whose kernel may round its inputs to TF32 every value is
/// exactly representable in TF32 (a kernel that converts while staging stores the element itself); otherwise
/// uniform in [-1, 1), redrawn where two would collide.
ProbeOperands probe_operands(const Shape& shape, std::uint64_t seed, InputPrecision precision);

/// Operands of any shape whose elements are drawn from a pool of @p pool distinct values (with TF32's rule above),
/// each mapped to its own second value: a table the size of the pool, however large the shape (the performance
/// gate's, whose 2048² elements TF32 has too few values to keep distinct). Repeats do not weaken the evidence: the
/// second value is a function of the value, so P must still come out as M2 · N2 exactly where the operands passed.
/// No matrix is built: the lab's program draws each element where it runs (wire::pooled_operand), and the checker
/// those it compares.
ProbeOperands probe_operands_from_pool(std::uint64_t seed, InputPrecision precision, std::size_t pool);

/// The blocks a probed multiply runs: all (count 0), or count of them drawn from seed
/// (tilelab::cpu::sample_next_launch_blocks).
struct BlockSample {
    unsigned count = 0;
    std::uint64_t seed = 0;
};

/// What one probed multiply gave back.
struct ProbedRun {
    std::vector<float> P;       ///< The product the kernel wrote (empty for pooled operands: see written).
    std::vector<wire::WrittenElement> written;  ///< Pooled operands: the elements of P the kernel wrote, only.
    wire::ProbeCounts counts{};  ///< What the emulator counted.
};

/// A program that answers probed multiplies: the lab's own (through ask_runner) or a model answer's.
class ProbeTarget {
public:
    virtual ~ProbeTarget() = default;
    /// Sends @p request (its doing in messages) and returns the reply; throws RunnerGone or LabError.
    virtual Reply ask(const wire::Writer& request, const std::string& doing) = 0;
    /// What ran, for messages: "the kernel", "the model answer of lab 03".
    virtual std::string who() const = 0;
};

/// The lab's own program (the one the checker grades).
std::unique_ptr<ProbeTarget> lab_program();

/// Whether this kit has the technique checks' model programs (the kit's self-test builds them from solutions/).
bool models_built();

/// The kit's CPU-backend program of the model answer in solutions/@p folder (tilelab-technique-model-<folder>, next
/// to the checker, or in TILELAB_GATE_REFERENCE_DIR), started unconfined: no student code runs in it. Throws
/// std::runtime_error when it is missing.
std::unique_ptr<ProbeTarget> model_program(const std::string& folder, const std::string& name);

/// Runs the kit's launch of the kernel behind @p target on @p shape with @p operands, the probe replacing at
/// @p hooks (tilelab::cpu::ProbeHook bits; 0: count only). Throws what ProbeTarget::ask throws, and RunnerGone for a
/// reply of the wrong shape.
ProbedRun run_probed(ProbeTarget& target, const Shape& shape, const ProbeOperands& operands, std::uint32_t hooks,
                     BlockSample sample = {});

}  // namespace tilelab::grader
