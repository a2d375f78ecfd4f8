// What the emulator's parts share: the runtime's error state, the device-memory registry, and the shared-memory
// sizes kernels were seen to use. Internal to the CPU backend.
#pragma once

#include <cuda_runtime_api.h>
#include <tilelab/cpu/emulator.hpp>
#include <tilelab/cpu/runtime_trace.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tilelab::cpu::detail {

/// A launch or call the emulator refused: @p code becomes the last error (returned by the next cudaGetLastError,
/// as on a GPU). Returns @p code, for the call to return.
cudaError_t record_error(cudaError_t code);
/// Something that went wrong while a kernel ran: returned by the next synchronising call. The first one wins.
void set_kernel_error(cudaError_t code, const std::string& message);
/// The pending kernel error, if any, handed over to cudaGetLastError as well.
cudaError_t take_kernel_error();
/// The message of the last emulator-specific error with this code (races, barriers, exceptions).
const char* kernel_error_message(cudaError_t code);

/// A launch the runtime accepted, waiting in the stream for the host to synchronise.
struct QueuedKernel {
    LaunchSite site;                  ///< What is launched, and where.
    dim3 grid;                        ///< Blocks.
    dim3 block;                       ///< Threads per block.
    std::size_t dynamic_shared_bytes; ///< extern __shared__ bytes.
    std::function<void()> body;       ///< One CUDA thread's work, with the launch's arguments.
};

/// An asynchronous copy between device memory and pinned host memory, waiting in the stream (streams.cpp).
struct QueuedCopy {
    void* destination;    ///< Where it lands.
    const void* source;   ///< What it copies, read when the copy runs (as a GPU's DMA reads it).
    std::size_t bytes;    ///< How much.
    cudaMemcpyKind kind;  ///< Its direction, as given.
};

/// Puts a launch at the end of the stream (device_queue.cpp).
void enqueue_kernel(QueuedKernel kernel);
/// Puts an asynchronous copy at the end of the stream.
void enqueue_copy(QueuedCopy copy);
/// cudaErrorInvalidValue when a copy of @p bytes from @p source to @p destination in direction @p kind would not
/// lie inside its device buffers (or the direction is unknown); cudaSuccess otherwise (device_memory.cpp).
cudaError_t check_copy(void* destination, const void* source, std::size_t bytes, cudaMemcpyKind kind);
/// Makes a checked copy now, opening the device buffers it touches, and traces it.
void copy_now(void* destination, const void* source, std::size_t bytes, cudaMemcpyKind kind);
/// Runs everything queued: what a synchronising call does first.
void drain_queue();
/// True when nothing is queued (streams.cpp: cudaStreamQuery).
bool queue_is_empty();
/// Frees @p pointer when cudaMallocManaged (or cudaMallocHost) gave it, as cudaFree does; false otherwise.
bool free_host_allocation(void* pointer);
/// Forgets what is queued (cudaDeviceReset).
void discard_queue();
/// Runs one launch, block by block (scheduler.cpp).
void execute_kernel(const QueuedKernel& kernel);

/// The machine's page size: device buffers and fiber stacks are bounded by inaccessible pages.
std::size_t page_bytes();

/// Static shared memory a kernel used in its launches (the most over all its blocks).
void record_shared_bytes(const void* kernel, std::size_t bytes);
/// The bytes recorded for @p kernel; false when it was never launched.
bool shared_bytes_of(const void* kernel, std::size_t* bytes);

/// Dynamic shared memory a launch may ask for until the kernel opts in to more: 48 KB, as on every GPU.
inline constexpr std::size_t default_dynamic_shared_bytes = 48 * 1024;
/// Shared memory (static and dynamic together) a block may have once its kernel opts in: 227 KB, an H100's.
inline constexpr std::size_t optin_shared_bytes = 227 * 1024;
/// The most dynamic shared memory a launch of @p kernel may ask for: default_dynamic_shared_bytes, unless
/// cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, ...) set another.
std::size_t max_dynamic_shared_bytes_of(const void* kernel);
/// Forgets what cudaFuncSetAttribute set (cudaDeviceReset: a new context starts with the defaults).
void reset_kernel_attributes();

/// What a faulting address is, in words, when it lies next to or inside a device allocation, or up to 1 MiB past the
/// end of one (an overrun that faulted beyond the guard page); empty otherwise.
/// A buffer the kit's runner named (tilelab/cpu/named_matrices.hpp) is described as an element of its matrix. Notes
/// the fault's site (take_fault_site), @p access as the handler knows it (1 a write, 0 a read, -1 not known).
/// Called from the fault handler: takes no lock and allocates nothing.
bool describe_device_address(const void* address, int access, char* text, std::size_t size);
/// Where @p address lies in the named matrix of its device buffer (tilelab/matrix_element.hpp's words); false where
/// it is in no device buffer or one with no name. Takes the registry's lock.
bool describe_named_element(const void* address, char* text, std::size_t size);
/// Whether @p bytes at @p address lie inside the kit's M or N (the matrices the runner named), or in a device buffer
/// nobody named: what a 16-byte load must read to count as one of the operands' (a value parked in P and loaded
/// from there is not). Takes the registry's lock.
bool in_kit_operand(const void* address, std::size_t bytes);
/// Notes an out-of-bounds access at @p address (a @p write or a read) that a kernel check found, as the fault's site
/// (take_fault_site), unless one is noted already. Takes the registry's lock.
void note_fault_site(const void* address, bool write);
/// The device allocation whose buffer or guard pages hold @p address: its first byte and size; false for none.
bool device_allocation_of(const void* address, const unsigned char** start, std::size_t* bytes);
/// Reports a write by the kernel launched at @p site into the bytes around a device buffer (its pages' bytes
/// before its start and after its end, which hold past_end_poison_bits) as the kernel's cudaErrorIllegalAddress,
/// naming the buffer and the element, and poisons those bytes again. Called when a kernel ends, with device
/// memory open.
void check_buffer_slack(const LaunchSite& site);
/// True when [pointer, pointer + bytes) lies inside one device allocation.
bool is_device_range(const void* pointer, std::size_t bytes);

/// @name The watched output (output_watch.cpp; see watch_output)
/// @{

/// True while a watch is on: the scheduler then runs one block at a time and calls after_thread_segment.
bool watching_output() noexcept;
/// A kernel starts under the watch: its configuration, for the record.
void note_watched_launch(dim3 grid, dim3 block);
/// The CUDA thread @p thread of block @p block_index has just run up to a barrier or its end: records every
/// element of the watched buffer it changed.
void after_thread_segment(const uint3& block_index, const uint3& thread);
/// @}

/// @name Device memory closed to host code (device_memory.cpp)
/// Device buffers' pages are inaccessible while host code runs, so that a device pointer dereferenced on the host
/// faults as it does on a GPU; they open while kernels run and inside the runtime's copies and fills.
/// @{

/// Opens every device buffer for the lifetime of the object (a kernel's run); nests.
class DeviceMemoryOpen {
public:
    DeviceMemoryOpen();
    ~DeviceMemoryOpen();
    DeviceMemoryOpen(const DeviceMemoryOpen&) = delete;
    DeviceMemoryOpen& operator=(const DeviceMemoryOpen&) = delete;
};
/// What a fault at @p address by host code is, in words, when it lies in a device buffer's payload (not its
/// guards); false otherwise. Notes the fault's site as describe_device_address does, for @p access. Called from the
/// fault handler: takes no lock and allocates nothing.
bool describe_host_access(const void* address, int access, char* text, std::size_t size);
/// True when @p pointer is null or lies in a device allocation, its guard zones included: what a kernel may be
/// given.
bool is_device_pointer(const void* pointer);
/// True when @p pointer lies in pinned or managed host memory (cudaMallocHost, cudaHostAlloc, cudaMallocManaged,
/// streams.cpp), which a GPU's kernels reach too (mapped and unified memory): a kernel may be given it.
bool is_kernel_reachable_host_memory(const void* pointer);
/// True when [pointer, pointer + bytes) lies inside one pinned or managed allocation: the device side of a copy or
/// memset may be there, as a GPU's runtime lets it (it reaches that memory as the kernels do).
bool is_kernel_reachable_host_range(const void* pointer, std::size_t bytes);
/// Takes @p bytes of the emulated device's memory for a managed allocation (which a GPU backs with its own memory
/// once kernels touch it): fails as cudaMalloc does, on the allocation the runner made to fail (fail_nth_allocation),
/// past the device's size, or after a kernel's fault; counted by cudaMemGetInfo until release_device_bytes.
cudaError_t reserve_device_bytes(std::size_t bytes);
/// Gives back what reserve_device_bytes took.
void release_device_bytes(std::size_t bytes);
/// @}

/// The error that a fault in a kernel leaves behind (cudaErrorIllegalAddress, cudaErrorMisalignedAddress): every
/// later synchronising call, allocation or fill returns it, as a lost CUDA context does, until cudaDeviceReset.
/// cudaSuccess when none.
cudaError_t sticky_error();
/// Forgets the sticky error (cudaDeviceReset).
void clear_sticky_error();

/// Installs the handler that turns a fault in a kernel into a message and a failed test (once per process).
void install_fault_handler();
/// Gives the calling thread an alternate signal stack, so a fault on a fiber's stack can still be reported.
void prepare_thread_for_faults();
/// What the fault handler says about the running kernel thread, or nothing outside a kernel.
std::size_t describe_running_thread(char* text, std::size_t size);
/// True when a fault at @p address, with the faulting thread's stack pointer at @p stack_pointer (null: unknown), is
/// the running kernel thread overflowing its own fiber stack: the access hit that stack's guard page, or the stack
/// pointer has gone below it. A wild pointer into another thread's guard page is not an overflow.
bool is_stack_overflow(const void* address, const void* stack_pointer);

/// @name The runtime trace and the device's clock (runtime_trace.cpp)
/// @{

/// An allocation that succeeded (@p address) or failed (null): a cudaMalloc, or (@p kind) a cudaMallocManaged or a
/// pinned host allocation, which lab 04's checker tells apart (kernels reach all three; only the first is the GPU's).
void trace_allocation(const void* address, std::size_t bytes,
                      TraceEntry::Kind kind = TraceEntry::Kind::allocation);
/// A cudaFree (or cudaFreeHost).
void trace_release(const void* address);
/// A copy or memset the stream carried out (@p kind copy or memset): advances the device's clock by its duration.
void trace_copy(TraceEntry::Kind kind, const void* destination, const void* source, std::size_t bytes,
                std::uint32_t detail);
/// A kernel the stream ran: advances the device's clock by its emulated duration.
void trace_kernel(const void* kernel, dim3 grid, dim3 block);
/// An event record the stream reached: returns the device's clock, the event's time.
std::uint64_t trace_event(const void* event);
/// @}

/// @name The running CUDA thread's shared memory, for vector accesses and asynchronous copies (scheduler.cpp)
/// @{

/// Thrown to end the running CUDA thread after kernel_fault has recorded the kernel's error.
struct KernelAborted {};

/// Records @p code as the kernel's error, with the message "@p what in the kernel K, block B, thread T: @p detail"
/// (the first error of a launch wins), and ends the running CUDA thread (throws KernelAborted).
[[noreturn]] void kernel_fault(cudaError_t code, const std::string& what, const std::string& detail);

/// The byte offset of @p address in the running block's shared memory; false outside it or outside a kernel.
bool shared_offset_of(const void* address, std::size_t* offset);
/// True when the word at byte @p offset of the running block's shared memory was last stored by another thread of
/// the block (a plain or vector store, an atomic, an asynchronous copy it issued): a read of it shares data.
bool shared_word_stored_by_other(std::size_t offset) noexcept;
/// "M_tile[3][4]": the element of the running block's shared memory at byte @p offset.
std::string shared_element_name(std::size_t offset);
/// The byte offset at which the `__shared__` array holding byte @p offset of the running block's shared memory starts
/// (the extern __shared__ array's start in dynamic shared memory); @p offset itself when no declaration holds it.
std::size_t shared_array_start(std::size_t offset);

/// A warp matrix function (<mma.h>, wmma.cpp) making its memory accesses, named in a race they run into.
struct MatrixCallSite {
    const char* name;  ///< "load_matrix_sync", ...
    const char* file;  ///< Where it was called.
    int line;          ///< Its line in file.
};
/// The warp matrix function whose accesses the running CUDA thread is making now; null outside one.
extern thread_local const MatrixCallSite* running_matrix_call;

/// An asynchronous copy issued by a CUDA thread that has not landed yet (async_copy.cpp).
struct PendingCopy {
    unsigned char* destination;  ///< In the block's shared memory.
    unsigned char data[16];      ///< The source's bytes, read when the copy was issued (zero-filled tail included).
    std::size_t bytes;           ///< 4, 8 or 16.
    std::uint64_t batch;         ///< The batch it belongs to (the issuing thread's commits before it).
    const char* file;            ///< Where it was issued.
    int line;                    ///< Its line in file.
    std::uint64_t issue_epoch = 0;   ///< The block's barrier interval when it was issued (stamp_async_copy).
    std::uint64_t reads_before = 0;  ///< Its thread's reads of copied data by then (running_thread_reads).
    const char* call = "__pipeline_memcpy_async";            ///< The call that issued it, for a race report.
    const char* wait = "__pipeline_wait_prior() for that copy's batch";  ///< What lands it, for the same.
};
/// Stamps @p copy, issued by the running CUDA thread, with the block's interval and that thread's reads so far: at
/// its landing the pipeline check asks whether the block computed while it was in flight (note_async_landed).
void stamp_async_copy(PendingCopy& copy);
/// The running CUDA thread's reads so far of shared words that an asynchronous copy of its block filled (the
/// pipeline check and the operand probe judge a landing by them: computing from copied data, not polling a flag).
std::uint64_t running_thread_reads();
/// The running block's barrier interval: how many barriers it has passed (the operand probe's producer threads).
std::uint64_t running_block_epoch();
/// Counts @p copy, landing now at its thread's wait, into the pipeline check's bytes (EmulatorStats): landed, and
/// in flight while the block computed when its thread read shared memory since the issue (or, for a thread that
/// never reads shared memory, when another thread read in an interval the copy spanned, judged at the block's end).
void note_async_landed(const PendingCopy& copy);
/// While one lives, the running thread's shared-memory writes are an asynchronous copy's (its issue, its landing),
/// not the kernel's own stores: the pipeline check counts those apart (EmulatorStats::shared_bytes_stored).
struct AsyncCopyWrite {
    AsyncCopyWrite() noexcept;   ///< Marks the running thread's writes as a copy's.
    ~AsyncCopyWrite();           ///< Marks them as its own again.
    AsyncCopyWrite(const AsyncCopyWrite&) = delete;             ///< One scope, one mark.
    AsyncCopyWrite& operator=(const AsyncCopyWrite&) = delete;  ///< One scope, one mark.
};
/// The running CUDA thread's copies in flight, and its number of committed batches.
std::vector<PendingCopy>& running_thread_copies();
std::uint64_t& running_thread_commits();
/// Marks @p bytes of shared memory at byte @p offset as the target of the running thread's copy in flight
/// (@p pending true; reads and writes of it by any thread are then races) or as landed (false).
void mark_async_pending(std::size_t offset, std::size_t bytes, bool pending);
/// @}

}  // namespace tilelab::cpu::detail
