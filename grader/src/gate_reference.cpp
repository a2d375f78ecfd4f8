#include "gate_reference.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace tilelab::grader {

std::string gate_reference_name(const LabUnderTest& lab) {
    const std::string id = lab.name;
    const char* model = id == "lab02" || id == "lab03" ? "naive"
                        : id == "lab05"                ? "tiled"
                        : id == "lab06"                ? "coarsened"
                        : id == "lab07"                ? "register_tiled"
                        : id == "lab08"                ? "vectorized"
                                                       : nullptr;
    if (model == nullptr) throw std::invalid_argument(id + " has no performance gate");
    return std::string("tilelab-gate-reference-") + model;
}

std::string gate_reference_path(const LabUnderTest& lab) {
    namespace fs = std::filesystem;
    const char* dir = std::getenv("TILELAB_GATE_REFERENCE_DIR");
    const fs::path folder = dir != nullptr && *dir != '\0' ? fs::path(dir) : fs::read_symlink("/proc/self/exe").parent_path();
    const fs::path program = folder / gate_reference_name(lab);
    if (!fs::exists(program))
        throw std::runtime_error("the gate's reference program " + program.string() +
                                 " is missing: the kit's build makes it next to the checker (rebuild the kit)");
    return program.string();
}

GateReference::GateReference(const LabUnderTest& lab)
    : process_({gate_reference_path(lab), "--tile-width", std::to_string(lab.tile_width)}, checker_options().deadline,
               true) {
    wire::Writer hello;
    hello.put(wire::Op::hello);
    ask(hello, "starting the gate's reference program", GpuUse::starting);
}

Reply GateReference::ask(const wire::Writer& request, const std::string& doing, GpuUse use) {
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
    require_ok(reply, "the gate's reference program (the kit's own, " + doing + ")");
    return reply;
}

}  // namespace tilelab::grader
