/// @file probed_run.hpp
/// @brief One multiply with the CPU backend's operand probe on (tilelab/cpu/operand_probe.hpp), as the technique and
/// pipeline checks ask for it: the operands it needs, the request, and what came back, from the lab's program or
/// from a model answer's program of the kit's own.
#pragma once

#include "lab_runner.hpp"
#include "lab_under_test.hpp"
#include "shapes.hpp"

#include <tilelab/gate_data.hpp>
#include <tilelab/host_matrix.hpp>
#include <tilelab/wire.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tilelab::grader {

/// The operands of a probed multiply: M and N drawn as the performance gate draws its own (gate::product_operand),
/// so that no kernel can tell the technique check's runs from the gate's by the values it reads, and their second
/// values (gate::probe_second_value), which the probe puts in their place where the lab's technique says they pass.
struct ProbeOperands {
    std::uint64_t seed = 0;         ///< M and N: gate::product_operand from this seed.
    std::uint64_t second_seed = 0;  ///< The probe's second values: gate::probe_second_value for this seed.
    int inner = 0, cols = 0;        ///< The product's inner dimension and N's columns (the draw's row lengths).
    /// Whether the lab's program draws M and N itself (no matrix is sent, built or sent back whole: the gate's
    /// 2048² shape, where the checker draws only the rows and columns it compares).
    bool drawn_by_runner = false;
    HostMatrix M, N;    ///< What the kernel multiplies (empty when drawn by the runner).
    HostMatrix M2, N2;  ///< The second values: where the probe replaces, P must come out as M2 · N2.
};

/// Element @p index (row major) of operand @p which of @p operands, or its second value when @p second.
float probe_element(const ProbeOperands& operands, gate::Operand which, std::uint64_t index, bool second) noexcept;

/// Operands for @p shape drawn from @p seed, M and N (and M2, N2) built: the shapes the emulator runs whole.
ProbeOperands probe_operands(const Shape& shape, std::uint64_t seed);

/// Operands for @p shape drawn from @p seed that the lab's program draws itself (probe_element finds any of them).
ProbeOperands probe_operands_drawn_by_runner(const Shape& shape, std::uint64_t seed);

/// The blocks a probed multiply runs: all (count 0), or count of them drawn from seed
/// (tilelab::cpu::sample_next_launch_blocks).
struct BlockSample {
    unsigned count = 0;
    std::uint64_t seed = 0;
};

/// What one probed multiply gave back.
struct ProbedRun {
    std::vector<float> P;       ///< The product the kernel wrote (empty for operands drawn by the runner: see written).
    std::vector<wire::WrittenElement> written;  ///< Drawn by the runner: the elements of P the kernel wrote, only.
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
