#include "gate_program.hpp"

#include "lab_registry.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <vector>

namespace tilelab::grader {

GateModels gate_models(const LabUnderTest& lab, const GateRung& rung) {
    const LabEntry* entry = find_lab(lab.name);
    if (entry == nullptr || !entry->has_gate()) throw std::invalid_argument(std::string(lab.name) + " has no performance gate");
    return {rung.reference_folder, entry->folder};
}

std::string gate_program_name(const std::string& model_folder) { return "tilelab-gate-model-" + model_folder; }

std::filesystem::path kit_program_folder() {
    const char* dir = std::getenv("TILELAB_GATE_REFERENCE_DIR");
    return dir != nullptr && *dir != '\0' ? std::filesystem::path(dir)
                                          : std::filesystem::read_symlink("/proc/self/exe").parent_path();
}

namespace {

namespace fs = std::filesystem;


// Model programs this checker started and no gate uses now: the next gate loads its model into one of them
// (wire::Op::load_lab) instead of starting a program, and a CUDA context, of its own.
std::vector<std::unique_ptr<RunnerProcess>>& idle_programs() {
    static std::vector<std::unique_ptr<RunnerProcess>> idle;
    return idle;
}

}  // namespace

std::string gate_program_path(const std::string& model_folder) {
    const fs::path program = kit_program_folder() / (gate_program_name(model_folder) + ".so");
    if (!fs::exists(program))
        throw std::runtime_error("the gate's model " + program.string() +
                                 " is missing: the kit's build makes it next to the checker (rebuild the kit)");
    return program.string();
}

GateProgram::GateProgram(const std::string& model_folder, int tile_width) : path_(gate_program_path(model_folder)) {
    const std::string name = gate_program_name(model_folder);
    std::vector<std::unique_ptr<RunnerProcess>>& idle = idle_programs();
    bool started = false;  // a program of its own, whose hello creates its CUDA context
    while (!process_ && !idle.empty()) {
        process_ = std::move(idle.back());
        idle.pop_back();
        process_->set_deadline(checker_options().deadline);
        try {
            ask(load_lab_request(path_, tile_width), "loading the gate's model " + name, GpuUse::shared);
        } catch (const std::exception&) {
            process_.reset();  // it ends; another, or a new one
            reusable_ = true;
        }
    }
    if (!process_) {
        const fs::path host = kit_program_folder() / "tilelab-runner-host-gpu";
        process_ = std::make_unique<RunnerProcess>(
            std::vector<std::string>{host.string(), "--module", path_, "--tile-width", std::to_string(tile_width)},
            checker_options().deadline, true);
        started = true;
    }
    // Only a new program creates a context; a kept one's hello just asks which GPU it runs on.
    const Reply reply =
        ask(hello_request(), "starting the gate's program " + name, started ? GpuUse::starting : GpuUse::shared);
    wire::Reader in = body(reply);
    gpu_.name = in.get_string();
    gpu_.major = in.get<std::int32_t>();
    gpu_.minor = in.get<std::int32_t>();
    require_complete(in, "starting the gate's program");
}

GateProgram::~GateProgram() {
    if (process_ && reusable_) idle_programs().push_back(std::move(process_));
}

Reply GateProgram::ask(const wire::Writer& request, const std::string& doing, GpuUse use) {
    // The wait for the GPU is not the check's time: it moves the lab's program's deadline (hold_gpu) and this one's.
    const auto asked = std::chrono::steady_clock::now();
    hold_gpu(use);
    process_->postpone_deadline(std::chrono::steady_clock::now() - asked);
    Reply reply;
    try {
        reply.bytes = use == GpuUse::starting ? process_->call_as_start(request, doing, reply.header)
                                              : process_->call(request, doing, reply.header);
    } catch (...) {
        gpu_lease().release_shared();
        reusable_ = false;
        throw;
    }
    gpu_lease().release_shared();
    if (reply.header.context_lost) reusable_ = false;
    require_ok(reply, "the gate's program (the kit's own, " + doing + ")");
    return reply;
}

}  // namespace tilelab::grader
