#include "work_spread.hpp"

#include "guarded_buffer.hpp"
#include "lab_runner.hpp"

#include <tilelab/compare.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>
#include <vector>

namespace tilelab::grader {
namespace {

std::string format(const Extent& e) {
    return "(" + std::to_string(e.x) + ", " + std::to_string(e.y) + (e.z > 1 ? ", " + std::to_string(e.z) : "") + ")";
}

// A linear block or thread index back to (x, y, z) within @p extent.
Extent unravel(std::uint32_t linear, const Extent& extent) {
    Extent index;
    index.x = linear % std::max(1u, extent.x);
    linear /= std::max(1u, extent.x);
    index.y = linear % std::max(1u, extent.y);
    index.z = linear / std::max(1u, extent.y);
    return index;
}

// "lab01" -> "lab 01", for sentences.
std::string lab_words(const LabUnderTest& lab) {
    const std::string name = lab.name;
    return name.size() > 3 ? name.substr(0, 3) + " " + name.substr(3) : name;
}

// The contract's share of P for one thread, in words.
std::string contract_words(const LabUnderTest& lab) {
    if (lab.block_tile == 0)
        return "in " + lab_words(lab) + " each thread computes exactly one element of P, P[row][col] with row = "
               "blockIdx.y * blockDim.y + threadIdx.y and col = blockIdx.x * blockDim.x + threadIdx.x (the kit "
               "launches TILE_WIDTH x TILE_WIDTH blocks, x over columns and y over rows, one per tile of P)";
    const int share = lab.block_tile * lab.block_tile / lab.threads_per_block();
    return "in " + lab_words(lab) + " each thread computes at most " + std::to_string(share) + " elements of P (its " +
           "share of its block's " + std::to_string(lab.block_tile) + " x " + std::to_string(lab.block_tile) +
           " tile, over " + std::to_string(lab.threads_per_block()) + " threads), all inside its block's tile";
}

}  // namespace

Watched read_watched(wire::Reader& in, std::size_t elements, const std::string& doing) {
    Watched seen;
    for (Extent* e : {&seen.grid, &seen.block}) {
        e->x = in.get<std::uint32_t>();
        e->y = in.get<std::uint32_t>();
        e->z = in.get<std::uint32_t>();
    }
    seen.launches = in.get<std::uint32_t>();
    seen.overflow = in.get<std::uint8_t>() != 0;
    seen.writes = in.get_records<wire::OutputWrite>();
    for (const wire::OutputWrite& w : seen.writes)
        if (w.element >= elements) throw RunnerGone("the lab's program reported a write outside P while " + doing);
    return seen;
}

bool watches_work_spread(const Shape& shape) {
#ifdef TILELAB_CPU_BACKEND
    return static_cast<long long>(shape.rows) * shape.cols <= watched_elements;
#else
    static_cast<void>(shape);
    return false;  // a GPU cannot say which thread wrote what: docs/grading.md says what the GPU backend checks
#endif
}

Shape work_spread_shape(const LabUnderTest& lab) {
    const int t = lab.tile_width;
    if (lab.needs_tile_multiples) return {2 * t, 2 * t, 2 * t};
    const int b = lab.tile(), rows = b + 1;
    return {rows, lab.depth() + 1, static_cast<int>(std::min<long long>(b + 1, watched_elements / rows))};
}

ShapeVerdict check_work_spread(const LabUnderTest& lab, const Shape& shape, const Watched& seen,
                               const std::string& heading) {
    const int tile = lab.tile();
    const Extent grid{static_cast<std::uint32_t>((shape.cols + tile - 1) / tile),
                      static_cast<std::uint32_t>((shape.rows + tile - 1) / tile), 1};
    const Extent block = lab.block_tile == 0
                             ? Extent{static_cast<std::uint32_t>(tile), static_cast<std::uint32_t>(tile), 1}
                             : Extent{static_cast<std::uint32_t>(lab.threads_per_block()), 1, 1};
    const std::string spread_heading = heading + "\n  P is right, but the kernel does not spread the work over its "
                                                 "threads as the lab's contract says:";
    ShapeVerdict verdict;
    std::ostringstream report;
    report << spread_heading;
    auto fail = [&](const std::string& what) {
        report << "\n  " << what;
        verdict.passed = false;
        verdict.report = report.str();
        return verdict;
    };
    if (seen.launches != 1 || seen.grid != grid || seen.block != block)
        return fail("the kit launched one kernel with grid " + format(grid) + " and block " + format(block) +
                    ", but the emulator ran " + std::to_string(seen.launches) + " (the last with grid " +
                    format(seen.grid) + ", block " + format(seen.block) + ")\n  hint: P must be computed by the "
                    "lab's kernel in the kit's launch, not by kernels of its own");
    if (seen.overflow)
        return fail("the threads changed elements of P over and over (more than 4 writers per element on "
                    "average)\n  hint: " + contract_words(lab) + "; keep the running sum in a register and store "
                    "each element once");

    const std::size_t count = static_cast<std::size_t>(shape.rows) * shape.cols;
    auto where = [&](std::uint32_t b, std::uint32_t t) {
        return "block " + format(unravel(b, grid)) + ", thread " + format(unravel(t, block));
    };
    auto element = [&](std::size_t e) {
        return "P[" + std::to_string(e / shape.cols) + "][" + std::to_string(e % shape.cols) + "]";
    };
    // Who wrote each element, and how many elements each thread wrote.
    std::vector<std::uint32_t> writers(count, 0);
    std::vector<std::size_t> first(count, 0);
    std::map<std::uint64_t, std::size_t> per_thread;
    for (std::size_t i = 0; i < seen.writes.size(); ++i) {
        const wire::OutputWrite& w = seen.writes[i];
        if (writers[w.element]++ == 0) first[w.element] = i;
        ++per_thread[(static_cast<std::uint64_t>(w.block) << 32) | w.thread];
    }
    const auto busiest = std::max_element(per_thread.begin(), per_thread.end(),
                                          [](const auto& a, const auto& b) { return a.second < b.second; });
    const std::size_t share =
        lab.block_tile == 0 ? 1 : static_cast<std::size_t>(lab.block_tile * lab.block_tile / lab.threads_per_block());
    // Enough threads wrote to cover P with each one's own share: the work is spread, and the extra stores land on
    // elements other threads own (an index off by one, a second store), which a GPU's threads would race for.
    const bool spread = per_thread.size() * share >= count;
    if (busiest != per_thread.end() && busiest->second > share && spread)
        return fail("one thread wrote " + std::to_string(busiest->second) + " elements of P (" +
                    where(static_cast<std::uint32_t>(busiest->first >> 32),
                          static_cast<std::uint32_t>(busiest->first & 0xFFFFFFFFu)) +
                    "; " + std::to_string(per_thread.size()) + " threads wrote to P, enough to give each its own): " +
                    contract_words(lab) +
                    "\n  hint: a thread stored to an element another thread owns (an index off by one, or a second "
                    "store next to its own): on a GPU the two stores race and P's value depends on their order; "
                    "each thread stores only its own output" + (share > 1 ? "s" : ""));
    if (busiest != per_thread.end() && busiest->second > share)
        return fail("one thread wrote " + std::to_string(busiest->second) + " elements of P (" +
                    where(static_cast<std::uint32_t>(busiest->first >> 32),
                          static_cast<std::uint32_t>(busiest->first & 0xFFFFFFFFu)) +
                    "; " + std::to_string(per_thread.size()) + " of the launch's " +
                    std::to_string(std::uint64_t{grid.x} * grid.y * block.x * block.y) + " threads wrote to P): " +
                    contract_words(lab) +
                    "\n  hint: a loop over P in one thread (or a few) computes the right answer with the GPU's "
                    "other threads idle, thousands of times slower; give each thread its own output" +
                    (share > 1 ? "s" : ""));
    for (std::size_t e = 0; e < count; ++e) {
        if (writers[e] == 0)
            return fail(element(e) + " was never written by any thread of the kit's launch (its value is the "
                        "poison the kit filled P with)\n  hint: " + contract_words(lab));
        const wire::OutputWrite& w = seen.writes[first[e]];
        if (writers[e] > 1) {
            std::string others;
            for (const wire::OutputWrite& o : seen.writes)
                if (o.element == e && (o.block != w.block || o.thread != w.thread)) {
                    others = where(o.block, o.thread);
                    break;
                }
            return fail(element(e) + " was written by " + std::to_string(writers[e]) + " threads (" +
                        where(w.block, w.thread) + ", then " + others + "): each element of P has one owner; on a "
                        "GPU the second store races with the first\n  hint: " + contract_words(lab));
        }
        const std::size_t row = e / shape.cols, col = e % shape.cols;
        const Extent b = unravel(w.block, grid), t = unravel(w.thread, block);
        if (lab.block_tile == 0) {
            const std::uint32_t want_block = static_cast<std::uint32_t>(col / tile + grid.x * (row / tile));
            const std::uint32_t want_thread = static_cast<std::uint32_t>(col % tile + block.x * (row % tile));
            if (w.block != want_block || w.thread != want_thread)
                return fail(element(e) + " was written by " + where(w.block, w.thread) + ", but the contract gives "
                            "it to " + where(want_block, want_thread) + ": " + contract_words(lab) +
                            "\n  hint: x is the column and y the row; a kernel that maps x to rows computes a "
                            "transposed assignment (right only where P is square)");
        } else if (row / tile != b.y || col / tile != b.x) {
            return fail("block " + format(b) + " wrote " + element(e) + ", outside its own " +
                        std::to_string(tile) + " x " + std::to_string(tile) + " tile of P (rows " +
                        std::to_string(b.y * tile) + " to " + std::to_string(b.y * tile + tile - 1) + ", columns " +
                        std::to_string(b.x * tile) + " to " + std::to_string(b.x * tile + tile - 1) + ", thread " +
                        format(t) + "): " + contract_words(lab) +
                        "\n  hint: blockIdx.x picks the tile's columns and blockIdx.y its rows");
        }
    }
    verdict.passed = true;
    return verdict;
}

}  // namespace tilelab::grader
