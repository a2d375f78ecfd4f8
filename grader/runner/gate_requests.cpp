// The performance gate's requests, as the runner answers them (gate_requests.hpp).
#include "gate_requests.hpp"

#include "request_support.hpp"

#ifndef TILELAB_CPU_BACKEND
#include "gate_device.hpp"
#include "gate_l2.hpp"
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tilelab::runner {

using namespace tilelab::wire;

namespace {

// The performance gate. The checker times each request with its own clock, the same requests to this program and
// to the gate's reference program (this harness with the model kernel, no student code), so the times it compares
// are never measured here: perf_fill draws operand sets from the checker's seed (untimed), perf_launches launches
// the kernel once on each set, waits, and sends back each result's digest (timed by the checker), perf_keep keeps a
// copy of one result, chosen by the checker after the digests came, and perf_kept sends it back once the checker has
// let go of the GPU, to verify a digest and sample the product; perf_samples sends back elements of every result,
// at places the checker chose after the digests came, so that no launch's result goes unchecked.
struct GateOperands {
    GateOperands(int side, int count)
        : n(side), sets(count), M(product(side, side) * count), N(product(side, side) * count),
          P(product(side, side) * count) {}
    std::size_t set_size() const { return product(n, n); }
    int n, sets;
    DeviceFloats M, N, P;  // sets consecutive n × n matrices each
    std::vector<std::unique_ptr<DeviceFloats>> kept;   // perf_keep's copies until perf_kept reads them (null: read)
    std::vector<std::unique_ptr<DeviceFloats>> spare;  // copies read, whose device memory the next perf_keep takes
};

std::unique_ptr<GateOperands>& gate_operands() {
    static std::unique_ptr<GateOperands> operands;
    return operands;
}

constexpr int max_gate_sets = 16;

// Copies kept unread at once by one program at most (a race's pairs and warm-up, with room): 64 × 16 MiB at 2048².
constexpr std::size_t max_kept_results = 64;

GateOperands& loaded_gate(const char* request) {
    if (!gate_operands()) unsupported((std::string(request) + " before perf_load").c_str());
    return *gate_operands();
}

// Places one perf_samples request may ask for at most: 64 from each of 16 sets, with room.
constexpr std::size_t max_sampled_places = 1u << 16;


}  // namespace

// Buffers for `sets` operand sets of side n; the last gate's go first. The kit's launch learns the launcher's
// dynamic shared memory for that side now, not in a timed request.
Writer perf_load(Reader& in, const RunnerLab& lab) {
    const int n = in.get<std::int32_t>(), sets = in.get<std::int32_t>();
    if (!in.at_end() || sets <= 0 || sets > max_gate_sets) unsupported("malformed perf_load request");
    check_sizes(n, n, n);
#ifdef TILELAB_CPU_BACKEND
    static_cast<void>(lab);
    unsupported("the CPU backend has no performance gate");
#else
    gate_operands().reset();
    if (lab.contract_dynamic_shared != nullptr) lab.contract_dynamic_shared(n, n, n);
    gate_operands() = std::make_unique<GateOperands>(n, sets);
#endif
    return reply(Status::ok);
}

// The first `sets` operand sets drawn afresh from the checker's seed; P's poisoned so a launch that writes
// nothing leaves no earlier result behind; the L2 cache's persistence controls reset (gate_l2.hpp).
Writer perf_fill(Reader& in) {
    const auto seed = in.get<std::uint64_t>();
    const int sets = in.get<std::int32_t>();
    GateOperands& gate = loaded_gate("perf_fill");
    if (!in.at_end() || sets <= 0 || sets > gate.sets) unsupported("malformed perf_fill request");
#ifndef TILELAB_CPU_BACKEND
    for (int s = 0; s < sets; ++s)
        tilelab::runner::gate_fill(gate.M.data() + s * gate.set_size(), gate.N.data() + s * gate.set_size(), gate.n,
                                   seed, static_cast<std::uint32_t>(s));
    check(cudaMemset(gate.P.data(), 0xff, sets * gate.set_size() * sizeof(float)), "cudaMemset");
    check(cudaDeviceSynchronize(), "cudaMemset");
    // Right before the timed request, and outside the checker's clock (its cost is the GPU's, not the kernel's): no
    // kernel is timed with part of L2 kept for its own data.
    tilelab::runner::gate_reset_persisting_l2();
#endif
    return reply(Status::ok);
}

// The timed request: one launch on each of the first `sets` operand sets, a wait, each result's digest. Events
// around the launches give this program's own reading of the kernels' time, which the checker prints beside its
// own and never decides by.
Writer perf_launches(Reader& in, const RunnerLab& lab) {
    const int sets = in.get<std::int32_t>();
    GateOperands& gate = loaded_gate("perf_launches");
    if (!in.at_end() || sets <= 0 || sets > gate.sets) unsupported("malformed perf_launches request");
    Writer out = reply(Status::ok);
#ifndef TILELAB_CPU_BACKEND
    EventPair events;
    const std::size_t size = gate.set_size();
    const float ms = events.time([&] {
        for (int s = 0; s < sets; ++s)
            lab.contract_launch(gate.M.data() + s * size, gate.N.data() + s * size, gate.P.data() + s * size, gate.n,
                                gate.n, gate.n);
    });
    const std::vector<std::uint64_t> digests = tilelab::runner::gate_digests(gate.P.data(), size, sets);
    out.put<std::int32_t>(sets);
    for (const std::uint64_t digest : digests) out.put(digest);
    out.put<float>(ms);
#else
    static_cast<void>(lab);
#endif
    return out;
}

// A device copy of one result of the last perf_launches, kept for perf_kept; its number (a slot read before is
// used again, with its device memory).
Writer perf_keep(Reader& in) {
    const int set = in.get<std::int32_t>();
    GateOperands& gate = loaded_gate("perf_keep");
    if (!in.at_end() || set < 0 || set >= gate.sets) unsupported("malformed perf_keep request");
    const auto unread = static_cast<std::size_t>(
        std::count_if(gate.kept.begin(), gate.kept.end(), [](const auto& copy) { return copy != nullptr; }));
    if (unread >= max_kept_results) unsupported("too many results kept and not read back");
    std::unique_ptr<DeviceFloats> copy;
    if (!gate.spare.empty()) {
        copy = std::move(gate.spare.back());
        gate.spare.pop_back();
    } else {
        copy = std::make_unique<DeviceFloats>(gate.set_size());
    }
    check(cudaMemcpy(copy->data(), gate.P.data() + set * gate.set_size(), gate.set_size() * sizeof(float),
                     cudaMemcpyDeviceToDevice),
          "cudaMemcpy");
    auto slot = std::find(gate.kept.begin(), gate.kept.end(), nullptr);
    if (slot == gate.kept.end()) slot = gate.kept.insert(gate.kept.end(), nullptr);
    *slot = std::move(copy);
    Writer out = reply(Status::ok);
    out.put<std::int32_t>(static_cast<std::int32_t>(slot - gate.kept.begin()));
    return out;
}

// Elements of the last perf_launches' results at the places the checker chose after their digests came: it samples
// every result of every timed request, where perf_keep's copy lets it read back one whole.
Writer perf_samples(Reader& in) {
    const std::vector<std::uint64_t> places = in.get_records<std::uint64_t>();
    GateOperands& gate = loaded_gate("perf_samples");
    const std::size_t elements = gate.set_size() * static_cast<std::size_t>(gate.sets);
    if (!in.at_end() || places.empty() || places.size() > max_sampled_places ||
        std::any_of(places.begin(), places.end(), [&](std::uint64_t place) { return place >= elements; }))
        unsupported("malformed perf_samples request");
    Writer out = reply(Status::ok);
#ifndef TILELAB_CPU_BACKEND
    out.put_floats(tilelab::runner::gate_gather(gate.P.data(), elements, places));
#endif
    return out;
}

// A copy perf_keep kept; its slot is free again once read.
Writer perf_kept(Reader& in) {
    const int number = in.get<std::int32_t>();
    GateOperands& gate = loaded_gate("perf_kept");
    if (!in.at_end() || number < 0 || static_cast<std::size_t>(number) >= gate.kept.size() ||
        gate.kept[static_cast<std::size_t>(number)] == nullptr)
        unsupported("malformed perf_kept request");
    Writer out = reply(Status::ok);
    std::unique_ptr<DeviceFloats>& copy = gate.kept[static_cast<std::size_t>(number)];
    out.put_floats(copy->download());
    gate.spare.push_back(std::move(copy));
    return out;
}

}  // namespace tilelab::runner
