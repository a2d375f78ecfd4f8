// Runs kernels on the CPU: blocks spread over worker threads, each CUDA thread a fiber (Boost.Context), each
// block's fibers run in turn until every one has reached a barrier or returned. Checks barrier divergence and
// shared-memory races as it goes (see tilelab/cpu/emulator.hpp).
#include <tilelab/cpu/emulator.hpp>

#include "runtime_state.hpp"
#include "warp_rendezvous.hpp"

#include <tilelab/cpu/atomics.hpp>

#include <boost/context/fiber.hpp>
#include <cxxabi.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

namespace tilelab::cpu {
namespace {

namespace ctx = boost::context;

constexpr std::size_t max_static_shared_bytes = 48 * 1024;
constexpr std::size_t max_dynamic_shared_bytes = detail::optin_shared_bytes;  // the most any kernel may opt in to
constexpr std::size_t arena_bytes = max_static_shared_bytes + max_dynamic_shared_bytes;
constexpr std::size_t fiber_stack_bytes = 64 * 1024;
constexpr std::uint16_t many_readers = 0xFFFF;
constexpr int garbage_byte = fresh_memory_byte;  // fresh shared memory reads as NaN (floats) or -1 (ints)

std::atomic<unsigned long long> threads_run{0};
std::atomic<unsigned long long> barriers_passed{0};
std::atomic<unsigned long long> shared_reads{0};
std::atomic<unsigned long long> shared_writes{0};
// How tiles reached shared memory (the pipeline check, EmulatorStats): bytes written by the kernel's own stores,
// bytes landed by asynchronous copies, and those of them in flight while the block computed.
std::atomic<unsigned long long> shared_bytes_stored{0};
std::atomic<unsigned long long> async_bytes_landed{0};
std::atomic<unsigned long long> async_bytes_overlapped{0};

// Fiber stacks, reused from block to block; each has an inaccessible page below it to catch an overflow.
class StackPool {
public:
    ~StackPool() {
        for (void* base : all_) munmap(base, fiber_stack_bytes + detail::page_bytes());
    }
    ctx::stack_context allocate() {
        if (free_.empty()) {
            void* base = mmap(nullptr, fiber_stack_bytes + detail::page_bytes(), PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (base == MAP_FAILED) throw std::bad_alloc();
            mprotect(base, detail::page_bytes(), PROT_NONE);
            all_.push_back(base);
            free_.push_back(base);
        }
        void* base = free_.back();
        free_.pop_back();
        ctx::stack_context stack;
        stack.size = fiber_stack_bytes;
        stack.sp = static_cast<char*>(base) + detail::page_bytes() + fiber_stack_bytes;
        return stack;
    }
    void deallocate(ctx::stack_context& stack) noexcept {
        free_.push_back(static_cast<char*>(stack.sp) - fiber_stack_bytes - detail::page_bytes());
    }

private:
    std::vector<void*> all_;
    std::vector<void*> free_;
};

// Hands a fiber its stack, and tells its thread where that stack's guard page is (the fault handler's overflow test).
struct StackAllocator {
    StackPool* pool;
    const unsigned char** guard;
    ctx::stack_context allocate() {
        ctx::stack_context stack = pool->allocate();
        *guard = static_cast<const unsigned char*>(stack.sp) - stack.size - detail::page_bytes();
        return stack;
    }
    void deallocate(ctx::stack_context& stack) noexcept { pool->deallocate(stack); }
};

enum class ThreadState { runnable, waiting, warp_waiting, done };

struct BlockThread {
    ctx::fiber fiber;
    uint3 index;
    std::uint16_t id;
    ThreadState state;
    const char* barrier_file;
    int barrier_line;
    const char* barrier_name;   // "__syncthreads()", "__syncthreads_count()", ...: what it waits at, for messages
    int barrier_predicate;      // what it gave a barrier with a reduction (0 at a plain one)
    int barrier_count;          // after the barrier: how many threads of the block gave a nonzero predicate
    std::uint32_t read_epoch;   // the last interval in which this thread read shared memory
    std::uint32_t write_epoch;  // ... and wrote it
    std::vector<detail::PendingCopy> copies;  // asynchronous copies in flight (async_copy.cpp)
    std::uint64_t commits;                    // batches of copies committed
    std::uint64_t reads;                      // shared-memory reads it made in this block (the pipeline check)
    WarpCall* warp = nullptr;                 // the warp-level call it waits at (warp_waiting)
    const unsigned char* stack_guard = nullptr;  // the inaccessible page below its fiber's stack
    // Per lane l of its warp: the number (Worker::warp_syncs) of the last __syncwarp this thread completed together
    // with lane l. An access by lane l recorded before that __syncwarp is ordered before this thread's accesses.
    // Never reset: numbers from earlier blocks are below every access of this block (32 bits: a worker would need
    // four billion rendezvous to wrap them).
    std::uint32_t synced_with[32] = {};
};

// Who touched a 4-byte word of shared memory in the current barrier interval (epoch). 32 bytes, as small as the
// race check's speed wants (every shared access reads and writes one): epochs and warp-sync numbers are 32 bits,
// which a worker would need four billion barriers (or __syncwarp rendezvous) to wrap.
struct Shadow {
    std::uint32_t write_epoch = 0;
    std::uint32_t read_epoch = 0;
    std::uint32_t atomic_epoch = 0; // the last interval in which an atomic function updated it
    std::uint32_t write_seq = 0;    // Worker::warp_syncs when it was written ...
    std::uint32_t read_seq = 0;     // ... and last read: a __syncwarp completed after it orders the access
    std::uint32_t read_lanes = 0;   // the lanes that read it in this interval, when all in warp read_warp
    std::uint16_t writer = 0;
    std::uint16_t reader = 0;
    std::uint16_t async_owner = 0xFFFF;  // the thread whose asynchronous copy into this word is in flight; no_copy: none
    std::uint16_t read_warp = 0;    // the readers' warp; mixed_warps when readers came from several
};
static_assert(sizeof(Shadow) == 32, "the shadow word stays small: the race check touches one per shared access");

constexpr std::uint16_t no_copy = 0xFFFF;
constexpr std::uint16_t mixed_warps = 0xFFFF;

struct SharedSite {
    const void* key;
    std::size_t offset;
    std::size_t bytes;
    const SharedDeclaration* declaration;
};

// One launch, as the workers see it.
struct LaunchState {
    const LaunchSite* site;
    dim3 grid;
    dim3 block;
    std::size_t dynamic_shared_bytes;
    const std::function<void()>* body;
    unsigned long long block_count;
    std::atomic<unsigned long long> next_block{0};
    std::atomic<bool> failed{false};
};

// Everything one worker thread needs to run blocks: fibers and their stacks, the block's shared memory and
// its shadow, and what is running now (read by threadIdx and friends, and by the fault handler).
struct Worker {
    StackPool stacks;
    std::vector<BlockThread> threads;
    ctx::fiber scheduler;
    BlockThread* current = nullptr;
    LaunchState* launch = nullptr;
    uint3 block_index{0, 0, 0};
    dim3 block_dim;
    dim3 grid_dim;

    unsigned char* arena = static_cast<unsigned char*>(std::aligned_alloc(256, arena_bytes));
    std::vector<Shadow> shadow = std::vector<Shadow>(arena_bytes / 4);
    std::vector<SharedSite> sites;
    std::size_t static_used = 0;
    std::size_t filled = 0;  // bytes of the static part that may hold a previous block's data
    std::uint32_t epoch = 0;
    unsigned long long shared_reads = 0;   // element accesses of the running block, added to the totals at its end
    unsigned long long shared_writes = 0;
    const char* epoch_file = nullptr;  // the barrier that began this interval; null: the block's start
    int epoch_line = 0;
    // The pipeline check's bookkeeping for the running block: bytes stored (by the kernel's own stores, not by the
    // asynchronous copies' issue and landing: async_copy_write), landed and overlapped; the intervals in which some
    // thread read shared memory (ascending); and the landed copies whose own thread read nothing while in flight.
    unsigned long long bytes_stored = 0, bytes_landed = 0, bytes_overlapped = 0;
    bool async_copy_write = false;
    std::vector<std::uint64_t> read_epochs;
    struct LandedCopy {
        std::uint16_t issuer;
        std::uint64_t issued, landed;  // the intervals of its issue and of its landing
        std::size_t bytes;
    };
    std::vector<LandedCopy> unjudged;
    std::uint32_t warp_syncs = 0;  // __syncwarp rendezvous completed by this worker, all blocks counted
    std::uint32_t block_first_sync = 0;  // the number of the running block's first __syncwarp; 0: none yet
    const char* epoch_name = "__syncthreads()";  // the function of that barrier

    Worker() { std::memset(arena, garbage_byte, arena_bytes); }
    ~Worker() { std::free(arena); }
};

thread_local Worker* running_worker = nullptr;
}  // namespace
namespace detail {
thread_local dim3 launch_block_dim;
thread_local dim3 launch_grid_dim;
}  // namespace detail
namespace {

uint3 unravel(unsigned long long linear, dim3 extent) {
    uint3 index;
    index.x = static_cast<unsigned>(linear % extent.x);
    linear /= extent.x;
    index.y = static_cast<unsigned>(linear % extent.y);
    index.z = static_cast<unsigned>(linear / extent.y);
    return index;
}

std::string format(uint3 v) {
    return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ")";
}

// "…/02_tiled/kernel.cu" -> "02_tiled/kernel.cu": enough to find the file, short enough to read.
std::string short_path(const char* file) {
    std::string path = file ? file : "?";
    std::size_t cut = path.rfind('/');
    if (cut != std::string::npos && cut > 0) cut = path.rfind('/', cut - 1);
    return cut == std::string::npos ? path : path.substr(cut + 1);
}

std::string where(const char* file, int line) { return short_path(file) + ":" + std::to_string(line); }

std::string kernel_and_block(const Worker& w) {
    return std::string(w.launch->site->kernel_name) + ", block " + format(w.block_index);
}

// "N_tile[3][4]" for the element of shared memory at byte offset @p offset.
std::string element_name(const Worker& w, std::size_t offset) {
    if (offset >= max_static_shared_bytes)
        return "dynamic shared memory (byte " + std::to_string(offset - max_static_shared_bytes) + ")";
    for (const SharedSite& site : w.sites) {
        if (offset < site.offset || offset >= site.offset + site.bytes) continue;
        const SharedDeclaration& d = *site.declaration;
        std::size_t element = (offset - site.offset) / d.element_bytes;
        std::size_t indices[4] = {0, 0, 0, 0};
        int rank = 0;
        while (rank < 4 && d.extents[rank] != 0) ++rank;
        for (int i = rank - 1; i >= 0; --i) {
            indices[i] = element % d.extents[i];
            element /= d.extents[i];
        }
        std::string name = d.name;
        for (int i = 0; i < rank; ++i) name += "[" + std::to_string(indices[i]) + "]";
        return name;
    }
    return "shared memory (byte " + std::to_string(offset) + ")";
}

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

void start_block(Worker& w) {
    std::memset(w.arena, garbage_byte, w.filled);
    if (w.launch->dynamic_shared_bytes > 0)
        std::memset(w.arena + max_static_shared_bytes, garbage_byte, w.launch->dynamic_shared_bytes);
    w.sites.clear();
    w.static_used = 0;
    ++w.epoch;
    w.epoch_file = nullptr;
    w.epoch_line = 0;
    w.epoch_name = "__syncthreads()";
    w.block_first_sync = 0;
}

// Ends the block's fibers, abandoning the threads that wait (after a report).
void abandon_block(Worker& w) {
    for (BlockThread& t : w.threads) {  // unwinds the waiting fibers
        w.current = &t;
        t.fiber = ctx::fiber();
    }
    w.current = nullptr;
}

// Once every thread of the block has stopped: lets the lanes that meet at a warp-level call go on (returns how
// many), or, when some wait for lanes that cannot come, reports it and ends the block (returns -1). 0: no thread
// waits at a warp-level call.
int settle_warp_calls(Worker& w) {
    bool any = false;
    for (const BlockThread& t : w.threads) any = any || t.state == ThreadState::warp_waiting;
    if (!any) return 0;
    std::vector<detail::WarpLane> lanes(w.threads.size());
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        const BlockThread& t = w.threads[i];
        using Where = detail::WarpLane::Where;
        lanes[i] = detail::WarpLane{t.state == ThreadState::warp_waiting ? Where::at_warp_call
                                    : t.state == ThreadState::waiting  ? Where::at_barrier
                                    : t.state == ThreadState::done     ? Where::returned
                                                                       : Where::running,
                                    t.warp, t.barrier_file, t.barrier_line, t.index, false};
    }
    if (detail::release_warp_calls(lanes) > 0) {
        const std::uint32_t sync = ++w.warp_syncs;
        if (w.block_first_sync == 0) w.block_first_sync = sync;
        for (std::size_t i = 0; i < lanes.size(); ++i) {
            if (!lanes[i].released) continue;
            BlockThread& t = w.threads[i];
            t.state = ThreadState::runnable;
            // __syncwarp orders memory between the lanes it names (CUDA Programming Guide): record the pairings.
            if (lanes[i].call->op == WarpOp::sync)
                for (unsigned lane = 0; lane < 32; ++lane)
                    if (lanes[i].group >> lane & 1u) t.synced_with[lane] = sync;
        }
        return 1;
    }
    if (!w.launch->failed.exchange(true))
        detail::set_kernel_error(cudaErrorTileLabBarrierDivergence,
                                 detail::warp_divergence_message(lanes, kernel_and_block(w)));
    abandon_block(w);
    return -1;
}

void run_block(Worker& w, unsigned long long linear_block) {
    LaunchState& launch = *w.launch;
    w.block_index = unravel(linear_block, launch.grid);
    start_block(w);
    const unsigned count = launch.block.x * launch.block.y * launch.block.z;
    w.threads.resize(count);
    for (unsigned i = 0; i < count; ++i) {
        BlockThread& t = w.threads[i];
        t.index = unravel(i, launch.block);
        t.id = static_cast<std::uint16_t>(i);
        t.state = ThreadState::runnable;
        t.barrier_file = nullptr;
        t.barrier_line = 0;
        t.barrier_name = "__syncthreads()";
        t.barrier_predicate = 0;
        t.barrier_count = 0;
        t.read_epoch = 0;
        t.write_epoch = 0;
        t.copies.clear();
        t.commits = 0;
        t.reads = 0;
        t.fiber = ctx::fiber(
            std::allocator_arg, StackAllocator{&w.stacks, &t.stack_guard}, [&w, &t](ctx::fiber&& scheduler) {
            w.scheduler = std::move(scheduler);
            try {
                (*w.launch->body)();
            } catch (const ctx::detail::forced_unwind&) {
                throw;  // the emulator abandoning this block: let Boost.Context unwind the fiber
            } catch (const detail::KernelAborted&) {
                // kernel_fault has recorded the error: this thread simply ends
            } catch (const std::exception& error) {
                if (!w.launch->failed.exchange(true))
                    detail::set_kernel_error(cudaErrorTileLabKernelException,
                                             "the kernel " + kernel_and_block(w) + ", thread " + format(t.index) +
                                                 " threw: " + error.what());
            }
            t.state = ThreadState::done;
            return std::move(w.scheduler);
        });
    }
    threads_run += count;

    for (;;) {
        for (BlockThread& t : w.threads) {
            if (t.state != ThreadState::runnable) continue;
            w.current = &t;
            t.fiber = std::move(t.fiber).resume();
            if (detail::watching_output()) detail::after_thread_segment(w.block_index, t.index);
        }
        w.current = nullptr;
        if (const int warps = settle_warp_calls(w); warps > 0)
            continue;
        else if (warps < 0)
            break;
        unsigned waiting = 0;
        int predicates = 0;  // threads that gave a nonzero predicate (barriers with a reduction)
        bool same_barrier = true;
        const BlockThread* first_waiting = nullptr;
        for (const BlockThread& t : w.threads) {
            if (t.state != ThreadState::waiting) continue;
            ++waiting;
            predicates += t.barrier_predicate != 0;
            if (!first_waiting)
                first_waiting = &t;
            else if (t.barrier_line != first_waiting->barrier_line ||
                     std::strcmp(t.barrier_file, first_waiting->barrier_file) != 0)
                same_barrier = false;
        }
        if (waiting == 0) break;
        if (waiting != count || !same_barrier) {
            report_divergence(w);
            for (BlockThread& t : w.threads) {  // unwinds the waiting fibers
                w.current = &t;
                t.fiber = ctx::fiber();
            }
            w.current = nullptr;
            break;
        }
        barriers_passed += waiting;
        ++w.epoch;
        w.epoch_file = first_waiting->barrier_file;
        w.epoch_line = first_waiting->barrier_line;
        w.epoch_name = first_waiting->barrier_name;
        for (BlockThread& t : w.threads) {
            t.state = ThreadState::runnable;
            t.barrier_count = predicates;
        }
    }
    // A landed copy whose own thread read nothing while it was in flight still ran ahead of the multiply-adds if
    // that thread never reads shared memory (a producer that only copies) and others read in the intervals it
    // spanned: they may run while it is in flight.
    for (const Worker::LandedCopy& copy : w.unjudged) {
        if (w.threads[copy.issuer].reads != 0) continue;
        const auto read = std::lower_bound(w.read_epochs.begin(), w.read_epochs.end(), copy.issued);
        if (read != w.read_epochs.end() && *read <= copy.landed) w.bytes_overlapped += copy.bytes;
    }
    w.unjudged.clear();
    w.read_epochs.clear();
    shared_bytes_stored += w.bytes_stored;
    async_bytes_landed += w.bytes_landed;
    async_bytes_overlapped += w.bytes_overlapped;
    w.bytes_stored = w.bytes_landed = w.bytes_overlapped = 0;
    for (BlockThread& t : w.threads) {  // copies never waited for: their words are free for the next block
        for (const detail::PendingCopy& copy : t.copies)
            for (std::size_t byte = 0; byte < copy.bytes; byte += 4)
                w.shadow[static_cast<std::size_t>(copy.destination + byte - w.arena) / 4].async_owner = no_copy;
        t.copies.clear();
    }
    detail::record_shared_bytes(launch.site->kernel, w.static_used);
    shared_reads += w.shared_reads;
    shared_writes += w.shared_writes;
    w.shared_reads = w.shared_writes = 0;
}

std::vector<std::unique_ptr<Worker>>& workers() {
    static std::vector<std::unique_ptr<Worker>> all = [] {
        std::vector<std::unique_ptr<Worker>> made;
        for (unsigned i = 0; i < worker_count(); ++i) made.push_back(std::make_unique<Worker>());
        return made;
    }();
    return all;
}

void work(Worker& w, LaunchState& launch) {
    running_worker = &w;
    w.launch = &launch;
    w.block_dim = launch.block;
    w.grid_dim = launch.grid;
    detail::launch_block_dim = launch.block;  // what blockDim and gridDim read (kernel_language.hpp)
    detail::launch_grid_dim = launch.grid;
    detail::prepare_thread_for_faults();
    for (;;) {
        const unsigned long long block = launch.next_block++;
        if (block >= launch.block_count || launch.failed) break;
        run_block(w, block);
    }
    w.launch = nullptr;
    running_worker = nullptr;
}

// What CUDA refuses at launch, with the error cudaGetLastError gives for it: too many threads in a block is
// cudaErrorInvalidValue (CUDA 13 on an H100, for a 48 x 48 block, 2026-11-22); a zero or too large dimension,
// cudaErrorInvalidConfiguration.
cudaError_t check_configuration(dim3 grid, dim3 block) {
    const unsigned long long threads = 1ull * block.x * block.y * block.z;
    if (threads == 0 || grid.x == 0 || grid.y == 0 || grid.z == 0) return cudaErrorInvalidConfiguration;
    if (threads > 1024 || block.x > 1024 || block.y > 1024 || block.z > 64) return cudaErrorInvalidValue;
    if (grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535) return cudaErrorInvalidConfiguration;
    return cudaSuccess;
}

}  // namespace

unsigned worker_count() {
    static const unsigned count = [] {
        if (const char* text = std::getenv("TILELAB_CPU_WORKERS")) {
            const int n = std::atoi(text);
            if (n > 0) return static_cast<unsigned>(n);
        }
        return std::max(1u, std::thread::hardware_concurrency());
    }();
    return count;
}

namespace {
std::atomic<LaunchObserver> launch_observer{nullptr};

// Whether the launch runs: the observer (observe_launches), if any, has seen it and did not hold it back.
bool observed_launch_runs(const LaunchSite& site, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes) {
    const LaunchObserver observer = launch_observer.load();
    return observer == nullptr || observer(LaunchRequest{site.kernel, grid, block, dynamic_shared_bytes});
}
}  // namespace

void observe_launches(LaunchObserver observer) noexcept { launch_observer.store(observer); }

void run_kernel(const LaunchSite& site, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes,
                std::function<void()> thread_body) {
    if (!observed_launch_runs(site, grid, block, dynamic_shared_bytes)) return;
    if (const cudaError_t refused = check_configuration(grid, block); refused != cudaSuccess) {
        detail::record_error(refused);
        return;
    }
    if (dynamic_shared_bytes > detail::max_dynamic_shared_bytes_of(site.kernel)) {
        detail::record_error(cudaErrorInvalidValue);  // past 48 KB without cudaFuncSetAttribute, as on a GPU
        return;
    }
    if (running_worker != nullptr) throw std::logic_error("a kernel launched another kernel: not supported");
    if (const cudaError_t lost = detail::sticky_error(); lost != cudaSuccess) {
        detail::record_error(lost);  // the context is lost: nothing runs in it any more
        return;
    }
    detail::enqueue_kernel(detail::QueuedKernel{site, grid, block, dynamic_shared_bytes, std::move(thread_body)});
}

bool points_to_device_memory(const void* pointer) noexcept {
    try {
        return detail::is_device_pointer(pointer);
    } catch (...) {
        return false;  // the registry's lock failed: the launch is refused rather than run on unknown memory
    }
}

namespace {

// "the stack of the host thread", "host memory ...": what a pointer that is not device memory most likely is.
const char* host_memory_kind(const void* pointer) {
    pthread_attr_t attributes;
    void* stack = nullptr;
    std::size_t stack_bytes = 0;
    bool on_stack = false;
    if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
        if (pthread_attr_getstack(&attributes, &stack, &stack_bytes) == 0)
            on_stack = pointer >= stack && pointer < static_cast<const char*>(stack) + stack_bytes;
        pthread_attr_destroy(&attributes);
    }
    return on_stack ? "a local variable on the host's stack"
                    : "host memory (a host array: new, malloc, a std::vector, a global) or no memory at all";
}

std::string type_name(const char* mangled) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> readable(abi::__cxa_demangle(mangled, nullptr, nullptr, &status), std::free);
    return status == 0 && readable ? readable.get() : mangled;
}

// Argument @p index of the argument list @p arguments as written ("d_M, d_N + 1, f(a, b)"), split at the commas
// outside brackets; empty when it cannot be told.
std::string written_argument(const char* arguments, std::size_t index) {
    if (arguments == nullptr) return {};
    std::vector<std::string> pieces(1);
    int depth = 0;
    for (const char* c = arguments; *c != '\0'; ++c) {
        if (*c == '(' || *c == '[' || *c == '{') ++depth;
        if (*c == ')' || *c == ']' || *c == '}') --depth;
        if (*c == ',' && depth == 0) {
            pieces.emplace_back();
            continue;
        }
        if (!(pieces.back().empty() && *c == ' ')) pieces.back() += *c;
    }
    while (!pieces.back().empty() && pieces.back().back() == ' ') pieces.back().pop_back();
    return index < pieces.size() ? pieces[index] : std::string();
}

}  // namespace

void refuse_host_pointer(const LaunchSite& site, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes,
                         std::size_t index, std::size_t count, const char* mangled_type, const void* pointer,
                         const char* arguments) {
    if (!observed_launch_runs(site, grid, block, dynamic_shared_bytes)) return;
    if (const cudaError_t refused = check_configuration(grid, block); refused != cudaSuccess) {
        detail::record_error(refused);  // a launch CUDA refuses is refused for that first, as run_kernel does
        return;
    }
    if (dynamic_shared_bytes > detail::max_dynamic_shared_bytes_of(site.kernel)) {
        detail::record_error(cudaErrorInvalidValue);  // past 48 KB without cudaFuncSetAttribute, as on a GPU
        return;
    }
    char address[32];
    std::snprintf(address, sizeof address, "%p", pointer);
    std::ostringstream message;
    message << "illegal memory access in the kernel " << site.kernel_name << " launched at "
            << where(site.file, site.line) << ": its argument " << index + 1 << " of " << count << " (";
    if (const std::string written = written_argument(arguments, index); !written.empty()) message << written << ", ";
    message << "a " << type_name(mangled_type) << ") is " << address << ", which is " << host_memory_kind(pointer)
            << ", not device memory from cudaMalloc (cudaErrorIllegalAddress: an illegal memory access was "
               "encountered; a GPU faults at the kernel's first access through it). The kernel did not run.\n"
               "  hint: a kernel can reach only device memory: cudaMalloc a buffer for each matrix, cudaMemcpy the "
               "host data into it (cudaMemcpyHostToDevice), pass the device pointers to the kernel, and cudaMemcpy "
               "the result back (cudaMemcpyDeviceToHost)";
    detail::set_kernel_error(cudaErrorIllegalAddress, message.str());
}

namespace detail {

void execute_kernel(const QueuedKernel& kernel) {
    install_fault_handler();
    const DeviceMemoryOpen device_memory_open;  // device buffers are reachable while the kernel runs, not after
    LaunchState launch;
    launch.site = &kernel.site;
    launch.grid = kernel.grid;
    launch.block = kernel.block;
    launch.dynamic_shared_bytes = kernel.dynamic_shared_bytes;
    launch.body = &kernel.body;
    launch.block_count = 1ull * kernel.grid.x * kernel.grid.y * kernel.grid.z;

    auto& pool = workers();
    // Under a watch of the output, one block at a time: the thread that just ran is the only one that wrote.
    const bool watched = detail::watching_output();
    if (watched) detail::note_watched_launch(kernel.grid, kernel.block);
    const unsigned helpers =
        watched ? 0u : static_cast<unsigned>(std::min<unsigned long long>(pool.size(), launch.block_count)) - 1;
    std::vector<std::thread> threads;
    for (unsigned i = 1; i <= helpers; ++i) threads.emplace_back([&, i] { work(*pool[i], launch); });
    work(*pool[0], launch);
    for (std::thread& t : threads) t.join();
    check_buffer_slack(kernel.site);  // a write just past the end of a buffer that the guard page did not stop
}

}  // namespace detail

const uint3& thread_index() noexcept { return running_worker->current->index; }
const uint3& block_index() noexcept { return running_worker->block_index; }
const dim3& block_dim() noexcept { return running_worker->block_dim; }
const dim3& grid_dim() noexcept { return running_worker->grid_dim; }

namespace {
// Parks the running thread at a barrier (@p name at @p file : @p line) giving @p predicate; returns how many
// threads of the block gave a nonzero one, once all have arrived.
int wait_at_barrier(Worker& w, int predicate, const char* name, const char* file, int line) {
    BlockThread& t = *w.current;
    t.state = ThreadState::waiting;
    t.barrier_file = file;
    t.barrier_line = line;
    t.barrier_name = name;
    t.barrier_predicate = predicate;
    w.scheduler = std::move(w.scheduler).resume();
    return t.barrier_count;
}
}  // namespace

void sync_threads(const char* file, int line) {
    Worker* w = running_worker;
    if (w == nullptr || w->current == nullptr) return;  // host code: nothing to wait for
    wait_at_barrier(*w, 0, "__syncthreads()", file, line);
}

int sync_threads_reduce(int predicate, BarrierReduction reduction, const char* name, const char* file, int line) {
    Worker* w = running_worker;
    const bool outside = w == nullptr || w->current == nullptr;  // host code: a block of one thread
    const int count = outside ? (predicate != 0) : wait_at_barrier(*w, predicate, name, file, line);
    const int threads = outside ? 1 : static_cast<int>(w->threads.size());
    switch (reduction) {
        case BarrierReduction::count: return count;
        case BarrierReduction::all: return count == threads ? 1 : 0;
        case BarrierReduction::any: return count > 0 ? 1 : 0;
    }
    return count;
}

void* block_shared_storage(const void* key, std::size_t bytes, std::size_t alignment,
                           const SharedDeclaration& declaration) {
    Worker* w = running_worker;
    if (w == nullptr || w->current == nullptr)
        throw std::logic_error(std::string("__shared__ variable ") + declaration.name + " used outside a kernel");
    for (const SharedSite& site : w->sites)
        if (site.key == key) return w->arena + site.offset;
    // At least 16-byte aligned, as a GPU places shared arrays, so that float4 accesses to a float tile can be.
    alignment = std::max<std::size_t>(alignment, 16);
    const std::size_t offset = (w->static_used + alignment - 1) / alignment * alignment;
    if (offset + bytes > max_static_shared_bytes)
        throw std::length_error("its __shared__ variables need " + std::to_string(offset + bytes) +
                                " bytes; a block may have at most 49152 bytes (48 KiB) of static shared memory");
    w->sites.push_back(SharedSite{key, offset, bytes, &declaration});
    w->static_used = offset + bytes;
    if (w->static_used > w->filled) {  // first use of these bytes by this worker: make them garbage too
        std::memset(w->arena + w->filled, garbage_byte, w->static_used - w->filled);
        w->filled = w->static_used;
    }
    return w->arena + offset;
}

void* dynamic_shared_storage(std::size_t) {
    Worker* w = running_worker;
    if (w == nullptr || w->current == nullptr) throw std::logic_error("extern __shared__ used outside a kernel");
    return w->arena + max_static_shared_bytes;
}

namespace {

// What a read by thread @p me in interval @p epoch leaves in a word's shadow: its reader, or many readers. Inline in
// note_shared_access's leaf too, which must make no call.
[[gnu::always_inline]] inline void record_read(Shadow& s, BlockThread& thread, std::uint16_t me, std::uint32_t epoch) {
    if (s.read_epoch != epoch) {
        s.read_epoch = epoch;
        s.reader = me;
    } else if (s.reader != me) {
        s.reader = many_readers;
    }
    thread.read_epoch = epoch;
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

namespace {

// Every shared access that the usual one below is not: a wide or straddling access, dynamic shared memory (which may
// lie past the launch's), a word an asynchronous copy still fills, a word another thread touched in this interval
// (a race, or a __syncwarp's ordering, to judge), a block that has completed a __syncwarp, a block's first read in
// an interval.
[[gnu::noinline]] void note_shared_access_in_general(Worker& w, std::size_t offset, std::size_t bytes,
                                                     bool write) noexcept {
    if (past_dynamic_shared(w, offset, write)) return;
    BlockThread& thread = *w.current;
    ++(write ? w.shared_writes : w.shared_reads);
    if (write) {
        if (!w.async_copy_write) w.bytes_stored += bytes;
    } else {
        ++thread.reads;
        if (w.read_epochs.empty() || w.read_epochs.back() != w.epoch) w.read_epochs.push_back(w.epoch);
    }
    if (w.block_first_sync == 0)
        note_words<false>(w, thread, offset, bytes, write);
    else
        note_words_warp_synced(w, thread, offset, bytes, write);
}

}  // namespace

void note_shared_access(const void* address, std::size_t bytes, bool write) noexcept {
    Worker* w = running_worker;
    if (w == nullptr || w->current == nullptr) return;
    const std::size_t offset = static_cast<std::size_t>(static_cast<const unsigned char*>(address) - w->arena);
    if (offset >= arena_bytes) return;
    // The usual access (a tile element read or stored), decided without a call so that this stays a leaf: one word
    // of static shared memory that no other thread touched in this interval and no copy fills, in a block without
    // __syncwarp. It records exactly what the general path would; anything else goes there untouched. A third of
    // the CPU backend's time was this function while it always took the general path.
    if (offset < max_static_shared_bytes && bytes != 0 && (offset & 3) + bytes <= 4 && w->block_first_sync == 0) {
        BlockThread& thread = *w->current;
        Shadow& s = w->shadow[offset / 4];
        const std::uint16_t me = thread.id;
        const std::uint32_t epoch = w->epoch;
        const bool no_other_writer = s.write_epoch != epoch || s.writer == me;
        if (s.async_owner == no_copy && no_other_writer) {
            if (write && (s.read_epoch != epoch || s.reader == me)) {
                ++w->shared_writes;
                if (!w->async_copy_write) w->bytes_stored += bytes;
                s.write_epoch = epoch;
                s.writer = me;
                thread.write_epoch = epoch;
                return;
            }
            if (!write && !w->read_epochs.empty() && w->read_epochs.back() == epoch) {
                ++w->shared_reads;
                ++thread.reads;
                record_read(s, thread, me, epoch);
                return;
            }
        }
    }
    note_shared_access_in_general(*w, offset, bytes, write);
}

namespace detail {

void kernel_fault(cudaError_t code, const std::string& what, const std::string& detail) {
    Worker* w = running_worker;
    char thread[256] = "";
    describe_running_thread(thread, sizeof thread);
    if (w == nullptr || w->launch == nullptr || !w->launch->failed.exchange(true))
        set_kernel_error(code, what + " " + thread + ": " + detail);
    throw KernelAborted{};
}

bool shared_offset_of(const void* address, std::size_t* offset) {
    const Worker* w = running_worker;
    if (w == nullptr || w->current == nullptr) return false;
    const auto* byte = static_cast<const unsigned char*>(address);
    if (byte < w->arena || byte >= w->arena + arena_bytes) return false;
    *offset = static_cast<std::size_t>(byte - w->arena);
    return true;
}

std::string shared_element_name(std::size_t offset) {
    return running_worker != nullptr ? element_name(*running_worker, offset) : std::string("shared memory");
}

std::size_t shared_array_start(std::size_t offset) {
    const Worker* w = running_worker;
    if (w == nullptr) return offset;
    if (offset >= max_static_shared_bytes) return max_static_shared_bytes;
    for (const SharedSite& site : w->sites)
        if (offset >= site.offset && offset < site.offset + site.bytes) return site.offset;
    return offset;
}

std::vector<PendingCopy>& running_thread_copies() { return running_worker->current->copies; }
std::uint64_t& running_thread_commits() { return running_worker->current->commits; }

void stamp_async_copy(PendingCopy& copy) {
    const Worker* w = running_worker;
    copy.issue_epoch = w->epoch;
    copy.reads_before = w->current->reads;
}

AsyncCopyWrite::AsyncCopyWrite() noexcept { running_worker->async_copy_write = true; }
AsyncCopyWrite::~AsyncCopyWrite() { running_worker->async_copy_write = false; }

void note_async_landed(const PendingCopy& copy) {
    Worker* w = running_worker;
    w->bytes_landed += copy.bytes;
    if (w->current->reads > copy.reads_before)  // its thread computed while it was in flight
        w->bytes_overlapped += copy.bytes;
    else
        w->unjudged.push_back(Worker::LandedCopy{w->current->id, copy.issue_epoch, w->epoch, copy.bytes});
}

void mark_async_pending(std::size_t offset, std::size_t bytes, bool pending) {
    Worker* w = running_worker;
    for (std::size_t byte = offset & ~std::size_t{3}; byte < offset + bytes && byte < arena_bytes; byte += 4) {
        Shadow& s = w->shadow[byte / 4];
        s.async_owner = pending ? w->current->id : no_copy;
    }
}

}  // namespace detail

std::uint64_t warp_call(WarpCall call) {
    Worker* w = running_worker;
    if (w == nullptr || w->current == nullptr) {  // host code: a warp of one lane
        return call.op == WarpOp::ballot ? (call.value != 0) : call.op == WarpOp::sync ? 0 : call.value;
    }
    BlockThread& t = *w->current;
    t.state = ThreadState::warp_waiting;
    t.warp = &call;
    w->scheduler = std::move(w->scheduler).resume();
    t.warp = nullptr;
    return call.result;
}

unsigned active_lanes() noexcept {
    const Worker* w = running_worker;
    if (w == nullptr || w->current == nullptr) return 1;
    const std::size_t first = w->current->id / 32u * 32u;
    const std::size_t n = std::min<std::size_t>(32, w->threads.size() - first);
    return n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1u;
}

bool is_block_shared_address(const void* address) noexcept {
    std::size_t offset = 0;
    return detail::shared_offset_of(address, &offset);
}

void note_shared_atomic(const void* address, std::size_t bytes) noexcept {
    Worker* w = running_worker;
    if (w == nullptr || w->current == nullptr) return;
    const std::size_t offset = static_cast<std::size_t>(static_cast<const unsigned char*>(address) - w->arena);
    if (offset >= arena_bytes) return;
    if (past_dynamic_shared(*w, offset, true)) return;
    BlockThread& thread = *w->current;
    ++w->shared_writes;
    const std::uint16_t me = thread.id;
    const std::uint32_t epoch = w->epoch;
    for (std::size_t byte = offset & ~std::size_t{3}; byte < std::min(offset + bytes, arena_bytes); byte += 4) {
        Shadow& s = w->shadow[byte / 4];
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

EmulatorStats stats() noexcept {
    return EmulatorStats{threads_run.load(),           barriers_passed.load(),    shared_reads.load(),
                         shared_writes.load(),         shared_bytes_stored.load(),  async_bytes_landed.load(),
                         async_bytes_overlapped.load()};
}

namespace detail {

std::size_t describe_running_thread(char* text, std::size_t size) {
    const Worker* w = running_worker;
    if (w == nullptr || w->current == nullptr || w->launch == nullptr) return 0;
    const uint3 b = w->block_index;
    const uint3 t = w->current->index;
    const int written = std::snprintf(text, size, "in the kernel %s, block (%u, %u, %u), thread (%u, %u, %u)",
                                      w->launch->site->kernel_name, b.x, b.y, b.z, t.x, t.y, t.z);
    return written > 0 ? static_cast<std::size_t>(written) : 0;
}

bool is_stack_overflow(const void* address, const void* stack_pointer) {
    const Worker* w = running_worker;
    if (w == nullptr || w->current == nullptr || w->current->stack_guard == nullptr) return false;
    const unsigned char* guard = w->current->stack_guard;
    const unsigned char* usable = guard + page_bytes();  // the lowest byte the fiber may use
    const auto* touched = static_cast<const unsigned char*>(address);
    if (touched >= guard && touched < usable) return true;
    // A frame larger than the stack moves the stack pointer past the guard, and its first access may land anywhere
    // below; a stack pointer far below (more than 16 MiB) is on no fiber's stack (the worker's own code faulted).
    const auto* sp = static_cast<const unsigned char*>(stack_pointer);
    constexpr std::size_t far_below = std::size_t{16} << 20;
    return sp != nullptr && sp < usable && static_cast<std::size_t>(usable - sp) <= far_below;
}

void prepare_thread_for_faults() {
    static thread_local bool done = false;
    if (done) return;
    done = true;
    constexpr std::size_t bytes = 64 * 1024;
    stack_t alternate{};
    static thread_local std::unique_ptr<char[]> memory(new char[bytes]);
    alternate.ss_sp = memory.get();
    alternate.ss_size = bytes;
    sigaltstack(&alternate, nullptr);
}

}  // namespace detail

}  // namespace tilelab::cpu
