// The operand probe (tilelab/cpu/operand_probe.hpp): replaces elements of M and N by their second values at the
// hooks the technique check asks for, and counts what each lab's technique improves.
#include <tilelab/cpu/emulator.hpp>
#include <tilelab/cpu/operand_probe.hpp>
#include <tilelab/gate_data.hpp>

#include "runtime_state.hpp"

#include <algorithm>
#include <mutex>
#include <cstring>
#include <random>
#include <vector>

namespace tilelab::cpu {

namespace detail {
bool operand_probe_on = false;
}  // namespace detail

namespace {

// The probe's settings, written only between launches (start and stop), read by every worker during one.
std::uint32_t probe_hooks = 0;
float scale_before_probe = 1.0f;

// The counts. Each worker thread adds to its own (an atomic shared by the workers, added to on every shared-memory
// read, cost more than the rest of the probe); they reach the totals as the thread's part of a launch ends
// (flush_probe_counts) and at the probe's stop.
thread_local ProbeCounts counts{};
ProbeCounts totals{};
std::mutex totals_lock;

void add(std::uint64_t& counter, std::uint64_t n) noexcept { counter += n; }

void add_counts(ProbeCounts& to, const ProbeCounts& from) noexcept {
    to.operand_words_staged += from.operand_words_staged;
    to.other_words_staged += from.other_words_staged;
    to.async_operand_words += from.async_operand_words;
    to.shared_reads += from.shared_reads;
    to.vector_shared_reads += from.vector_shared_reads;
    to.shared_reads_from_others += from.shared_reads_from_others;
    to.vector_global_operand_words += from.vector_global_operand_words;
    to.global_words_read += from.global_words_read;
    to.async_word_reads += from.async_word_reads;
    to.in_flight_reads += from.in_flight_reads;
    to.tensor_core_multiply_adds += from.tensor_core_multiply_adds;
    to.mma_sync_multiply_adds += from.mma_sync_multiply_adds;
    to.replaced += from.replaced;
    to.grid_blocks += from.grid_blocks;
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

// The seed of the probe's second values (tilelab/gate_data.hpp): operands and second values are known by their bits.
std::uint64_t second_seed = 0;

// Whether @p value is an element of M or N in the probe's run: an operand, or the second value that replaced one.
bool is_operand_value(float value) noexcept { return gate::probe_form(bits_of(value)) != gate::ProbeForm::none; }

Seen see(float value, std::uint32_t hook) noexcept {
    const std::uint32_t bits = bits_of(value);
    const gate::ProbeForm form = gate::probe_form(bits);
    if (form == gate::ProbeForm::none) return Seen{false, value};
    // A second value already (replaced at an earlier hook, a float4 load say): an operand still, so that a run with
    // replacements counts what the same run without them counts.
    if (form == gate::ProbeForm::second || (probe_hooks & hook) == 0) return Seen{true, value};
    ++counts.replaced;
    return Seen{true, from_bits(gate::probe_second_bits(second_seed, bits))};
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
    if (operand_probe_on) {
        const std::lock_guard<std::mutex> lock(totals_lock);
        totals.grid_blocks += block_count;
    }
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

void start_operand_probe(std::uint64_t seed, std::uint32_t hooks) {
    second_seed = seed;
    probe_hooks = hooks;
    counts = ProbeCounts{};
    totals = ProbeCounts{};
    // Every path that stores into shared memory tests the scale first (emulator.hpp): a factor other than 1 sends
    // them all to the hooks below, and costs nothing when no probe runs.
    scale_before_probe = detail::shared_store_scale;
    detail::shared_store_scale = 0.0f;
    detail::operand_probe_on = true;
}

ProbeCounts stop_operand_probe() {
    detail::flush_probe_counts();
    detail::operand_probe_on = false;
    detail::shared_store_scale = scale_before_probe;
    return totals;
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
    if (!shared_offset_of(address, &offset)) {
        add(counts.global_words_read, (bytes + 3) / 4);
        return;
    }
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
    if (bytes == 16) ++counts.vector_shared_reads;
    add(counts.shared_reads_from_others, others);
    add(counts.async_word_reads, async_words);
    add(counts.in_flight_reads, in_flight);
}

void probe_lane_exchange() noexcept { ++counts.shared_reads; }

void flush_probe_counts() noexcept {
    const std::lock_guard<std::mutex> lock(totals_lock);
    add_counts(totals, counts);
    counts = ProbeCounts{};
}

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
    add(counts.global_words_read, (bytes + 3) / 4);
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
