/// @file operand_probe.hpp
/// @brief The CPU backend's operand probe: the evidence of how P was produced, for the technique checks.
///
/// The kit's runner multiplies operands drawn as the performance gate draws its own (tilelab/gate_data.hpp's
/// product_operand: no kernel can tell the two runs apart by their values), and names the points on the path from
/// global memory to the multiply-adds where an element is replaced by its second value (ProbeHook), a function of
/// its bits and the probe's seed (gate::probe_second_bits). A kernel whose multiply-adds take their operands from
/// that point on computes P' = M' N', the product of the second values; one that takes them from anywhere else
/// (global memory directly, a tile of finished sums, a constant tile) does not. Unlike scaling, a replacement is
/// not linear: a sum laundered through shared memory is no element of M or N and is never replaced, and a kernel
/// cannot build M' N' from M and N.
///
/// While a probe runs the emulator also counts what the lab's technique improves: operand elements staged into
/// shared memory, the words read from shared memory by every kind of read (plain, 16-byte, atomic, warp matrix
/// loads), and of those the words another thread had stored, the words read from global memory, 16-byte global loads
/// of operand elements, shared reads
/// of asynchronously copied words whose copy was in flight while its thread computed, and the multiply-adds that
/// warp matrix operations did. The counts depend only on the kernel and the shape, never on the machine or the seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tilelab::cpu {

/// Where an operand element is replaced by its second value (bits of ProbeSettings::hooks).
enum ProbeHook : std::uint32_t {
    hook_shared_store = 1u,         ///< Any float that reaches shared memory: stores, vector stores, asynchronous copies.
    hook_async_landing = 2u,        ///< Only floats that asynchronous copies land in shared memory.
    hook_vector_global_load = 4u,   ///< Floats loaded from global memory by a 16-byte (float4) load.
    hook_vector_shared_load = 8u,   ///< Floats read from shared memory by a 16-byte (float4) read.
    hook_mma_operand = 32u,         ///< Elements of a tensor-core operation's A and B operands (wmma::mma_sync,
                                    ///< mma.sync) as the instruction takes them: never a fragment's own elements.
};

/// What the emulator counted while a probe ran (every block of every launch). Plain numbers, sent on the wire.
struct ProbeCounts {
    std::uint64_t operand_words_staged;   ///< Floats stored into shared memory that are elements of M or N.
    std::uint64_t other_words_staged;     ///< Nonzero floats stored into shared memory that are not.
    std::uint64_t async_operand_words;    ///< Of operand_words_staged, those asynchronous copies landed.
    std::uint64_t shared_reads;           ///< Words read from shared memory, by any read (a float4 read is four).
    std::uint64_t vector_shared_reads;    ///< 16-byte reads of shared memory (accesses).
    std::uint64_t shared_reads_from_others;  ///< Of shared_reads, words another thread of the block stored.
    std::uint64_t vector_global_operand_words;  ///< Elements of M or N loaded from global memory by 16-byte loads.
    std::uint64_t global_words_read;      ///< Words read from global memory by any read (plain, vector, a copy's
                                          ///< source, a warp matrix load), M's and N's through the kernel's
                                          ///< checked pointers.
    std::uint64_t async_word_reads;       ///< Shared reads of words an asynchronous copy landed.
    std::uint64_t in_flight_reads;        ///< Of those, words whose copy was in flight while its thread computed.
    std::uint64_t tensor_core_multiply_adds;  ///< Multiply-adds done by warp matrix operations (wmma or mma.sync).
    std::uint64_t mma_sync_multiply_adds;     ///< Of those, the ones mma.sync did (tilelab/mma.hpp).
    std::uint64_t replaced;               ///< Elements replaced by their second value, at the hooks asked for.
    std::uint64_t grid_blocks;            ///< Blocks of the grids launched, whether run or not (a sample's whole).
};

/// Starts a probe (between launches only): operands are replaced by their second values for seed @p seed
/// (gate::probe_second_bits) where @p hooks says (0: counted only). Counts start at zero.
void start_operand_probe(std::uint64_t seed, std::uint32_t hooks);
/// Stops the probe and returns what it counted.
ProbeCounts stop_operand_probe();

/// The next launch runs only @p count of its blocks (all of them when the grid has no more), drawn from @p seed,
/// its last block always among them; the others never run and write nothing. The technique check takes its evidence
/// this way at the performance gate's shape, where running every block would take minutes: a kernel whose
/// technique is there only at small shapes shows in the blocks run. 0 runs every block (the default; a launch
/// takes the setting and resets it).
void sample_next_launch_blocks(unsigned count, std::uint64_t seed);

namespace detail {
/// The blocks (linear indices, ascending) that a launch of @p block_count blocks runs: those of the sample asked for
/// by sample_next_launch_blocks(), which this takes; empty when none was asked for (every block runs).
std::vector<unsigned long long> take_block_sample(unsigned long long block_count);
/// True while a probe runs: read inline on the emulator's paths, written only between launches.
extern bool operand_probe_on;
/// Adds what the calling worker thread counted to the probe's totals (each thread counts on its own): called as its
/// part of a launch ends, and by stop_operand_probe() for the thread that stops.
void flush_probe_counts() noexcept;
/// A float the kernel's own store puts into shared memory: counted, and replaced at hook_shared_store.
float probe_shared_store(float value) noexcept;
/// An accumulator's element that store_matrix_sync puts into shared memory: a result, never an operand, whatever
/// its bits (a sum may equal an element of M or N by chance, in one run and not in another): counted among the
/// other values, never replaced.
float probe_result_stored(float value) noexcept;
/// @p bytes of floats a vector store puts into shared memory at @p words (replaced in place).
void probe_shared_words_stored(void* words, std::size_t bytes) noexcept;
/// An asynchronous copy landing @p bytes at @p destination from @p data (replaced in place): @p reads_at_issue and
/// @p issue_epoch are its stamp (runtime_state.hpp's PendingCopy), to judge whether it was in flight while its
/// thread (or, for a thread that never reads, its block) computed.
void probe_async_landing(const unsigned char* destination, unsigned char* data, std::size_t bytes,
                         std::uint64_t reads_at_issue, std::uint64_t issue_epoch) noexcept;
/// A read of @p bytes of memory at @p address by the kernel: shared memory's reads are counted as such, any other
/// (global memory) among the global words read.
void probe_shared_read(const void* address, std::size_t bytes) noexcept;
/// A word a warp shuffle, vote or reduction (__ballot_sync, __reduce_or_sync, ...) brought from other lanes: counted
/// among the words read from shared memory (data passed between threads, as a tile's reads pass it, so that these do
/// not pass for reuse from registers), never as a word another thread stored there.
void probe_lane_exchange() noexcept;
/// A vector load of @p bytes into @p value from @p address (shared or global): counted, and replaced where asked.
void probe_vector_load(const void* address, void* value, std::size_t bytes) noexcept;
/// An element of a tensor-core operation's A or B operand (wmma::mma_sync, tilelab/mma.hpp's mma.sync) as the
/// instruction takes it: replaced at hook_mma_operand. Only here: a value replaced where a fragment is loaded would
/// reach whatever code reads the fragment's elements, and the product could come from scalar code.
float probe_mma_operand(float value) noexcept;
/// A warp matrix operation's d = a b + c on the @p rows × @p depth tile @p a and the @p depth × @p cols tile @p b
/// (row major): counts the multiply-adds whose two operands are both elements of M and N (operands, or their
/// second values), so that an operation fed a constant tile (an identity that passes the other operand through) counts
/// for nothing; @p mma_sync says which instruction did them.
void probe_tensor_core(const float* a, const float* b, int rows, int depth, int cols, bool mma_sync = false) noexcept;
}  // namespace detail

}  // namespace tilelab::cpu
