// The watched output: which CUDA thread wrote each element of P. The kit poisons P before a launch, so every store
// changes it; comparing P with a copy after each run segment of a thread (up to a barrier or its end) tells which
// thread changed what, without instrumenting the kernel's stores. Blocks run one at a time meanwhile, so that the
// thread that just ran is the only one that could have changed P. Used on small shapes only: each comparison
// reads all of P.
#include "runtime_state.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>

namespace tilelab::cpu {
namespace {

struct Watch {
    const unsigned char* begin = nullptr;
    std::size_t elements = 0;
    std::vector<std::uint32_t> copy;         // the buffer as it was after the last segment
    std::vector<std::uint64_t> last_writer;  // per element: 1 + the (block, thread) that changed it last; 0: none
    WatchedWrites seen;
};

std::atomic<bool> watch_on{false};
Watch& watch() {
    static Watch w;
    return w;
}

std::uint32_t linear(const uint3& index, const dim3& extent) {
    return index.x + extent.x * (index.y + extent.y * index.z);
}

}  // namespace

void watch_output(const void* begin, std::size_t bytes) {
    Watch& w = watch();
    w = Watch{};
    w.begin = static_cast<const unsigned char*>(begin);
    w.elements = bytes / sizeof(std::uint32_t);
    w.copy.resize(w.elements);
    const detail::DeviceMemoryOpen open;  // the kit's own read of a device buffer, outside any kernel
    std::memcpy(w.copy.data(), w.begin, w.elements * sizeof(std::uint32_t));
    w.last_writer.assign(w.elements, 0);
    watch_on = true;
}

WatchedWrites stop_watching_output() {
    watch_on = false;
    Watch& w = watch();
    WatchedWrites seen = std::move(w.seen);
    w = Watch{};
    return seen;
}

namespace detail {

bool watching_output() noexcept { return watch_on.load(std::memory_order_relaxed); }

void note_watched_launch(dim3 grid, dim3 block) {
    Watch& w = watch();
    w.seen.grid = grid;
    w.seen.block = block;
    ++w.seen.launches;
}

void after_thread_segment(const uint3& block_index, const uint3& thread) {
    Watch& w = watch();
    const auto* now = reinterpret_cast<const std::uint32_t*>(w.begin);
    if (std::memcmp(now, w.copy.data(), w.elements * sizeof(std::uint32_t)) == 0) return;  // the usual case
    const std::uint32_t block = linear(block_index, w.seen.grid), me = linear(thread, w.seen.block);
    const std::uint64_t key = 1 + ((static_cast<std::uint64_t>(block) << 32) | me);
    for (std::size_t i = 0; i < w.elements; ++i) {
        if (now[i] == w.copy[i]) continue;
        w.copy[i] = now[i];
        if (w.last_writer[i] == key) continue;  // the same thread changing its own element again
        w.last_writer[i] = key;
        if (w.seen.writes.size() >= 4 * w.elements + 1024) {
            w.seen.overflow = true;
            continue;
        }
        w.seen.writes.push_back(OutputWrite{static_cast<std::uint32_t>(i), block, me});
    }
}

}  // namespace detail
}  // namespace tilelab::cpu
