// Warp-level calls (tilelab/cpu/warp.hpp): which lanes of a block meet at a call, what each gets, and what to
// say when lanes named in a mask never arrive. The scheduler (scheduler.cpp) parks and resumes the fibers.
#include "warp_rendezvous.hpp"

#include <tilelab/cpu/operand_probe.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <sstream>

namespace tilelab::cpu::detail {
namespace {

constexpr unsigned lanes_per_warp = 32;

// The lanes of warp @p first / 32 that exist in a block of @p count threads.
unsigned existing_lanes(std::size_t first, std::size_t count) {
    const std::size_t n = std::min<std::size_t>(lanes_per_warp, count - first);
    return n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1u;
}

// The lanes a call waits for: its mask, without lanes that do not exist, with the caller's own.
unsigned named_lanes(const WarpCall& call, unsigned existing, unsigned lane) {
    return (call.mask & existing) | (1u << lane);
}

bool same_call(const WarpCall& a, const WarpCall& b) {
    return a.line == b.line && a.op == b.op && (a.file == b.file || std::strcmp(a.file, b.file) == 0);
}

// The lane a shuffle by @p lane reads; @p lane itself when the read falls outside its segment.
unsigned source_lane(const WarpCall& call, unsigned lane) {
    int width = call.width;
    if (width < 1 || width > 32 || (width & (width - 1)) != 0) width = 32;
    const int start = static_cast<int>(lane) & ~(width - 1);
    const int l = static_cast<int>(lane);
    int source = l;
    switch (call.op) {
        case WarpOp::shfl: source = start + (((call.argument % width) + width) % width); break;
        case WarpOp::shfl_up: source = l - call.argument < start ? l : l - call.argument; break;
        case WarpOp::shfl_down: source = l + call.argument >= start + width ? l : l + call.argument; break;
        case WarpOp::shfl_xor: source = l ^ call.argument; if (source < 0 || source >= start + width) source = l; break;
        default: break;
    }
    return static_cast<unsigned>(source);
}

// A warp matrix function's meeting (WarpOp::matrix): when every lane of @p group gave the same key, runs the warp's
// work once; otherwise tells each lane which two lanes disagree (each then reports it, warp.hpp's WarpCollective).
void meet(std::vector<WarpLane>& lanes, std::size_t base, unsigned group) {
    void* operands[lanes_per_warp] = {};
    const WarpCollective* first = nullptr;
    int first_lane = -1, differs = -1;
    for (unsigned lane = 0; lane < lanes_per_warp; ++lane) {
        if (!(group >> lane & 1u)) continue;
        const WarpCollective& c = *lanes[base + lane].call->collective;
        operands[lane] = c.lane;
        if (first == nullptr) {
            first = &c;
            first_lane = static_cast<int>(lane);
        } else if (differs < 0 && std::memcmp(c.key, first->key, sizeof c.key) != 0) {
            differs = static_cast<int>(lane);
        }
    }
    if (first == nullptr) return;
    if (differs < 0) {
        if (first->run != nullptr) first->run(operands);
        return;
    }
    const WarpCollective& other = *lanes[base + static_cast<unsigned>(differs)].call->collective;
    for (unsigned lane = 0; lane < lanes_per_warp; ++lane) {
        if (!(group >> lane & 1u)) continue;
        WarpCollective& c = *lanes[base + lane].call->collective;
        c.first = first_lane;
        c.differs = differs;
        std::memcpy(c.first_key, first->key, sizeof c.first_key);
        std::memcpy(c.differs_key, other.key, sizeof c.differs_key);
    }
}

// Computes the results of the lanes @p group (bits) of the warp starting at @p base, all at one call.
void complete(std::vector<WarpLane>& lanes, std::size_t base, unsigned group) {
    for (unsigned lane = 0; lane < lanes_per_warp; ++lane)
        if ((group >> lane & 1u) && lanes[base + lane].call->op == WarpOp::matrix) {
            meet(lanes, base, group);
            break;
        }
    std::uint64_t ballot = 0, sum = 0, all_and = ~0ull, all_or = 0, all_xor = 0;
    std::int64_t smin = INT64_MAX, smax = INT64_MIN;
    std::uint32_t umin = UINT32_MAX, umax = 0;
    bool all = true, any = false;
    for (unsigned lane = 0; lane < lanes_per_warp; ++lane) {
        if (!(group >> lane & 1u)) continue;
        const WarpCall& c = *lanes[base + lane].call;
        const bool on = (c.value & 0xFFFFFFFFull) != 0;
        ballot |= static_cast<std::uint64_t>(on) << lane;
        all = all && on;
        any = any || on;
        const auto u = static_cast<std::uint32_t>(c.value);
        const auto s = static_cast<std::int32_t>(u);
        sum += u;
        all_and &= u;
        all_or |= u;
        all_xor ^= u;
        smin = std::min<std::int64_t>(smin, s);
        smax = std::max<std::int64_t>(smax, s);
        umin = std::min(umin, u);
        umax = std::max(umax, u);
    }
    for (unsigned lane = 0; lane < lanes_per_warp; ++lane) {
        if (!(group >> lane & 1u)) continue;
        WarpCall& c = *lanes[base + lane].call;
        switch (c.op) {
            case WarpOp::sync: c.result = 0; break;
            case WarpOp::shfl:
            case WarpOp::shfl_up:
            case WarpOp::shfl_down:
            case WarpOp::shfl_xor: {
                const unsigned source = source_lane(c, lane);
                // A lane that did not take part has no value to give: the reader keeps its own.
                const bool from_other = source < lanes_per_warp && source != lane && (group >> source & 1u);
                c.result = from_other || source == lane ? lanes[base + source].call->value : c.value;
                if (from_other && operand_probe_on) probe_lane_exchange();  // operand_probe.hpp
                break;
            }
            case WarpOp::ballot: c.result = ballot; break;
            case WarpOp::all: c.result = all; break;
            case WarpOp::any: c.result = any; break;
            case WarpOp::reduce_add: c.result = static_cast<std::uint32_t>(sum); break;
            case WarpOp::reduce_min: c.result = c.is_signed ? static_cast<std::uint32_t>(smin) : umin; break;
            case WarpOp::reduce_max: c.result = c.is_signed ? static_cast<std::uint32_t>(smax) : umax; break;
            case WarpOp::reduce_and: c.result = static_cast<std::uint32_t>(all_and); break;
            case WarpOp::reduce_or: c.result = static_cast<std::uint32_t>(all_or); break;
            case WarpOp::reduce_xor: c.result = static_cast<std::uint32_t>(all_xor); break;
            case WarpOp::matrix: c.result = 0; break;
        }
        // A vote or a reduction hands each lane what the others hold, as a shuffle does: counted as one word read
        // from another thread, so that an operand passed around the warp this way is not free (operand_probe.hpp).
        const bool from_others = c.op != WarpOp::sync && c.op != WarpOp::matrix && c.op != WarpOp::shfl &&
                                 c.op != WarpOp::shfl_up && c.op != WarpOp::shfl_down && c.op != WarpOp::shfl_xor &&
                                 (group & ~(1u << lane)) != 0;
        if (from_others && operand_probe_on) probe_lane_exchange();
        lanes[base + lane].released = true;
        lanes[base + lane].group = group;
    }
}

std::string short_path(const char* file) {
    std::string path = file ? file : "?";
    std::size_t cut = path.rfind('/');
    if (cut != std::string::npos && cut > 0) cut = path.rfind('/', cut - 1);
    return cut == std::string::npos ? path : path.substr(cut + 1);
}

std::string format(uint3 v) {
    return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ")";
}

// "lanes 16-31" / "lane 5" / "lanes 3, 7-9".
std::string lane_list(unsigned bits) {
    std::string text;
    int count = 0;
    for (unsigned lane = 0; lane < lanes_per_warp;) {
        if (!(bits >> lane & 1u)) {
            ++lane;
            continue;
        }
        unsigned end = lane;
        while (end + 1 < lanes_per_warp && (bits >> (end + 1) & 1u)) ++end;
        if (!text.empty()) text += ", ";
        text += std::to_string(lane) + (end > lane ? "-" + std::to_string(end) : "");
        count += static_cast<int>(end - lane + 1);
        lane = end + 1;
    }
    return (count == 1 ? "lane " : "lanes ") + text;
}

}  // namespace

unsigned release_warp_calls(std::vector<WarpLane>& lanes) {
    unsigned released = 0;
    for (std::size_t base = 0; base < lanes.size(); base += lanes_per_warp) {
        const unsigned existing = existing_lanes(base, lanes.size());
        unsigned done = 0;  // lanes of this warp already settled in this pass
        for (unsigned lane = 0; lane < lanes_per_warp && base + lane < lanes.size(); ++lane) {
            const WarpLane& me = lanes[base + lane];
            if (me.where != WarpLane::Where::at_warp_call || me.released || (done >> lane & 1u)) continue;
            const unsigned group = named_lanes(*me.call, existing, lane);
            bool ready = true;
            for (unsigned other = 0; other < lanes_per_warp && ready; ++other) {
                if (!(group >> other & 1u)) continue;
                const WarpLane& them = lanes[base + other];
                ready = them.where == WarpLane::Where::at_warp_call && !them.released &&
                        same_call(*them.call, *me.call) && named_lanes(*them.call, existing, other) == group;
            }
            done |= group;
            if (!ready) continue;
            complete(lanes, base, group);
            released += static_cast<unsigned>(__builtin_popcount(group));
        }
    }
    return released;
}

std::string warp_divergence_message(const std::vector<WarpLane>& lanes, const std::string& kernel_and_block) {
    std::ostringstream message;
    for (std::size_t base = 0; base < lanes.size(); base += lanes_per_warp) {
        const unsigned existing = existing_lanes(base, lanes.size());
        for (unsigned lane = 0; lane < lanes_per_warp && base + lane < lanes.size(); ++lane) {
            const WarpLane& me = lanes[base + lane];
            if (me.where != WarpLane::Where::at_warp_call) continue;
            const WarpCall& call = *me.call;
            const unsigned group = named_lanes(call, existing, lane);
            unsigned here = 0, returned = 0, barrier = 0, elsewhere = 0;
            const WarpLane* at_barrier = nullptr;
            const WarpLane* at_other = nullptr;
            for (unsigned other = 0; other < lanes_per_warp; ++other) {
                if (!(group >> other & 1u)) continue;
                const WarpLane& them = lanes[base + other];
                if (them.where == WarpLane::Where::returned) {
                    returned |= 1u << other;
                } else if (them.where == WarpLane::Where::at_barrier) {
                    barrier |= 1u << other;
                    if (!at_barrier) at_barrier = &them;
                } else if (same_call(*them.call, call) && named_lanes(*them.call, existing, other) == group) {
                    here |= 1u << other;
                } else {
                    elsewhere |= 1u << other;
                    if (!at_other) at_other = &them;
                }
            }
            const bool matrix = call.op == WarpOp::matrix;
            message << "warp divergence in " << kernel_and_block << ", warp " << base / lanes_per_warp << ": "
                    << call.name << " at " << short_path(call.file) << ":" << call.line;
            if (matrix)
                message << " is a warp matrix function, which all 32 lanes of the warp must call together, and ";
            else
                message << " names " << lane_list(group) << " in its mask (0x" << std::hex << call.mask << std::dec
                        << "), and ";
            message << lane_list(here) << " (thread " << format(me.index) << " the first) waited there, but ";
            std::string sep;
            if (returned) {
                message << lane_list(returned) << " had returned from the kernel";
                sep = "; ";
            }
            if (barrier) {
                message << sep << lane_list(barrier) << " waited at the __syncthreads() at "
                        << short_path(at_barrier->file) << ":" << at_barrier->line;
                sep = "; ";
            }
            if (elsewhere) {
                message << sep << lane_list(elsewhere) << " waited at " << at_other->call->name << " at "
                        << short_path(at_other->call->file) << ":" << at_other->call->line;
                if (at_other->call->op != WarpOp::matrix)
                    message << " with mask 0x" << std::hex << at_other->call->mask << std::dec;
            }
            if (matrix)
                message << ". " << (std::strncmp(call.name, "tilelab::", 9) == 0
                                        ? "tilelab::mma_m16n8k8_tf32, tilelab::ldmatrix_x4 and tilelab::ldmatrix_x2 are "
                                          "mma.sync and ldmatrix, which"
                                        : "load_matrix_sync, mma_sync and store_matrix_sync")
                        << " work on the whole warp's fragments at "
                           "once: every lane of a warp must reach each of them, with the same arguments. Decide per "
                           "warp, not per thread: a test that is the same for all lanes of the warp (on the warp's "
                           "tile) may skip a call, a test on a thread's own row or column may not; at the matrix's "
                           "edge, let every lane call and make the tile's elements outside the matrix zeros";
            else
                message << ". Every lane a warp function's mask names must reach that same call: keep shuffles, "
                           "votes and __syncwarp() out of code that only some lanes of the warp run (a bounds test, "
                           "an early return), or give a mask that names only the lanes that call it";
            return message.str();
        }
    }
    return "warp divergence in " + kernel_and_block;
}

}  // namespace tilelab::cpu::detail
