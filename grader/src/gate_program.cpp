#include "gate_program.hpp"

#include "lab_registry.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace tilelab::grader {

GateModels gate_models(const LabUnderTest& lab) {
    const LabEntry* entry = find_lab(lab.name);
    if (entry == nullptr || !entry->has_gate()) throw std::invalid_argument(std::string(lab.name) + " has no performance gate");
    return {entry->gate.reference_folder, entry->folder};
}

std::string gate_program_name(const std::string& model_folder) { return "tilelab-gate-model-" + model_folder; }

std::string gate_program_path(const std::string& model_folder) {
    namespace fs = std::filesystem;
    const char* dir = std::getenv("TILELAB_GATE_REFERENCE_DIR");
    const fs::path folder = dir != nullptr && *dir != '\0' ? fs::path(dir) : fs::read_symlink("/proc/self/exe").parent_path();
    const fs::path program = folder / gate_program_name(model_folder);
    if (!fs::exists(program))
        throw std::runtime_error("the gate's program " + program.string() +
                                 " is missing: the kit's build makes it next to the checker (rebuild the kit)");
    return program.string();
}

GateProgram::GateProgram(const std::string& model_folder, int tile_width)
    : path_(gate_program_path(model_folder)),
      process_({path_, "--tile-width", std::to_string(tile_width)}, checker_options().deadline, true) {
    wire::Writer hello;
    hello.put(wire::Op::hello);
    const Reply reply = ask(hello, "starting the gate's program " + gate_program_name(model_folder), GpuUse::starting);
    wire::Reader in = body(reply);
    gpu_.name = in.get_string();
    gpu_.major = in.get<std::int32_t>();
    gpu_.minor = in.get<std::int32_t>();
    require_complete(in, "starting the gate's program");
}

Reply GateProgram::ask(const wire::Writer& request, const std::string& doing, GpuUse use) {
    // The wait for the GPU is not the check's time: it moves the lab's program's deadline (hold_gpu) and this one's.
    const auto asked = std::chrono::steady_clock::now();
    hold_gpu(use);
    process_.postpone_deadline(std::chrono::steady_clock::now() - asked);
    Reply reply;
    try {
        reply.bytes = process_.call(request, doing, reply.header);
    } catch (...) {
        gpu_lease().release_shared();
        throw;
    }
    gpu_lease().release_shared();
    require_ok(reply, "the gate's program (the kit's own, " + doing + ")");
    return reply;
}

}  // namespace tilelab::grader
