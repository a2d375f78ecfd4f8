/// @file emulator.hpp
/// @brief The CPU backend's emulator: runs a kernel's blocks on worker threads and each CUDA thread of a
/// block as a fiber, switching fibers at __syncthreads(), and checks what a GPU would leave undefined.
///
/// Each block starts with shared memory filled with a NaN pattern and runs its threads in order until each
/// reaches a barrier or returns. At each barrier the emulator checks that every thread of the block waits at
/// the same __syncthreads() (barrier divergence otherwise), and it tracks every shared-memory access between
/// barriers: two threads touching one element, one of them writing, is a race (a barrier is missing).
#pragma once

#include <cuda_runtime_api.h>
#include <tilelab/cpu/operand_probe.hpp>
#include <tilelab/cpu/past_end.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace tilelab::cpu {

/// Where a launch is in the student's source, and what it launches.
struct LaunchSite {
    const void* kernel;       ///< The kernel function (key for cudaFuncGetAttributes).
    const char* kernel_name;  ///< As written in the launch, e.g. "matmul_tiled_kernel".
    const char* file;         ///< Source file of the launch.
    int line;                 ///< Line of the launch.
};

/// Launches: checks the configuration (a refused launch goes to cudaGetLastError) and queues the kernel, which
/// runs @p thread_body once per thread of @p grid × @p block, as described above, when the host next waits for
/// the device (a synchronise, a blocking copy); what goes wrong while it runs goes to that call. @p thread_body
/// owns the launch's arguments.
void run_kernel(const LaunchSite& site, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes,
                std::function<void()> thread_body);

/// @name Observed launches (the kit's runner: what a lab's launcher gives the lab's kernel)
/// @{

/// A launch as it was asked for, before the runtime checked it.
struct LaunchRequest {
    const void* kernel;                ///< The kernel launched (LaunchSite::kernel).
    dim3 grid;                         ///< Its grid ...
    dim3 block;                        ///< ... its block ...
    std::size_t dynamic_shared_bytes;  ///< ... and its dynamic shared memory (the third argument of <<< >>>).
};

/// Sees each launch as it is asked for; returns false for a launch that must not run (it then does nothing, and
/// the launch succeeds).
using LaunchObserver = bool (*)(const LaunchRequest& request);

/// Makes @p observer see every launch from now on (null: none). Called only by the kit's runner
/// (grader/runner/launch_record.cpp), which learns from the lab's launcher what the kit's own launch of the lab's
/// kernel gives it; student code may not name it (source_policy.cpp).
void observe_launches(LaunchObserver observer) noexcept;
/// @}

/// True when @p pointer may be given to a kernel: null, or memory from cudaMalloc (its guard zones included, so
/// that an index past either end still faults with the buffer named).
bool points_to_device_memory(const void* pointer) noexcept;

/// A launch whose argument @p index (from 0, of @p count) is a pointer, of the type whose typeid name is
/// @p mangled_type, to host memory: refused as a GPU would fail it, with cudaErrorIllegalAddress from the next
/// synchronising call (a lost context: every later call returns it), and a message naming the kernel, the launch,
/// the argument (as written in @p arguments, the launch's argument list, when known) and what the pointer is. A
/// launch with a wrong configuration is refused for that instead, as run_kernel would. Nothing runs.
void refuse_host_pointer(const LaunchSite& site, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes,
                         std::size_t index, std::size_t count, const char* mangled_type, const void* pointer,
                         const char* arguments = nullptr);

/// The coordinates of the calling CUDA thread (valid inside a kernel only).
const uint3& thread_index() noexcept;
const uint3& block_index() noexcept;
const dim3& block_dim() noexcept;
const dim3& grid_dim() noexcept;

/// __syncthreads(): waits until every thread of the block has reached this barrier. @p file and @p line
/// identify the call, so that threads waiting at different barriers can be reported.
void sync_threads(const char* file, int line);

/// What a barrier with a block-wide reduction returns to every thread (__syncthreads_count, _and, _or).
enum class BarrierReduction {
    count,  ///< How many threads gave a nonzero predicate.
    all,    ///< 1 when every thread did, else 0.
    any,    ///< 1 when some thread did, else 0.
};

/// __syncthreads_count(predicate), __syncthreads_and, __syncthreads_or: a __syncthreads() (checked the same way,
/// reported as @p name at @p file : @p line) at which each thread gives @p predicate; returns @p reduction of the
/// predicates of all the block's threads, the same to each.
int sync_threads_reduce(int predicate, BarrierReduction reduction, const char* name, const char* file, int line);

/// One data member of a `__shared__` struct (of the twin the build declares it with), for messages:
/// "tiles.m[3][4]".
struct SharedMember {
    const char* name;           ///< The member's name.
    std::size_t offset;         ///< Bytes from the start of the struct.
    std::size_t bytes;          ///< Bytes of the whole member.
    std::size_t element_bytes;  ///< Bytes of one of its elements.
    std::size_t extents[4];     ///< Its array extents, outermost first (0 past the last).
};

/// One `__shared__` declaration: its name and how its bytes map to indices, for messages.
struct SharedDeclaration {
    const char* name;              ///< The variable's name.
    std::size_t element_bytes;     ///< Bytes of one element.
    std::size_t extents[4];        ///< Array extents, outermost first (0 past the last).
    const SharedMember* members = nullptr;  ///< An element's members, when it is a struct (else null) ...
    std::size_t member_count = 0;           ///< ... and how many.
};

/// Storage of a `__shared__` declaration in the running block: the same bytes for every thread of the block.
/// @p key is unique to the declaration; the first thread of the block to reach it allocates the bytes.
void* block_shared_storage(const void* key, std::size_t bytes, std::size_t alignment,
                           const SharedDeclaration& declaration);

/// Storage of `extern __shared__` arrays: the dynamic shared memory given in the launch configuration.
void* dynamic_shared_storage(std::size_t element_bytes);

/// Records a read (@p write false) or write of @p bytes of shared memory at @p address by the running thread,
/// and reports a race when another thread wrote it, or read it before this write, since the last barrier.
void note_shared_access(const void* address, std::size_t bytes, bool write) noexcept;
/// A read of @p bytes of device memory that no checked pointer made (a vector load, an asynchronous copy's source):
/// counted with the running block's global reads (EmulatorStats::global_words_read).
void note_global_read(std::size_t bytes) noexcept;

/// Makes the @p nth device allocation (cudaMalloc or cudaMallocManaged) from now on fail with cudaErrorMemoryAllocation, as a full GPU would (0: none),
/// so that lab 04's error path can be tried at each of its allocations.
void fail_nth_allocation(int nth) noexcept;

/// @name Scaled shared stores (the shared-memory check, grader/checks/shared_memory_check.cpp)
/// @{

/// From now on, every floating-point value a kernel stores into shared memory (an element's assignment, a vector
/// store, an asynchronous copy landing, a shared atomic) is multiplied by @p scale before it lands; 1 turns it off.
/// A product computed from tiles of M and N then comes out scaled by scale², one computed from global memory does
/// not. Called only by the kit's runner, between launches; student code may not name it (source_policy.cpp).
void scale_shared_stores(float scale) noexcept;

namespace detail {
/// The factor of scale_shared_stores (1: off). Read inline on every shared store; written only between launches.
extern float shared_store_scale;

/// @p value as a store into shared memory lands: scaled when it is floating-point (or a float vector).
template <class T>
inline T scaled_for_shared(T value) noexcept {
    const float scale = shared_store_scale;
    if (scale == 1.0f) return value;
    if (operand_probe_on) {  // the technique checks' probe (operand_probe.hpp) in place of a scale
        if constexpr (std::is_same_v<T, float>) {
            return probe_shared_store(value);
        } else if constexpr (std::is_same_v<T, float2> || std::is_same_v<T, float4>) {
            probe_shared_words_stored(&value, sizeof value);
            return value;
        } else {
            return value;
        }
    }
    if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(value * static_cast<T>(scale));
    } else if constexpr (std::is_same_v<T, float2>) {
        return T{value.x * scale, value.y * scale};
    } else if constexpr (std::is_same_v<T, float4>) {
        return T{value.x * scale, value.y * scale, value.z * scale, value.w * scale};
    } else {
        return value;
    }
}

/// Scales @p bytes of float words at @p words (a vector store or an asynchronous copy into shared memory).
void scale_shared_words(void* words, std::size_t bytes) noexcept;
}  // namespace detail
/// @}

/// Statistics of the emulator since the process started, for the benchmark.
struct EmulatorStats {
    unsigned long long threads_run;     ///< CUDA threads run.
    unsigned long long barriers_passed; ///< Barrier arrivals (threads × barriers).
    unsigned long long shared_reads;    ///< Reads of a shared-memory element (by the blocks that have ended).
    unsigned long long shared_writes;   ///< Writes of a shared-memory element (likewise).
    /// Bytes the kernel's own stores wrote into shared memory (likewise; asynchronous copies' not included).
    unsigned long long shared_bytes_stored;
    /// Bytes that asynchronous copies (__pipeline_memcpy_async) landed in shared memory at their thread's wait.
    unsigned long long async_bytes_landed;
    /// Those of async_bytes_landed whose copy was in flight while the block computed: its thread read shared memory
    /// between issuing it and waiting for it (a thread that only copies: another thread read meanwhile). The copies
    /// of the next phase run ahead of this phase's multiply-adds (the pipeline check).
    unsigned long long async_bytes_overlapped;
    /// Words the blocks that have ended read from device memory: through a kernel's checked pointers (M, N and P, and
    /// their copies), by vector loads and as asynchronous copies' sources. A kernel's reads depend on the shape, not
    /// on the values it reads (the shared-memory check compares two runs).
    unsigned long long global_words_read;
};
EmulatorStats stats() noexcept;

/// @name Watched output: which CUDA thread wrote each element of a buffer (the work-spread check)
/// @{

/// One element of the watched buffer changed by one CUDA thread: the element's index (4-byte words from the start),
/// the writer's block and thread, each as a linear index (x fastest, as CUDA numbers them).
struct OutputWrite {
    std::uint32_t element;  ///< Index of the 4-byte element in the watched buffer.
    std::uint32_t block;    ///< blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z).
    std::uint32_t thread;   ///< threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z).
};

/// What a watch saw: the last launch's configuration and every (element, writer) change, in order.
struct WatchedWrites {
    dim3 grid{0, 0, 0};               ///< Grid of the last kernel run while watching.
    dim3 block{0, 0, 0};              ///< Its block.
    unsigned launches = 0;            ///< Kernels run while watching.
    bool overflow = false;            ///< More changes than the watch keeps (see watch_output): writes is cut short.
    std::vector<OutputWrite> writes;  ///< One entry per element and thread that changed it (a thread's repeated
                                      ///< changes to an element it changed last are one entry).
};

/// Starts watching @p bytes at @p begin (a device buffer of 4-byte elements, poisoned so that any store changes
/// it): until stop_watching_output(), kernels run one block at a time, and after each run segment of a CUDA thread
/// (up to a barrier or its end) the emulator compares the buffer with its copy from before the segment and records
/// each changed element against that thread. Keeps at most 4 entries per element (then sets overflow).
void watch_output(const void* begin, std::size_t bytes);
/// Stops the watch and returns what it saw.
WatchedWrites stop_watching_output();
/// @}

/// Worker threads that run blocks at once (TILELAB_CPU_WORKERS, else the machine's hardware threads).
unsigned worker_count();

}  // namespace tilelab::cpu
