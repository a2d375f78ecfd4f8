// What the CPU backend's scheduler (scheduler.cpp), its race check (race_check.cpp) and its launch checks
// (launch_checks.cpp) share: a worker thread's state while it runs a block (its fibers, the block's shared memory
// and that memory's shadow), and the words of their messages. Internal to the CPU backend.
#pragma once

#include "runtime_state.hpp"

#include <tilelab/cpu/emulator.hpp>
#include <tilelab/cpu/warp.hpp>

#include <boost/context/fiber.hpp>
#include <sys/mman.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <new>
#include <string>
#include <vector>

namespace tilelab::cpu::scheduling {

namespace ctx = boost::context;

constexpr std::size_t max_static_shared_bytes = 48 * 1024;
constexpr std::size_t max_dynamic_shared_bytes = detail::optin_shared_bytes;  // the most any kernel may opt in to
constexpr std::size_t arena_bytes = max_static_shared_bytes + max_dynamic_shared_bytes;
constexpr std::size_t fiber_stack_bytes = 64 * 1024;
constexpr std::uint16_t many_readers = 0xFFFF;
constexpr int garbage_byte = fresh_memory_byte;  // fresh shared memory reads as NaN (floats) or -1 (ints)

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
    std::uint64_t landed_reads;               // ... of them, words an asynchronous copy of this block filled
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
    std::vector<unsigned long long> sample;  // the blocks run, when only some are (take_block_sample)
    unsigned long long blocks_to_run;        // block_count, or the sample's size
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
    // Per word: the interval in which an asynchronous copy last landed there, 0 once a plain store replaced it. A
    // read of a word landed in this block (at or after block_epoch) is a read of copied data: what the pipeline
    // check asks a thread to read while its copies are in flight (a flag it polls is no such word).
    std::vector<std::uint32_t> landed = std::vector<std::uint32_t>(arena_bytes / 4, 0);
    std::vector<SharedSite> sites;
    std::size_t static_used = 0;
    std::size_t filled = 0;  // bytes of the static part that may hold a previous block's data
    std::uint32_t epoch = 0;
    std::uint32_t block_epoch = 0;  // the running block's first interval: shadow words written before it are another block's
    unsigned long long shared_reads = 0;   // element accesses of the running block, added to the totals at its end
    unsigned long long shared_writes = 0;
    unsigned long long global_words_read = 0;  // words the running block read from device memory, likewise
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

/// The worker that runs blocks on this thread; null outside a kernel (host code).
extern thread_local Worker* running_worker;

/// The index, in a grid or block of @p extent, of the block or thread numbered @p linear (x fastest).
inline uint3 unravel(unsigned long long linear, dim3 extent) {
    uint3 index;
    index.x = static_cast<unsigned>(linear % extent.x);
    linear /= extent.x;
    index.y = static_cast<unsigned>(linear % extent.y);
    index.z = static_cast<unsigned>(linear / extent.y);
    return index;
}

/// "(x, y, z)".
inline std::string format(uint3 v) {
    return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ")";
}

/// "…/02_tiled/kernel.cu" -> "02_tiled/kernel.cu": enough to find the file, short enough to read.
inline std::string short_path(const char* file) {
    std::string path = file ? file : "?";
    std::size_t cut = path.rfind('/');
    if (cut != std::string::npos && cut > 0) cut = path.rfind('/', cut - 1);
    return cut == std::string::npos ? path : path.substr(cut + 1);
}

/// "02_tiled/kernel.cu:12".
inline std::string where(const char* file, int line) { return short_path(file) + ":" + std::to_string(line); }

/// "matmul_tiled, block (0, 1, 0)": the running launch's kernel and @p w's block, for messages.
inline std::string kernel_and_block(const Worker& w) {
    return std::string(w.launch->site->kernel_name) + ", block " + format(w.block_index);
}

/// What a read by thread @p me in interval @p epoch leaves in a word's shadow: its reader, or many readers. Inline
/// in note_shared_access's leaf too, which must make no call.
[[gnu::always_inline]] inline void record_read(Shadow& s, BlockThread& thread, std::uint16_t me, std::uint32_t epoch) {
    if (s.read_epoch != epoch) {
        s.read_epoch = epoch;
        s.reader = me;
    } else if (s.reader != me) {
        s.reader = many_readers;
    }
    thread.read_epoch = epoch;
}

// The race check (race_check.cpp).

/// "N_tile[3][4]" for the element of shared memory at byte offset @p offset of @p w's block.
std::string element_name(const Worker& w, std::size_t offset);
/// Reports that the threads of @p w's block stopped at different barriers (or some returned): the launch fails.
void report_divergence(Worker& w);
/// Notes a shared access that note_shared_access's usual path does not take (see there), and checks it for a race.
void note_shared_access_in_general(Worker& w, std::size_t offset, std::size_t bytes, bool write) noexcept;

}  // namespace tilelab::cpu::scheduling
