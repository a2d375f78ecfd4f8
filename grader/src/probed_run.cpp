// See probed_run.hpp: a multiply with the operand probe on, against the lab's program or a model answer's.
#include "probed_run.hpp"

#include "gate_program.hpp"
#include "guarded_buffer.hpp"
#include "runner_process.hpp"

#include <tilelab/compare.hpp>
#include <tilelab/cpu/operand_probe.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <unordered_set>

namespace fs = std::filesystem;

namespace tilelab::grader {
namespace {

std::uint32_t bits_of(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

// Values a kernel might make up without reading M or N (a constant tile, an identity): never an operand.
bool too_plain(float value) {
    return value == 0.0f || std::fabs(value) == 1.0f || std::fabs(value) == 2.0f || std::fabs(value) == 0.5f;
}

// Distinct values, none plain, drawn from @p seed: TF32-exact ones (sign, one of 1024 mantissas, an exponent from a
// range just wide enough for @p count with room to spare) or float32's uniform in [-1, 1).
std::vector<float> distinct_values(std::size_t count, std::uint64_t seed, bool tf32) {
    std::mt19937_64 draw(seed);
    std::unordered_set<std::uint32_t> seen;
    std::vector<float> values;
    values.reserve(count);
    int exponents = 2;
    while (static_cast<std::size_t>(2048) * exponents < 2 * count) exponents += 2;
    while (values.size() < count) {
        float value;
        if (tf32) {
            const std::uint64_t bits = draw();
            const int mantissa = static_cast<int>(bits & 1023u);
            const int exponent = static_cast<int>((bits >> 10) % static_cast<std::uint64_t>(exponents)) - exponents / 2;
            value = std::ldexp(1.0f + static_cast<float>(mantissa) / 1024.0f, exponent) * ((bits >> 40) & 1 ? -1.0f : 1.0f);
        } else {
            value = 2.0f * static_cast<float>(draw() >> 40) * (1.0f / 16777216.0f) - 1.0f;
        }
        if (too_plain(value) || !seen.insert(bits_of(value)).second) continue;
        values.push_back(value);
    }
    return values;
}

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

ProbeOperands probe_operands(const Shape& shape, std::uint64_t seed, InputPrecision precision) {
    ProbeOperands operands{HostMatrix(shape.rows, shape.inner), HostMatrix(shape.inner, shape.cols),
                           HostMatrix(shape.rows, shape.inner), HostMatrix(shape.inner, shape.cols)};
    const std::size_t m = operands.M.size(), n = operands.N.size();
    const std::vector<float> values = distinct_values(2 * (m + n), seed, precision == InputPrecision::tf32);
    std::copy_n(values.begin(), m, operands.M.data());
    std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(m), n, operands.N.data());
    std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(m + n), m, operands.M2.data());
    std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(2 * m + n), n, operands.N2.data());
    return operands;
}

ProbeOperands probe_operands_from_pool(std::uint64_t seed, InputPrecision precision, std::size_t pool) {
    ProbeOperands operands{HostMatrix(0, 0), HostMatrix(0, 0), HostMatrix(0, 0), HostMatrix(0, 0), {}, {}, 0};
    const std::vector<float> values = distinct_values(2 * pool, seed, precision == InputPrecision::tf32);
    operands.keys.assign(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(pool));
    operands.values.assign(values.begin() + static_cast<std::ptrdiff_t>(pool), values.end());
    operands.pool_seed = seed ^ 0x9e3779b97f4a7c15ull;
    return operands;
}

float pooled_element(const ProbeOperands& operands, std::uint64_t index, bool second) noexcept {
    const std::size_t which = wire::pooled_operand(operands.pool_seed, index, operands.keys.size());
    return second ? operands.values[which] : operands.keys[which];
}

std::unique_ptr<ProbeTarget> lab_program() { return std::make_unique<LabProgram>(); }

bool models_built() { return fs::exists(kit_program_folder() / "tilelab-technique-models"); }

std::unique_ptr<ProbeTarget> model_program(const std::string& folder, const std::string& name) {
    return std::make_unique<ModelProgram>(folder, name);
}

ProbedRun run_probed(ProbeTarget& target, const Shape& shape, const ProbeOperands& operands, std::uint32_t hooks,
                     BlockSample sample) {
    std::vector<float> keys = operands.keys, values = operands.values;
    if (!operands.pooled()) {
        keys.assign(operands.M.data(), operands.M.data() + operands.M.size());
        keys.insert(keys.end(), operands.N.data(), operands.N.data() + operands.N.size());
        values.assign(operands.M2.data(), operands.M2.data() + operands.M2.size());
        values.insert(values.end(), operands.N2.data(), operands.N2.data() + operands.N2.size());
    }
    wire::Writer request;
    request.put(wire::Op::probed_multiply).put<std::uint32_t>(hooks);
    request.put<std::uint32_t>(sample.count).put<std::uint64_t>(sample.seed);
    request.put_floats(keys).put_floats(values);
    request.put<std::uint8_t>(operands.pooled() ? 1 : 0).put<std::uint64_t>(operands.pool_seed);
    request.put(wire::LaunchMode::contract).put<std::int32_t>(shape.rows);
    request.put<std::int32_t>(shape.inner).put<std::int32_t>(shape.cols);
    // No guard zones: the correctness checks look after writes outside P.
    request.put<std::uint64_t>(0).put<std::uint8_t>(0).put(guard_bits).put(unwritten_bits);
    if (!operands.pooled())
        request.put_floats(operands.M.data(), operands.M.size()).put_floats(operands.N.data(), operands.N.size());
    const std::string doing = "multiplying " + to_string(shape) + " with " + target.who() + ", its operands probed";
    const Reply reply = target.ask(request, doing);
    require_ok(reply, target.who());
    wire::Reader in = body(reply);
    ProbedRun run;
    if (operands.pooled())
        run.written = in.get_records<wire::WrittenElement>();
    else
        run.P = in.get_floats();
    in.get<std::uint8_t>();   // counted
    in.get<std::uint64_t>();  // threads
    in.get<std::uint64_t>();  // shared reads and writes: the probe's own counts say more
    in.get<std::uint64_t>();
    run.counts = in.get<wire::ProbeCounts>();
    require_complete(in, doing);
    const std::size_t elements = static_cast<std::size_t>(shape.rows) * shape.cols;
    if (operands.pooled() ? run.written.size() > elements : run.P.size() != elements)
        throw RunnerGone("the lab's program sent back a P of the wrong size while " + doing);
    for (const wire::WrittenElement& element : run.written)
        if (element.element >= elements)
            throw RunnerGone("the lab's program sent back an element outside P while " + doing);
    return run;
}

}  // namespace tilelab::grader
