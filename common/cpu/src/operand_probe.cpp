// The operand probe (tilelab/cpu/operand_probe.hpp): replaces elements of M and N by their second values at the
// hooks the technique check asks for, and counts what each lab's technique improves.
#include <tilelab/cpu/emulator.hpp>
#include <tilelab/cpu/operand_probe.hpp>

#include "runtime_state.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <random>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tilelab::cpu {

namespace detail {
bool operand_probe_on = false;
}  // namespace detail

namespace {

// The probe's settings, written only between launches (start and stop), read by every worker during one.
std::unordered_map<std::uint32_t, std::uint32_t> second_value;
std::unordered_set<std::uint32_t> replacement_values;  // second_value's values
std::uint32_t probe_hooks = 0;
float scale_before_probe = 1.0f;

// The counts, added by the workers running blocks at once.
struct AtomicCounts {
    std::atomic<std::uint64_t> operand_words_staged{0}, other_words_staged{0}, async_operand_words{0},
        shared_reads{0}, vector_shared_reads{0}, shared_reads_from_others{0}, vector_global_operand_words{0}, async_word_reads{0},
        in_flight_reads{0}, tensor_core_multiply_adds{0}, mma_sync_multiply_adds{0}, replaced{0}, grid_blocks{0};
};
AtomicCounts counts;

void add(std::atomic<std::uint64_t>& counter, std::uint64_t n) noexcept {
    if (n != 0) counter.fetch_add(n, std::memory_order_relaxed);
}

std::uint32_t bits_of(float value) noexcept {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

float from_bits(std::uint32_t bits) noexcept {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

// What becomes of one float at a hook: whether it is an element of M or N, and its value after the hook.
struct Seen {
    bool operand;
    float value;
};
// Whether @p value is an element of M or N in the probe's run: a key, or the second value that replaced one.
bool is_operand_value(float value) noexcept {
    const std::uint32_t bits = bits_of(value);
    return second_value.count(bits) != 0 || replacement_values.count(bits) != 0;
}

Seen see(float value, std::uint32_t hook) noexcept {
    const auto found = second_value.find(bits_of(value));
    // A second value already (replaced at an earlier hook, a float4 load say): an operand still, so that a run with
    // replacements counts what the same run without them counts.
    if (found == second_value.end()) return Seen{replacement_values.count(bits_of(value)) != 0, value};
    if ((probe_hooks & hook) == 0) return Seen{true, value};
    counts.replaced.fetch_add(1, std::memory_order_relaxed);
    return Seen{true, from_bits(found->second)};
}

// Which words of the running block's shared memory an asynchronous copy landed, and whether that copy was in flight
// while its thread computed: per worker (a worker runs one block at a time), tagged with the block so that a word
// another block marked on this worker does not count.
constexpr std::uint32_t landed_in_flight = 1u;
thread_local std::vector<std::uint32_t> landed_marks;

std::uint32_t block_tag() noexcept {
    const uint3& b = block_index();
    const dim3& g = grid_dim();
    return ((b.x + g.x * (b.y + g.y * b.z)) + 1u) << 1;
}

void mark_landed(std::size_t offset, std::size_t bytes, bool in_flight) {
    const std::size_t first = offset / 4, last = (offset + bytes + 3) / 4;
    if (landed_marks.size() < last) landed_marks.resize(last, 0);
    const std::uint32_t tag = block_tag() | (in_flight ? landed_in_flight : 0u);
    for (std::size_t word = first; word < last; ++word) landed_marks[word] = tag;
}

// @p bytes of floats at @p words: counted as staged into shared memory, replaced in place at @p hook.
void stage_words(unsigned char* words, std::size_t bytes, std::uint32_t hook, bool async) noexcept {
    std::uint64_t operands = 0, others = 0;
    for (std::size_t at = 0; at + sizeof(float) <= bytes; at += sizeof(float)) {
        float value;
        std::memcpy(&value, words + at, sizeof value);
        const Seen seen = see(value, hook);
        if (seen.operand) {
            ++operands;
            std::memcpy(words + at, &seen.value, sizeof value);
        } else if (value != 0.0f) {
            ++others;
        }
    }
    add(counts.operand_words_staged, operands);
    add(counts.other_words_staged, others);
    if (async) add(counts.async_operand_words, operands);
}

}  // namespace

namespace {
unsigned sampled_blocks = 0;
std::uint64_t block_sample_seed = 0;
}  // namespace

void sample_next_launch_blocks(unsigned count, std::uint64_t seed) {
    sampled_blocks = count;
    block_sample_seed = seed;
}

namespace detail {
std::vector<unsigned long long> take_block_sample(unsigned long long block_count) {
    if (operand_probe_on) add(counts.grid_blocks, block_count);
    const unsigned count = sampled_blocks;
    sampled_blocks = 0;
    if (count == 0 || count >= block_count) return {};
    // The last block (the grid's far corner: partial tiles, when there are any) and others drawn from the seed.
    std::vector<unsigned long long> blocks{block_count - 1};
    std::mt19937_64 draw(block_sample_seed);
    while (blocks.size() < count) {
        const unsigned long long block = draw() % block_count;
        if (std::find(blocks.begin(), blocks.end(), block) == blocks.end()) blocks.push_back(block);
    }
    std::sort(blocks.begin(), blocks.end());
    return blocks;
}
}  // namespace detail

void start_operand_probe(const float* keys, const float* values, std::size_t count, std::uint32_t hooks) {
    second_value.clear();
    second_value.reserve(count);
    replacement_values.clear();
    replacement_values.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        second_value.emplace(bits_of(keys[i]), bits_of(values[i]));
        replacement_values.insert(bits_of(values[i]));
    }
    probe_hooks = hooks;
    for (auto* counter : {&counts.operand_words_staged, &counts.other_words_staged, &counts.async_operand_words,
                          &counts.shared_reads, &counts.vector_shared_reads, &counts.shared_reads_from_others,
                          &counts.vector_global_operand_words,
                          &counts.async_word_reads, &counts.in_flight_reads, &counts.tensor_core_multiply_adds,
                          &counts.mma_sync_multiply_adds, &counts.replaced, &counts.grid_blocks})
        counter->store(0);
    // Every path that stores into shared memory tests the scale first (emulator.hpp): a factor other than 1 sends
    // them all to the hooks below, and costs nothing when no probe runs.
    scale_before_probe = detail::shared_store_scale;
    detail::shared_store_scale = 0.0f;
    detail::operand_probe_on = true;
}

ProbeCounts stop_operand_probe() {
    detail::operand_probe_on = false;
    detail::shared_store_scale = scale_before_probe;
    second_value.clear();
    return ProbeCounts{counts.operand_words_staged.load(), counts.other_words_staged.load(),
                       counts.async_operand_words.load(), counts.shared_reads.load(),
                       counts.vector_shared_reads.load(), counts.shared_reads_from_others.load(),
                       counts.vector_global_operand_words.load(),
                       counts.async_word_reads.load(), counts.in_flight_reads.load(),
                       counts.tensor_core_multiply_adds.load(), counts.mma_sync_multiply_adds.load(),
                       counts.replaced.load(), counts.grid_blocks.load()};
}

namespace detail {

float probe_shared_store(float value) noexcept {
    const Seen seen = see(value, hook_shared_store);
    add(seen.operand ? counts.operand_words_staged : counts.other_words_staged, seen.operand || value != 0.0f);
    return seen.value;
}

float probe_result_stored(float value) noexcept {
    add(counts.other_words_staged, value != 0.0f);
    return value;
}

void probe_shared_words_stored(void* words, std::size_t bytes) noexcept {
    stage_words(static_cast<unsigned char*>(words), bytes, hook_shared_store, false);
}

void probe_async_landing(const unsigned char* destination, unsigned char* data, std::size_t bytes,
                         std::uint64_t reads_at_issue, std::uint64_t issue_epoch) noexcept {
    stage_words(data, bytes, (probe_hooks & hook_shared_store) != 0 ? hook_shared_store : hook_async_landing, true);
    // In flight while its thread computed: the thread read shared memory while the copy was on its way, at least half
    // as much as it reads, on average, between two of its commits (a token read does not make a copy run ahead of
    // the multiply-adds). A thread that only copies (a producer warp): the block passed a barrier meanwhile.
    const std::uint64_t reads = running_thread_reads();
    const std::uint64_t during = reads - reads_at_issue;
    const std::uint64_t commits = running_thread_commits();
    const bool in_flight = reads == 0 ? running_block_epoch() > issue_epoch
                                      : during > 0 && 2 * during * (commits > 0 ? commits : 1) >= reads;
    std::size_t offset = 0;
    if (shared_offset_of(destination, &offset)) mark_landed(offset, bytes, in_flight);
}

void probe_shared_read(const void* address, std::size_t bytes) noexcept {
    std::size_t offset = 0;
    if (!shared_offset_of(address, &offset)) return;
    // Words, whatever the width of the read: a float4 read brings four values, as four scalar reads do.
    const std::size_t first = offset / 4, last = (offset + std::max<std::size_t>(bytes, 1) + 3) / 4;
    std::uint64_t others = 0, async_words = 0, in_flight = 0;
    for (std::size_t word = first; word < last; ++word) {
        others += shared_word_stored_by_other(word * 4);
        if (word >= landed_marks.size()) continue;
        const std::uint32_t mark = landed_marks[word];
        if ((mark & ~landed_in_flight) != block_tag()) continue;
        ++async_words;
        in_flight += (mark & landed_in_flight) != 0;
    }
    add(counts.shared_reads, last - first);
    if (bytes == 16) counts.vector_shared_reads.fetch_add(1, std::memory_order_relaxed);
    add(counts.shared_reads_from_others, others);
    add(counts.async_word_reads, async_words);
    add(counts.in_flight_reads, in_flight);
}

void probe_lane_exchange() noexcept { counts.shared_reads.fetch_add(1, std::memory_order_relaxed); }

void probe_vector_load(const void* address, void* value, std::size_t bytes) noexcept {
    auto* words = static_cast<unsigned char*>(value);
    std::size_t offset = 0;
    if (shared_offset_of(address, &offset)) {
        probe_shared_read(address, bytes);
        if (bytes != 16) return;
        for (std::size_t at = 0; at + sizeof(float) <= bytes; at += sizeof(float)) {
            float element;
            std::memcpy(&element, words + at, sizeof element);
            element = see(element, hook_vector_shared_load).value;
            std::memcpy(words + at, &element, sizeof element);
        }
        return;
    }
    // Only a load from M or N itself is the operands' 16-byte load: the same values parked in P (or anywhere else)
    // and loaded from there are not.
    if (bytes != 16 || !in_kit_operand(address, bytes)) return;
    std::uint64_t operands = 0;
    for (std::size_t at = 0; at + sizeof(float) <= bytes; at += sizeof(float)) {
        float element;
        std::memcpy(&element, words + at, sizeof element);
        const Seen seen = see(element, hook_vector_global_load);
        operands += seen.operand;
        std::memcpy(words + at, &seen.value, sizeof element);
    }
    add(counts.vector_global_operand_words, operands);
}

float probe_mma_operand(float value) noexcept { return see(value, hook_mma_operand).value; }

void probe_tensor_core(const float* a, const float* b, int rows, int depth, int cols, bool mma_sync) noexcept {
    // Of the rows × depth × cols multiply-adds, those whose a and b are both operands: per k, the operands in a's
    // column k times those in b's row k.
    std::uint64_t multiply_adds = 0;
    for (int k = 0; k < depth; ++k) {
        std::uint64_t in_a = 0, in_b = 0;
        for (int i = 0; i < rows; ++i) in_a += is_operand_value(a[i * depth + k]);
        for (int j = 0; j < cols; ++j) in_b += is_operand_value(b[k * cols + j]);
        multiply_adds += in_a * in_b;
    }
    add(counts.tensor_core_multiply_adds, multiply_adds);
    if (mma_sync) add(counts.mma_sync_multiply_adds, multiply_adds);
}

}  // namespace detail

}  // namespace tilelab::cpu
