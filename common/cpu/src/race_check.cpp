// The CPU backend's race check: every shared-memory access of a block noted in the shadow of the word it touches
// (who read and wrote it in this barrier interval, and which __syncwarp ordered it), a conflict between two threads
// reported with the barrier it shows missing; an access while an asynchronous copy fills the word, or past the
// launch's dynamic shared memory; and barrier divergence (see tilelab/cpu/emulator.hpp).
#include "scheduler_state.hpp"

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace tilelab::cpu {
namespace scheduling {

namespace {
// "[3][4]": the indices of element @p element of an array with @p extents (0 past the last).
std::string indices(std::size_t element, const std::size_t (&extents)[4]) {
    std::size_t index[4] = {0, 0, 0, 0};
    int rank = 0;
    while (rank < 4 && extents[rank] != 0) ++rank;
    for (int i = rank - 1; i >= 0; --i) {
        index[i] = element % extents[i];
        element /= extents[i];
    }
    std::string text;
    for (int i = 0; i < rank; ++i) text += "[" + std::to_string(index[i]) + "]";
    return text;
}
}  // namespace

// "N_tile[3][4]" (or "tiles.m[3][4]", a __shared__ struct's member) for the element of shared memory at byte offset
// @p offset.
std::string element_name(const Worker& w, std::size_t offset) {
    if (offset >= max_static_shared_bytes)
        return "dynamic shared memory (byte " + std::to_string(offset - max_static_shared_bytes) + ")";
    for (const SharedSite& site : w.sites) {
        if (offset < site.offset || offset >= site.offset + site.bytes) continue;
        const SharedDeclaration& d = *site.declaration;
        std::string name = d.name + indices((offset - site.offset) / d.element_bytes, d.extents);
        const std::size_t within = (offset - site.offset) % d.element_bytes;  // the byte in a struct's element
        for (std::size_t m = 0; m < d.member_count; ++m) {
            const SharedMember& member = d.members[m];
            if (within < member.offset || within >= member.offset + member.bytes) continue;
            return name + "." + member.name + indices((within - member.offset) / member.element_bytes, member.extents);
        }
        return name;
    }
    return "shared memory (byte " + std::to_string(offset) + ")";
}

namespace {

// Which barrier a race shows missing: a thread that reads a tile element another stored in the same interval,
// having stored its own (or that stores one, not having read yet), is between loading and computing; the other
// way round, it is between computing and loading the next phase.
enum class RaceKind { load_then_read, read_then_overwrite, two_writers };

void report_race(Worker& w, std::size_t offset, bool write, std::uint16_t other, bool other_wrote) {
    if (w.launch->failed.exchange(true)) return;  // the first race of a launch says it all
    const BlockThread& me = *w.current;
    RaceKind kind = RaceKind::two_writers;
    if (write && !other_wrote)
        kind = me.read_epoch == w.epoch ? RaceKind::read_then_overwrite : RaceKind::load_then_read;
    else if (!write)
        kind = me.write_epoch == w.epoch ? RaceKind::load_then_read : RaceKind::read_then_overwrite;
    const std::string them = other == many_readers ? std::string("other threads")
                                                   : "thread " + format(unravel(other, w.block_dim));
    std::ostringstream message;
    message << "shared-memory race in " << kernel_and_block(w) << ": thread " << format(me.index)
            << (write ? " wrote " : " read ") << element_name(w, offset)
            << (detail::running_matrix_call == nullptr
                    ? std::string()
                    : std::string(" (in its ") + detail::running_matrix_call->name + " at " +
                          where(detail::running_matrix_call->file, detail::running_matrix_call->line) + ")")
            << " after " << them
            << (other_wrote ? " wrote" : " read") << " it, with no __syncthreads() between them"
            << (other != many_readers && other / 32 == me.id / 32 ? " (nor a __syncwarp() naming both lanes of their warp)" : "")
            << " (both after "
            << (w.epoch_file ? std::string("the ") + w.epoch_name + " at " + where(w.epoch_file, w.epoch_line)
                             : std::string("the start of the block"))
            << "). ";
    switch (kind) {
        case RaceKind::load_then_read:
            message << "A barrier is missing between loading the tiles and computing from them: every thread must "
                       "reach a __syncthreads() after storing its tile elements and before any thread reads the tiles";
            break;
        case RaceKind::read_then_overwrite:
            message << "A barrier is missing between computing from the tiles and loading the next ones: every "
                       "thread must reach a __syncthreads() after its last read of a tile and before the next phase "
                       "overwrites it";
            break;
        case RaceKind::two_writers:
            message << "Two threads stored to the same tile element: each thread should store its own element, "
                       "tile[threadIdx.y][threadIdx.x]; check the tile indices";
            break;
    }
    detail::set_kernel_error(cudaErrorTileLabSharedMemoryRace, message.str());
}

// A thread touched dynamic shared memory (extern __shared__) past what its launch gave: a GPU faults there too.
// True when it did (and the launch failed with an illegal address).
bool past_dynamic_shared(Worker& w, std::size_t offset, bool write) {
    if (offset < max_static_shared_bytes || offset < max_static_shared_bytes + w.launch->dynamic_shared_bytes)
        return false;
    if (w.launch->failed.exchange(true)) return true;
    std::ostringstream message;
    message << "illegal memory access in " << kernel_and_block(w) << ": thread " << format(w.current->index)
            << (write ? " wrote" : " read") << " byte " << offset - max_static_shared_bytes
            << " of its extern __shared__ array, but the launch gave the kernel " << w.launch->dynamic_shared_bytes
            << " bytes of dynamic shared memory (the third argument of <<<grid, block, bytes>>>, of cudaLaunchKernel "
               "or cudaLaunchKernelEx). The launch must give the bytes of every tile the kernel carves from its extern "
               "__shared__ array (the kit's own launch of the lab's kernel gives what the lab's launcher gives); or "
               "declare the tiles with their sizes, __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH]";
    detail::set_kernel_error(cudaErrorIllegalAddress, message.str());
    return true;
}

// A thread touched shared memory that an asynchronous copy still in flight will overwrite.
void report_async_race(Worker& w, std::size_t offset, bool write, std::uint16_t owner) {
    if (w.launch->failed.exchange(true)) return;
    const BlockThread& me = *w.current;
    std::string site = "?";
    const char* call = "__pipeline_memcpy_async";
    const char* wait = "__pipeline_wait_prior() for that copy's batch";
    const unsigned char* address = w.arena + offset;
    for (const detail::PendingCopy& copy : w.threads[owner].copies)
        if (address + 4 > copy.destination && address < copy.destination + copy.bytes) {  // the copy covers the word
            site = where(copy.file, copy.line);
            call = copy.call;
            wait = copy.wait;
        }
    std::ostringstream message;
    message << "shared-memory race in " << kernel_and_block(w) << ": thread " << format(me.index)
            << (write ? " wrote " : " read ") << element_name(w, offset)
            << " while the asynchronous copy into it that thread " << format(unravel(owner, w.block_dim))
            << " issued at " << site << " (" << call << ") was still in flight. A wait is missing: the "
            << "issuing thread must reach " << wait << ", and then every thread a "
            << "__syncthreads(), before any thread reads the stage it fills (or overwrites it)";
    detail::set_kernel_error(cudaErrorTileLabSharedMemoryRace, message.str());
}

// __syncwarp's ordering (the CUDA Programming Guide: it orders memory among the threads taking part). Kept only in
// blocks that have completed a __syncwarp (Worker::block_first_sync), so that the race check of other kernels costs
// what it did. An access recorded before that is known to precede the block's first __syncwarp.

// The warp-sync number of an access recorded as @p seq in this block: its own, or, recorded before the block's
// first __syncwarp (not kept then), one below that rendezvous.
std::uint32_t access_seq(const Worker& w, std::uint32_t seq) {
    return seq >= w.block_first_sync ? seq : w.block_first_sync - 1;
}

// True when the access by thread @p other (warp-sync number @p seq) is ordered before @p thread's accesses by a
// __syncwarp that named both (they are lanes of one warp, and the __syncwarp completed after the access).
bool warp_ordered(const Worker& w, const BlockThread& thread, std::uint16_t other, std::uint32_t seq) {
    if (w.block_first_sync == 0 || other / 32 != thread.id / 32) return false;
    return thread.synced_with[other % 32] > access_seq(w, seq);
}

// The same for every read of @p s in this interval by other threads than @p thread. Reads by many threads, all
// before the block's first __syncwarp, are not told apart: in a block of one warp they are its lanes; in a larger
// one they may have come from another warp, which only a __syncthreads() orders.
bool reads_warp_ordered(const Worker& w, const BlockThread& thread, const Shadow& s) {
    if (w.block_first_sync == 0) return false;
    if (s.reader != many_readers) return warp_ordered(w, thread, s.reader, s.read_seq);
    const unsigned warp = thread.id / 32u;
    std::uint32_t lanes = s.read_lanes;
    if (s.read_seq < w.block_first_sync) {
        if (w.threads.size() > 32) return false;
        lanes = ~0u;
    } else if (s.read_warp != warp) {
        return false;
    }
    const std::uint32_t seq = access_seq(w, s.read_seq);
    lanes &= ~(1u << (thread.id % 32));
    for (unsigned lane = 0; lane < 32 && warp * 32 + lane < w.threads.size(); ++lane)
        if ((lanes >> lane & 1u) && thread.synced_with[lane] <= seq) return false;
    return true;
}

// A write by @p thread to @p s that another thread wrote or read in this interval: a race unless a __syncwarp
// ordered them.
[[gnu::noinline]] void check_write_conflict(Worker& w, const BlockThread& thread, const Shadow& s, std::size_t offset) {
    const std::uint16_t me = thread.id;
    if (s.write_epoch == w.epoch && s.writer != me && !warp_ordered(w, thread, s.writer, s.write_seq))
        report_race(w, offset, true, s.writer, true);
    else if (s.read_epoch == w.epoch && s.reader != me && !reads_warp_ordered(w, thread, s))
        report_race(w, offset, true, s.reader, false);
}

// A read by @p thread of @p s, which another thread wrote in this interval: a race unless a __syncwarp ordered them.
[[gnu::noinline]] void check_read_conflict(Worker& w, const BlockThread& thread, const Shadow& s, std::size_t offset) {
    if (!warp_ordered(w, thread, s.writer, s.write_seq)) report_race(w, offset, false, s.writer, true);
}

// Keeps which lanes read @p s, and when, in a block that has completed a __syncwarp: called for a read by @p me
// before the read is recorded (s.reader is still the earlier readers'; @p epoch is the interval's).
[[gnu::noinline]] void note_warp_read(const Worker& w, Shadow& s, std::uint16_t me, std::uint32_t epoch) {
    const std::uint16_t warp = me / 32;
    const std::uint32_t lane = 1u << (me % 32);
    if (s.read_epoch != epoch) {  // the first read of this interval
        s.read_warp = warp;
        s.read_lanes = lane;
    } else if (s.read_seq < w.block_first_sync) {  // the reads before were not kept: one reader is still known
        if (s.reader != many_readers) {
            s.read_warp = s.reader / 32 == warp ? warp : mixed_warps;
            s.read_lanes = lane | 1u << (s.reader % 32);
        } else {
            s.read_warp = w.threads.size() <= 32 ? warp : mixed_warps;  // see reads_warp_ordered
            s.read_lanes = ~0u;
        }
    } else if (s.read_warp == warp) {
        s.read_lanes |= lane;
    } else {
        s.read_warp = mixed_warps;
    }
    s.read_seq = w.warp_syncs;
}

// note_shared_access's loop over the words of an access (from byte @p offset of shared memory), with the warp-sync
// bookkeeping when @p warp_synced (the block has completed a __syncwarp) and without it otherwise: two copies, so
// that the race check of kernels without __syncwarp costs what it did.
template <bool warp_synced>
void note_words(Worker& w, BlockThread& thread, std::size_t offset, std::size_t bytes, bool write) {
    const std::uint16_t me = thread.id;
    const std::uint32_t epoch = w.epoch;
    const std::size_t last = std::min(offset + bytes, arena_bytes);
    for (std::size_t byte = offset & ~std::size_t{3}; byte < last; byte += 4) {
        Shadow& s = w.shadow[byte / 4];
        if (s.async_owner != no_copy) report_async_race(w, offset, write, s.async_owner);
        if (write) {
            if ((s.write_epoch == epoch && s.writer != me) || (s.read_epoch == epoch && s.reader != me))
                check_write_conflict(w, thread, s, offset);
            s.write_epoch = epoch;
            s.writer = me;
            if constexpr (warp_synced) s.write_seq = w.warp_syncs;
            thread.write_epoch = epoch;
        } else {
            if (s.write_epoch == epoch && s.writer != me) check_read_conflict(w, thread, s, offset);
            if constexpr (warp_synced) note_warp_read(w, s, me, epoch);
            record_read(s, thread, me, epoch);
        }
    }
}

// The copy with __syncwarp's bookkeeping, out of line: the usual copy stays small where it is inlined.
[[gnu::noinline]] void note_words_warp_synced(Worker& w, BlockThread& thread, std::size_t offset, std::size_t bytes,
                                              bool write) {
    note_words<true>(w, thread, offset, bytes, write);
}

}  // namespace

void report_divergence(Worker& w) {
    if (w.launch->failed.exchange(true)) return;
    std::vector<std::pair<std::string, int>> groups;  // barrier "file:line" (or "returned"), threads there
    const BlockThread* first_done = nullptr;
    for (const BlockThread& t : w.threads) {
        std::string at = t.state == ThreadState::done
                             ? "returned"
                             : std::string("the ") + t.barrier_name + " at " + where(t.barrier_file, t.barrier_line);
        if (t.state == ThreadState::done && !first_done) first_done = &t;
        auto found = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == at; });
        if (found == groups.end())
            groups.emplace_back(at, 1);
        else
            ++found->second;
    }
    std::ostringstream message;
    message << "barrier divergence in " << kernel_and_block(w) << ": the threads of the block did not all reach the "
            << "same __syncthreads(): ";
    for (std::size_t i = 0; i < groups.size(); ++i) {
        if (i > 0) message << ", ";
        if (groups[i].first == "returned")
            message << groups[i].second << " threads had returned from the kernel (the first: thread "
                    << format(first_done->index) << ")";
        else
            message << groups[i].second << " threads waited at " << groups[i].first;
    }
    message << ". Every thread of a block must reach every __syncthreads(): keep barriers out of code that only "
               "some threads run (a bounds test, an early return); let threads outside the matrix load zeros "
               "and skip only the store";
    detail::set_kernel_error(cudaErrorTileLabBarrierDivergence, message.str());
}

// Every shared access that the usual one below is not: a wide or straddling access, dynamic shared memory (which may
// lie past the launch's), a word an asynchronous copy still fills, a word another thread touched in this interval
// (a race, or a __syncwarp's ordering, to judge), a block that has completed a __syncwarp, a block's first read in
// an interval.
[[gnu::noinline]] void note_shared_access_in_general(Worker& w, std::size_t offset, std::size_t bytes,
                                                     bool write) noexcept {
    if (past_dynamic_shared(w, offset, write)) return;
    BlockThread& thread = *w.current;
    ++(write ? w.shared_writes : w.shared_reads);
    const std::size_t first_word = offset / 4, end_word = std::min((offset + bytes + 3) / 4, arena_bytes / 4);
    if (write) {
        if (!w.async_copy_write) {
            w.bytes_stored += bytes;
            for (std::size_t word = first_word; word < end_word; ++word) w.landed[word] = 0;
        }
    } else {
        thread.reads += (bytes + 3) / 4;  // words: a float4 read counts as the four reads it replaces
        for (std::size_t word = first_word; word < end_word; ++word) thread.landed_reads += w.landed[word] >= w.block_epoch;
        if (w.read_epochs.empty() || w.read_epochs.back() != w.epoch) w.read_epochs.push_back(w.epoch);
    }
    if (w.block_first_sync == 0)
        note_words<false>(w, thread, offset, bytes, write);
    else
        note_words_warp_synced(w, thread, offset, bytes, write);
}

}  // namespace scheduling

using namespace scheduling;

bool detail::shared_word_stored_by_other(std::size_t offset) noexcept {
    const Worker* w = running_worker;
    if (w == nullptr || w->current == nullptr || offset >= arena_bytes) return false;
    const Shadow& s = w->shadow[offset / 4];
    return s.write_epoch != 0 && s.write_epoch >= w->block_epoch && s.writer != w->current->id;
}

void note_shared_atomic(const void* address, std::size_t bytes) noexcept {
    Worker* w = running_worker;
    if (w == nullptr || w->current == nullptr) return;
    const std::size_t offset = static_cast<std::size_t>(static_cast<const unsigned char*>(address) - w->arena);
    if (offset >= arena_bytes) return;
    if (past_dynamic_shared(*w, offset, true)) return;
    BlockThread& thread = *w->current;
    ++w->shared_writes;
    thread.reads += (bytes + 3) / 4;  // an atomic reads the word as well: its thread computed from shared memory
    const std::uint16_t me = thread.id;
    const std::uint32_t epoch = w->epoch;
    for (std::size_t byte = offset & ~std::size_t{3}; byte < std::min(offset + bytes, arena_bytes); byte += 4) {
        Shadow& s = w->shadow[byte / 4];
        w->landed[byte / 4] = 0;  // the atomic's value replaces what a copy landed there
        if (s.async_owner != no_copy) report_async_race(*w, offset, true, s.async_owner);
        // Atomics on one element in one interval do not race with each other, only with plain accesses by other
        // threads (which note_shared_access reports when they come after, seeing this write).
        if (s.atomic_epoch != epoch) {
            if (s.write_epoch == epoch && s.writer != me)
                report_race(*w, offset, true, s.writer, true);
            else if (s.read_epoch == epoch && s.reader != me)
                report_race(*w, offset, true, s.reader, false);
        }
        s.atomic_epoch = epoch;
        s.write_epoch = epoch;
        s.writer = me;
        if (w->block_first_sync != 0) s.write_seq = w->warp_syncs;
        thread.write_epoch = epoch;
    }
}

}  // namespace tilelab::cpu
