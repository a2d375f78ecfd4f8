// A kernel reads only what it computed (tilelab/cpu/output_reads.hpp): which thread of which block stored each
// element of P in the running launch, and the first read of P that no matrix multiply makes.
#include <tilelab/cpu/output_reads.hpp>

#include "runtime_state.hpp"
#include "scheduler_state.hpp"

#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace tilelab::cpu {

namespace detail {
bool output_tracked = false;
}  // namespace detail

namespace {

using namespace scheduling;

// The last store of an element in the running launch.
struct Store {
    std::uint32_t block;       // linear index in the grid (a grid has fewer than 2^32 blocks here)
    std::uint32_t epoch;       // the block's interval (between two barriers) it happened in
    std::uint16_t thread;      // linear index in the block
    bool atomic;
    std::uint32_t launch;      // Followed::launch when it happened: older ones are no store of the running launch
};

constexpr std::size_t flat_elements = std::size_t{1} << 20;

struct Followed {
    const unsigned char* begin = nullptr;
    const unsigned char* end = nullptr;
    std::size_t cols = 1;
    std::uint32_t poison = 0;
    // By element: a flat array, since every element of P is stored in every launch (a map's insertion, on every
    // store of P, cost a quarter of the naive kernel's emulation), and the launch's number marks the current ones;
    // a map past flat_elements (the gate's shape, whose sample of blocks stores a few thousand).
    std::vector<Store> stores;
    std::unordered_map<std::size_t, Store> sparse;
    std::uint32_t launch = 1;
    Store& at(std::size_t i) { return stores.empty() ? sparse[i] : stores[i]; }
    std::mutex lock;                                   // the workers run blocks at once
    bool reported = false;
};

Followed& followed() {
    static Followed f;
    return f;
}

std::string element(const Followed& f, std::size_t i) {
    return "P[" + std::to_string(i / f.cols) + "][" + std::to_string(i % f.cols) + "]";
}

unsigned long long linear_block(const Worker& w) {
    return w.block_index.x + 1ull * w.grid_dim.x * (w.block_index.y + 1ull * w.grid_dim.y * w.block_index.z);
}

void report(Followed& f, Worker& w, const std::string& what) {
    if (f.reported) return;
    f.reported = true;
    if (w.launch->failed.exchange(true)) return;  // an earlier error of the launch says it first
    detail::set_kernel_error(
        cudaErrorTileLabOutputAccess,
        "read of P that no matrix multiply makes in " + kernel_and_block(w) + ": thread " + format(w.current->index) +
            " " + what + ". A thread reads only the elements of P it stored itself: keep each sum in a register and "
            "store it once (on a GPU such a read gives whatever the timing of that run gives)");
}

}  // namespace

void track_output(const float* first, std::size_t rows, std::size_t cols, std::uint32_t unwritten_bits) {
    Followed& f = followed();
    f.begin = reinterpret_cast<const unsigned char*>(first);
    f.end = f.begin + rows * cols * sizeof(float);
    f.cols = cols == 0 ? 1 : cols;
    f.poison = unwritten_bits;
    f.stores.clear();
    f.sparse.clear();
    if (rows * cols <= flat_elements) f.stores.assign(rows * cols, Store{});
    f.launch = 1;
    detail::output_tracked = rows * cols != 0;
}

void stop_tracking_output() noexcept {
    detail::output_tracked = false;
    Followed& f = followed();
    f.begin = f.end = nullptr;
    f.stores = {};
    f.sparse = {};
}

namespace detail {

void output_launch_begins() {
    if (!output_tracked) return;
    Followed& f = followed();
    if (++f.launch == 0) {  // numbers wrapped: forget every store, so that none passes for the new launch's
        f.stores.assign(f.stores.size(), Store{});
        f.launch = 1;
    }
    f.sparse.clear();
    f.reported = false;
}

bool is_followed_output(const void* address) noexcept {
    const Followed& f = followed();
    const auto* byte = static_cast<const unsigned char*>(address);
    return output_tracked && byte >= f.begin && byte < f.end;
}

void unfollowed_output_cast() {
    kernel_fault(cudaErrorTileLabOutputAccess, "untracked pointer into P",
                 "a pointer into P was cast to a pointer type whose accesses the CPU backend does not follow (a "
                 "struct's, int4's, a volatile scalar's, or one named by a typedef, a template parameter or "
                 "decltype): a kernel reads only the elements of P it stored itself, and the CPU backend sees every "
                 "access to P to check that\n"
                 "  hint: store P's elements through the kernel's float* P or a float*, float2* or float4* made "
                 "from it");
}

void note_output_access(const void* address, std::size_t bytes, OutputAccess access) noexcept {
    Followed& f = followed();
    const auto* byte = static_cast<const unsigned char*>(address);
    if (byte + bytes <= f.begin || byte >= f.end) return;
    Worker* w = running_worker;
    if (w == nullptr || w->current == nullptr) return;
    const auto block = static_cast<std::uint32_t>(linear_block(*w));
    const std::uint16_t me = w->current->id;
    const std::uint32_t epoch = w->epoch;
    const std::size_t first = static_cast<std::size_t>(std::max(byte, f.begin) - f.begin) / sizeof(float);
    const std::size_t last =
        (static_cast<std::size_t>(std::min(byte + bytes, f.end) - f.begin) + sizeof(float) - 1) / sizeof(float);
    const std::lock_guard<std::mutex> guard(f.lock);
    for (std::size_t i = first; i < last; ++i) {
        Store& stored = f.at(i);
        if (access == OutputAccess::write) {
            stored = Store{block, epoch, me, false, f.launch};
            continue;
        }
        const bool atomic = access == OutputAccess::atomic;
        if (stored.launch != f.launch) {
            // Not stored in this launch: what the host or an earlier launch left there may be read (or what a store
            // through a copy of the pointer that is not followed wrote), the poison not.
            std::uint32_t bits;
            std::memcpy(&bits, f.begin + i * sizeof(float), sizeof bits);
            if (bits == f.poison) {
                report(f, *w, (atomic ? "applied an atomic to " : "read ") + element(f, i) +
                                  " before anything stored it: it held the kit's poison, which stands for what "
                                  "a GPU's memory holds before the kernel writes its result");
                return;
            }
        } else if (stored.block != block) {
            if (!(atomic && stored.atomic)) {
                report(f, *w, std::string(atomic ? "applied an atomic to " : "read ") + element(f, i) +
                                  ", which block " + std::to_string(stored.block) + " of the grid stored in "
                                  "this launch: blocks run in no order a kernel may count on, so a block reads "
                                  "only its own part of P");
                return;
            }
        } else if (stored.thread != me && stored.epoch == epoch && !(atomic && stored.atomic)) {
            report(f, *w, "read " + element(f, i) + ", which thread " +
                              format(unravel(stored.thread, w->block_dim)) +
                              " of its block stored with no __syncthreads() between them (a race)");
            return;
        }
        if (atomic) stored = Store{block, epoch, me, true, f.launch};
    }
}

}  // namespace detail
}  // namespace tilelab::cpu
