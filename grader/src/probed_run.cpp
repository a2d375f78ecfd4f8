// See probed_run.hpp: a multiply with the operand probe on, against the lab's program or a model answer's.
#include "probed_run.hpp"

#include "gate_program.hpp"
#include "guarded_buffer.hpp"
#include "runner_process.hpp"

#include <tilelab/compare.hpp>
#include <tilelab/cpu/operand_probe.hpp>
#include <tilelab/random.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace fs = std::filesystem;

namespace tilelab::grader {
namespace {

// The lab's own program.
class LabProgram final : public ProbeTarget {
public:
    Reply ask(const wire::Writer& request, const std::string& doing) override { return ask_runner(request, doing); }
    std::string who() const override { return "the kit's launch of the kernel"; }
};

// A model answer's CPU-backend program: the kit's own code, so it runs unconfined, with the check's deadline.
class ModelProgram final : public ProbeTarget {
public:
    ModelProgram(const std::string& folder, std::string name) : name_(std::move(name)) {
        const fs::path program = kit_program_folder() / ("tilelab-technique-model-" + folder);
        if (!fs::exists(program))
            throw std::runtime_error("the technique check's model program " + program.string() +
                                     " is missing: the kit's build makes it next to the checker (rebuild the kit)");
        process_ = std::make_unique<RunnerProcess>(std::vector<std::string>{program.string()},
                                                   checker_options().deadline, true);
        const Reply hello = ask(hello_request(), "starting " + name_ + "'s program");
        static_cast<void>(hello);
    }
    Reply ask(const wire::Writer& request, const std::string& doing) override {
        Reply reply;
        reply.bytes = process_->call(request, doing, reply.header);
        require_ok(reply, who());
        return reply;
    }
    std::string who() const override { return name_; }

private:
    std::string name_;
    std::unique_ptr<RunnerProcess> process_;
};

}  // namespace

ProbeOperands probe_operands_drawn_by_runner(const Shape& shape, std::uint64_t seed) {
    ProbeOperands operands{seed, derive_seed(seed, "second values"), shape.inner, shape.cols, true,
                           HostMatrix(0, 0), HostMatrix(0, 0), HostMatrix(0, 0), HostMatrix(0, 0)};
    return operands;
}

ProbeOperands probe_operands(const Shape& shape, std::uint64_t seed) {
    ProbeOperands operands = probe_operands_drawn_by_runner(shape, seed);
    operands.drawn_by_runner = false;
    operands.M = HostMatrix(shape.rows, shape.inner);
    operands.N = HostMatrix(shape.inner, shape.cols);
    operands.M2 = HostMatrix(shape.rows, shape.inner);
    operands.N2 = HostMatrix(shape.inner, shape.cols);
    for (std::size_t i = 0; i < operands.M.size(); ++i) {
        operands.M.data()[i] = probe_element(operands, gate::Operand::M, i, false);
        operands.M2.data()[i] = gate::probe_second_value(operands.second_seed, operands.M.data()[i]);
    }
    for (std::size_t i = 0; i < operands.N.size(); ++i) {
        operands.N.data()[i] = probe_element(operands, gate::Operand::N, i, false);
        operands.N2.data()[i] = gate::probe_second_value(operands.second_seed, operands.N.data()[i]);
    }
    return operands;
}

float probe_element(const ProbeOperands& operands, gate::Operand which, std::uint64_t index, bool second) noexcept {
    const float value = gate::product_operand(operands.seed, which, index, static_cast<std::uint64_t>(operands.inner),
                                              static_cast<std::uint64_t>(operands.cols));
    return second ? gate::probe_second_value(operands.second_seed, value) : value;
}

std::unique_ptr<ProbeTarget> lab_program() { return std::make_unique<LabProgram>(); }

bool models_built() { return fs::exists(kit_program_folder() / "tilelab-technique-models"); }

std::unique_ptr<ProbeTarget> model_program(const std::string& folder, const std::string& name) {
    return std::make_unique<ModelProgram>(folder, name);
}

ProbedRun run_probed(ProbeTarget& target, const Shape& shape, const ProbeOperands& operands, std::uint32_t hooks,
                     BlockSample sample) {
    wire::Writer request;
    request.put(wire::Op::probed_multiply).put<std::uint32_t>(hooks);
    request.put<std::uint32_t>(sample.count).put<std::uint64_t>(sample.seed);
    request.put<std::uint64_t>(operands.second_seed);
    request.put<std::uint8_t>(operands.drawn_by_runner ? 1 : 0).put<std::uint64_t>(operands.seed);
    request.put(wire::LaunchMode::contract).put<std::int32_t>(shape.rows);
    request.put<std::int32_t>(shape.inner).put<std::int32_t>(shape.cols);
    // No guard zones: the correctness checks look after writes outside P.
    request.put<std::uint64_t>(0).put<std::uint8_t>(0).put(guard_bits).put(unwritten_bits);
    if (!operands.drawn_by_runner)
        request.put_floats(operands.M.data(), operands.M.size()).put_floats(operands.N.data(), operands.N.size());
    const std::string doing = "multiplying " + to_string(shape) + " with " + target.who() + ", its operands probed";
    const Reply reply = target.ask(request, doing);
    require_ok(reply, target.who());
    wire::Reader in = body(reply);
    ProbedRun run;
    if (operands.drawn_by_runner)
        run.written = in.get_records<wire::WrittenElement>();
    else
        run.P = in.get_floats();
    in.get<wire::LaunchCounts>();  // the probe's own counts say more
    run.counts = in.get<wire::ProbeCounts>();
    require_complete(in, doing);
    const std::size_t elements = static_cast<std::size_t>(shape.rows) * shape.cols;
    if (operands.drawn_by_runner ? run.written.size() > elements : run.P.size() != elements)
        throw RunnerGone("the lab's program sent back a P of the wrong size while " + doing);
    for (const wire::WrittenElement& element : run.written)
        if (element.element >= elements)
            throw RunnerGone("the lab's program sent back an element outside P while " + doing);
    return run;
}

}  // namespace tilelab::grader
