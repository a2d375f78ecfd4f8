// Runs kernels on the CPU: blocks spread over worker threads, each CUDA thread a fiber (Boost.Context), each
// block's fibers run in turn until every one has reached a barrier or returned. Its race check (race_check.cpp)
// notes every shared access as it goes, and its launch checks (launch_checks.cpp) come before a launch is queued
// (see tilelab/cpu/emulator.hpp).
#include <tilelab/cpu/emulator.hpp>

#include "runtime_state.hpp"
#include "scheduler_state.hpp"
#include "warp_rendezvous.hpp"

#include <tilelab/cpu/atomics.hpp>
#include <tilelab/cpu/operand_probe.hpp>
#include <tilelab/cpu/output_reads.hpp>

#include <boost/context/fiber.hpp>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

namespace tilelab::cpu {
namespace scheduling {
thread_local Worker* running_worker = nullptr;
}  // namespace scheduling
using namespace scheduling;
namespace detail {
thread_local dim3 launch_block_dim;
thread_local dim3 launch_grid_dim;
}  // namespace detail
namespace {

std::atomic<unsigned long long> threads_run{0};
std::atomic<unsigned long long> barriers_passed{0};
std::atomic<unsigned long long> shared_reads{0};
std::atomic<unsigned long long> shared_writes{0};
std::atomic<unsigned long long> global_words_read{0};
// How tiles reached shared memory (the pipeline check, EmulatorStats): bytes written by the kernel's own stores,
// bytes landed by asynchronous copies, and those of them in flight while the block computed.
std::atomic<unsigned long long> shared_bytes_stored{0};
std::atomic<unsigned long long> async_bytes_landed{0};
std::atomic<unsigned long long> async_bytes_overlapped{0};

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

// Shared memory a block has not written yet, @p bytes at @p offset of the worker's arena: bytes that read as NaN,
// or, while the technique checks' probe runs, finite values that differ from block to block, as a GPU's shared
// memory holds what earlier blocks left. A kernel that told the emulator from a GPU by reading shared memory it never
// wrote (NaN only here) then runs in the probe as it would on a GPU. The same in every run of a block, so that runs
// with and without the probe's replacements compare.
void fill_fresh_shared(Worker& w, std::size_t offset, std::size_t bytes) {
    if (!detail::operand_probe_on) {
        std::memset(w.arena + offset, garbage_byte, bytes);
        return;
    }
    const std::uint64_t block = w.block_index.x + 65536ull * (w.block_index.y + 65536ull * w.block_index.z);
    for (std::size_t word = offset / 4; word < (offset + bytes + 3) / 4 && 4 * word + 4 <= arena_bytes; ++word) {
        std::uint64_t bits = (block << 24 ^ word) * 0x9e3779b97f4a7c15ull;
        bits ^= bits >> 29;
        // A float in [-1, 1) of 23 random mantissa bits, exponent -1 to -8: plain finite data.
        const std::uint32_t value = static_cast<std::uint32_t>((bits >> 40) & 0x7fffffu) |
                                    (static_cast<std::uint32_t>(126 - ((bits >> 8) & 7u)) << 23) |
                                    (static_cast<std::uint32_t>(bits & 1u) << 31);
        std::memcpy(w.arena + 4 * word, &value, sizeof value);
    }
}

void start_block(Worker& w) {
    fill_fresh_shared(w, 0, w.filled);
    if (w.launch->dynamic_shared_bytes > 0)
        fill_fresh_shared(w, max_static_shared_bytes, w.launch->dynamic_shared_bytes);
    w.sites.clear();
    w.static_used = 0;
    ++w.epoch;
    w.block_epoch = w.epoch;
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
        t.landed_reads = 0;
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
        bool yielded = false;  // a thread that let the others run (yield_to_block) and is still runnable
        for (BlockThread& t : w.threads) {
            if (t.state != ThreadState::runnable) continue;
            w.current = &t;
            t.fiber = std::move(t.fiber).resume();
            if (detail::watching_output()) detail::after_thread_segment(w.block_index, t.index);
            yielded = yielded || t.state == ThreadState::runnable;
        }
        w.current = nullptr;
        if (yielded) continue;
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
    global_words_read += w.global_words_read;
    w.shared_reads = w.shared_writes = w.global_words_read = 0;
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
        const unsigned long long next = launch.next_block++;
        if (next >= launch.blocks_to_run || launch.failed) break;
        run_block(w, launch.sample.empty() ? next : launch.sample[next]);
    }
    if (detail::operand_probe_on) detail::flush_probe_counts();
    w.launch = nullptr;
    running_worker = nullptr;
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
    launch.sample = take_block_sample(launch.block_count);
    launch.blocks_to_run = launch.sample.empty() ? launch.block_count : launch.sample.size();

    auto& pool = workers();
    // Under a watch of the output, one block at a time: the thread that just ran is the only one that wrote.
    const bool watched = detail::watching_output();
    if (watched) detail::note_watched_launch(kernel.grid, kernel.block);
    const unsigned helpers =
        watched ? 0u : static_cast<unsigned>(std::min<unsigned long long>(pool.size(), launch.blocks_to_run)) - 1;
    std::vector<std::thread> threads;
    detail::output_launch_begins();
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

namespace detail {
void yield_to_block() {
    Worker* w = running_worker;
    if (w == nullptr || w->current == nullptr) return;  // host code: no other thread
    w->scheduler = std::move(w->scheduler).resume();
}
}  // namespace detail

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
        fill_fresh_shared(*w, w->filled, w->static_used - w->filled);
        w->filled = w->static_used;
    }
    return w->arena + offset;
}

void* dynamic_shared_storage(std::size_t) {
    Worker* w = running_worker;
    if (w == nullptr || w->current == nullptr) throw std::logic_error("extern __shared__ used outside a kernel");
    return w->arena + max_static_shared_bytes;
}

void note_global_read(std::size_t bytes) noexcept {
    Worker* w = running_worker;
    if (w != nullptr && w->current != nullptr) w->global_words_read += (bytes + 3) / 4;
}

void note_shared_access(const void* address, std::size_t bytes, bool write) noexcept {
    Worker* w = running_worker;
    if (w == nullptr || w->current == nullptr) return;
    const std::size_t offset = static_cast<std::size_t>(static_cast<const unsigned char*>(address) - w->arena);
    if (offset >= arena_bytes) {  // global memory, through a checked pointer: P is followed (output_reads.hpp)
        if (!write) w->global_words_read += (bytes + 3) / 4;
        if (detail::output_tracked)
            detail::note_output_access(address, bytes, write ? detail::OutputAccess::write : detail::OutputAccess::read);
        return;
    }
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
                if (!w->async_copy_write) {
                    w->bytes_stored += bytes;
                    w->landed[offset / 4] = 0;
                }
                s.write_epoch = epoch;
                s.writer = me;
                thread.write_epoch = epoch;
                return;
            }
            if (!write && !w->read_epochs.empty() && w->read_epochs.back() == epoch) {
                ++w->shared_reads;
                ++thread.reads;
                thread.landed_reads += w->landed[offset / 4] >= w->block_epoch;
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
    copy.reads_before = w->current->landed_reads;
}

std::uint64_t running_thread_reads() { return running_worker->current->landed_reads; }
std::uint64_t running_block_epoch() { return running_worker->epoch; }

AsyncCopyWrite::AsyncCopyWrite() noexcept { running_worker->async_copy_write = true; }
AsyncCopyWrite::~AsyncCopyWrite() { running_worker->async_copy_write = false; }

void note_async_landed(const PendingCopy& copy) {
    Worker* w = running_worker;
    w->bytes_landed += copy.bytes;
    if (w->current->landed_reads > copy.reads_before)  // its thread computed from copied data while it was in flight
        w->bytes_overlapped += copy.bytes;
    else
        w->unjudged.push_back(Worker::LandedCopy{w->current->id, copy.issue_epoch, w->epoch, copy.bytes});
}

void mark_async_pending(std::size_t offset, std::size_t bytes, bool pending) {
    Worker* w = running_worker;
    for (std::size_t byte = offset & ~std::size_t{3}; byte < offset + bytes && byte < arena_bytes; byte += 4) {
        Shadow& s = w->shadow[byte / 4];
        s.async_owner = pending ? w->current->id : no_copy;
        if (!pending) w->landed[byte / 4] = w->epoch;  // copied data from now on (until a plain store)
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

EmulatorStats stats() noexcept {
    return EmulatorStats{threads_run.load(),           barriers_passed.load(),    shared_reads.load(),
                         shared_writes.load(),         shared_bytes_stored.load(),  async_bytes_landed.load(),
                         async_bytes_overlapped.load(), global_words_read.load()};
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
