// Kernels for the CPU backend's own tests, in CUDA as a student writes it; the build rewrites this file as it
// rewrites a lab. Each launcher returns what the runtime reported: the launch's error, else the kernel's.
#include "emulator_kernels.hpp"
#include "launch_result.hpp"

#include <cuda_pipeline.h>

#include <cstddef>
#include <cstdint>

using tilelab::unit::launch_result;

namespace {

/// Reverses each block's slice of @p data through shared memory. With @p barrier false the second half of the
/// block reads elements the first half has not written yet (in one order) or already overwritten (in the other).
__global__ void reverse_kernel(float* data, bool barrier) {
    __shared__ float slice[256];
    const unsigned i = threadIdx.x;
    slice[i] = data[blockIdx.x * blockDim.x + i];
    if (barrier) __syncthreads();  // the slice is complete before any thread reads it
    data[blockIdx.x * blockDim.x + i] = slice[blockDim.x - 1 - i];
}

/// Threads with an even index wait at one barrier, the others at another.
__global__ void split_barrier_kernel(int* out) {
    if (threadIdx.x % 2 == 0) {
        __syncthreads();  // (wrong on purpose) only the even threads come here
    } else {
        __syncthreads();  // (wrong on purpose) only the odd threads come here
    }
    out[threadIdx.x] = 1;
}

/// Threads past @p active return at once; the others then wait at a barrier.
__global__ void early_return_kernel(int* out, unsigned active) {
    if (threadIdx.x >= active) return;
    __syncthreads();  // (wrong on purpose) the threads that returned never arrive
    out[threadIdx.x] = 1;
}

/// Reads one element past the end of @p data.
__global__ void read_past_end_kernel(const float* data, float* out, int count) {
    out[0] = data[count];
}

/// Recurses @p depth times with a 1 KiB frame each, far more stack than a CUDA thread has on the CPU backend.
__device__ int deep_frames(int depth) {
    volatile char frame[1024];
    frame[0] = static_cast<char>(depth);
    return depth == 0 ? 0 : deep_frames(depth - 1) + frame[0];
}

/// Overflows the thread's stack by recursing @p depth times.
__global__ void deep_recursion_kernel(int* out, int depth) { out[0] = deep_frames(depth); }

/// Thread 1 publishes the address of one of its locals; thread 0 reads downward from it, a page at a time, until it
/// reaches the inaccessible page below thread 1's stack: a wild read by thread 0, not its stack overflowing.
__global__ void read_other_stack_kernel(int* out) {
    __shared__ unsigned long long published;
    volatile int local = 1;
    if (threadIdx.x == 1) published = reinterpret_cast<unsigned long long>(&local);
    __syncthreads();  // thread 1 has published the address before thread 0 reads from it
    if (threadIdx.x == 0) {
        const volatile char* at = reinterpret_cast<const volatile char*>(published & ~0xFFFull);
        int sum = 0;
        for (int page = 0; page < 64; ++page) sum += at[-page * 4096];
        out[0] = sum;
    }
    __syncthreads();  // thread 1 (and so its stack) lives on while thread 0 reads
    out[1] = local;
}

/// Takes two pointers, and writes 1 to out[0] only when @p write: what a launch checks of its pointer arguments.
__global__ void pointers_kernel(const float* in, float* out, bool write) {
    if (write) out[0] = 1.0f + 0.0f * in[0];
}

/// Sums a block's values through the last blockDim.x ints of @p words ints of dynamic shared memory (so that a
/// large launch's far end is used), thread 0 writing the total.
__global__ void dynamic_tail_sum_kernel(const int* values, int* total, int words) {
    extern __shared__ int all[];
    auto tail = all + (words - static_cast<int>(blockDim.x));
    tail[threadIdx.x] = values[threadIdx.x];
    __syncthreads();  // every value is in place before thread 0 adds them
    if (threadIdx.x == 0) {
        int sum = 0;
        for (unsigned i = 0; i < blockDim.x; ++i) sum += tail[i];
        *total = sum;
    }
}

/// Sums a block's values through dynamic shared memory, thread 0 writing the total.
__global__ void dynamic_sum_kernel(const int* values, int* total) {
    extern __shared__ int partial[];
    partial[threadIdx.x] = values[threadIdx.x];
    __syncthreads();  // every partial value is in place before thread 0 adds them
    if (threadIdx.x == 0) {
        int sum = 0;
        for (unsigned i = 0; i < blockDim.x; ++i) sum += partial[i];
        *total = sum;
    }
}

template <int Width>
__global__ void fill_kernel(int* out) {
    out[(blockIdx.y * gridDim.x + blockIdx.x) * Width + threadIdx.x] = static_cast<int>(blockIdx.x + 10 * blockIdx.y);
}

/// An empty kernel with @p barriers barriers, for the benchmark.
__global__ void barriers_kernel(int barriers) {
    for (int i = 0; i < barriers; ++i) __syncthreads();  // nothing to protect: this measures the barrier
}

/// Copies @p count floats (a multiple of 4 times the block size) from @p in at float @p offset to @p out, four at
/// a time through a float4 tile in shared memory, each thread its own vector, written in reverse order; the
/// template, __restrict__, __launch_bounds__ and #pragma unroll are there to be accepted.
template <int Threads>
__global__ void __launch_bounds__(Threads) vector_reverse_kernel(const float* __restrict__ in, float* __restrict__ out,
                                                                 int offset) {
    __shared__ __align__(16) float tile[Threads * 4];
    const float4* in4 = reinterpret_cast<const float4*>(in + offset);
    const int t = threadIdx.x;
    reinterpret_cast<float4*>(&tile[t * 4])[0] = in4[blockIdx.x * Threads + t];
    __syncthreads();  // the tile is complete before threads read each other's vectors
    const float4 v = *reinterpret_cast<const float4*>(&tile[(Threads - 1 - t) * 4]);
    float4* out4 = reinterpret_cast<float4*>(out);
    float sum = 0.0f;
#pragma unroll
    for (int i = 0; i < 1; ++i) sum += v.x;
    #pragma unroll 4
    for (int i = 0; i < 1; ++i) sum -= v.x;
    out4[blockIdx.x * Threads + t] = make_float4(v.x + sum, v.y, v.z, v.w);
}

/// One thread reads a float4 at float @p offset of a shared tile (a multiple of 4 is aligned).
__global__ void shared_vector_kernel(float* out, int offset) {
    __shared__ float tile[16];
    for (int i = 0; i < 16; ++i) tile[i] = static_cast<float>(i);
    const float4 v = *reinterpret_cast<const float4*>(&tile[offset]);
    out[0] = v.x;
}

/// @p p's address modulo 16, by the casts of an alignment test on a __device__ function's pointer parameter.
__device__ int misalignment(const float* p) {
    const int by_reinterpret = static_cast<int>(reinterpret_cast<uintptr_t>(p) % 16);
    const int by_c_cast = static_cast<int>((size_t)p % 16);
    return by_reinterpret == by_c_cast ? by_reinterpret : -1;
}

/// One thread writes, for in + @p offset, each cast's address modulo 16 (-1 where two casts disagree): out[0] through
/// a __device__ function's parameter, out[1] of the plain pointer, out[2] of a float4 pointer made from it (offset a
/// multiple of 4), out[3] of a shared tile's element @p offset, out[4] 1 when the float4 path is taken and is right.
__global__ void address_casts_kernel(const float* in, int* out, int offset) {
    __shared__ __align__(16) float tile[16];
    const float* p = in + offset;
    out[0] = misalignment(p);
    out[1] = reinterpret_cast<uintptr_t>(p) % 16 == (uintptr_t)p % 16 ? static_cast<int>((uintptr_t)p % 16) : -1;
    const float4* v = reinterpret_cast<const float4*>(in + offset / 4 * 4);
    out[2] = static_cast<int>(reinterpret_cast<uintptr_t>(v) % 16);
    out[3] = static_cast<int>((uintptr_t)&tile[offset % 16] % 16);
    out[4] = reinterpret_cast<uintptr_t>(p) % 16 == 0 ? (v[0].x == p[0] ? 1 : 0) : 0;
}

/// Stages: each thread copies its float of a chunk of @p in into one of two shared stages with asynchronous
/// copies, double-buffered, and adds up the whole chunk from the stage once it has landed. @p wait false leaves
/// out the wait (a race), @p barrier false the barrier after the wait (a race, for another thread's copy).
__global__ void async_sum_kernel(const float* in, float* out, int chunks, bool wait, bool barrier) {
    __shared__ float stage[2][32];
    const int t = threadIdx.x;
    __pipeline_memcpy_async(&stage[0][t], &in[t], sizeof(float));
    __pipeline_commit();
    float sum = 0.0f;
    for (int c = 0; c < chunks; ++c) {
        if (c + 1 < chunks) {
            __pipeline_memcpy_async(&stage[(c + 1) % 2][t], &in[(c + 1) * 32 + t], sizeof(float));
        }
        __pipeline_commit();
        if (wait) __pipeline_wait_prior(1);
        if (barrier) __syncthreads();  // every thread's copy into this stage has landed before any thread reads it
        for (int i = 0; i < 32; ++i) sum += stage[c % 2][i];
        __syncthreads();  // every thread has read this stage before the next iteration's copy overwrites it
    }
    out[t] = sum;
}

/// One thread copies 16 bytes asynchronously from float @p offset of @p in, zero-filling the last @p zero_fill
/// bytes, waits, and writes the four floats to @p out.
__global__ void async_vector_kernel(const float* in, float* out, int offset, int zero_fill) {
    __shared__ __align__(16) float stage[4];
    __pipeline_memcpy_async(&stage[0], in + offset, 16, zero_fill);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    for (int i = 0; i < 4; ++i) out[i] = stage[i];
}

/// A struct type declared before its kernel, for a __shared__ variable of it: an array and a scalar member.
struct Reversal {
    float values[64];
    int count;
};

/// Reverses 64 floats through members of __shared__ structs: a named struct's array, an anonymous one's 2-D array
/// (with a struct member of its own). With @p barrier false, thread 32 stores values[32] after thread 31 read it.
__global__ void struct_reverse_kernel(float* data, bool barrier) {
    __shared__ Reversal reversal;
    __shared__ struct {
        float rows[2][32];
        Reversal spare;
    } staged;
    const unsigned i = threadIdx.x;
    reversal.values[i] = data[i];
    if (i == 0) reversal.count = 64;
    if (barrier) __syncthreads();  // the values are all stored before any thread reads them
    staged.rows[i / 32][i % 32] = reversal.values[63 - i];
    if (i == 0) staged.spare.count = 1;
    __syncthreads();  // the rows are complete, and the count stored, before any thread reads them
    data[i] = staged.rows[i / 32][i % 32] + 0.0f * static_cast<float>(reversal.count);
}

/// Reverses 64 floats through dynamic shared memory seen as a float (&)[2][32] tile, then read back through a
/// float (*)[32] view @p extra_rows rows further on (1: past the launch's 256 bytes). With @p barrier false, thread
/// 0 reads row 1 before thread 63 stores it.
__global__ void view_reverse_kernel(float* data, bool barrier, int extra_rows) {
    extern __shared__ float smem[];
    float (&tile)[2][32] = *reinterpret_cast<float (*)[2][32]>(smem);
    const unsigned i = threadIdx.x;
    tile[i / 32][i % 32] = data[i];
    if (barrier) __syncthreads();  // the tile is complete before any thread reads it
    float (*rows)[32] = (float (*)[32])smem;
    data[i] = rows[(63 - i) / 32 + extra_rows][(63 - i) % 32];
}

/// 16 threads store 0..15 into dynamic shared memory; thread t below 4 then sums the float4 at element t of a
/// float4 (&)[4] view of it into out[t].
__global__ void vector_view_kernel(float* out) {
    extern __shared__ float smem[];
    smem[threadIdx.x] = static_cast<float>(threadIdx.x);
    __syncthreads();  // every float is stored before the vectors are read
    float4 (&quads)[4] = reinterpret_cast<float4 (&)[4]>(smem[0]);
    if (threadIdx.x < 4) {
        const float4 q = quads[threadIdx.x];
        out[threadIdx.x] = q.x + q.y + q.z + q.w;
    }
}

/// Stores data[i] into element i of a tile: a __device__ function template taking the tile by reference, its extents
/// deduced (shared memory or a register array alike).
template <int R, int C>
__device__ void store_tile(float (&tile)[R][C], const float* data, unsigned i) {
    tile[i / C][i % C] = data[i];
}

/// Element 63 - i of a 2 x 32 tile passed as a pointer to its rows.
__device__ float read_reversed(const float (*rows)[32], unsigned i) { return rows[(63 - i) / 32][(63 - i) % 32]; }

/// Element i of a 1-D array parameter (the pointer it decays to).
__device__ float read_flat(const float values[], unsigned i) { return values[i]; }

/// Two tiles in one struct, which a __shared__ declaration uses and a __device__ function takes by reference.
struct TilePair {
    float first[2][32];
    float second[64];
};

/// second[i] = first's element 63 - i, through the struct passed by reference.
__device__ void reverse_pair(TilePair& pair, unsigned i) { pair.second[i] = pair.first[(63 - i) / 32][(63 - i) % 32]; }

/// Tiles handed to __device__ helpers and a lambda as arrays and as a struct of tiles: data[i] becomes
/// 2 data[63 - i] + data[i]. Shared memory: 192 element stores and 256 reads, all through the helpers' parameters (the
/// same template's store into a register array is none). With @p barrier false, thread 31 reads tile[1][0] before
/// thread 32 stores it.
__global__ void helper_tiles_kernel(float* data, bool barrier) {
    __shared__ float tile[2][32];
    __shared__ TilePair pair;
    float registers[2][32];
    const unsigned i = threadIdx.x;
    store_tile(tile, data, i);
    store_tile(pair.first, data, i);
    store_tile(registers, data, i);
    if (barrier) __syncthreads();  // the tiles are complete before any thread reads them
    const float reversed = read_reversed(tile, i);
    reverse_pair(pair, i);
    __syncthreads();  // pair.second is complete before any thread reads it
    auto pick = [](const float (&t)[2][32], unsigned k) -> float { return t[k / 32][k % 32]; };
    data[i] = reversed + read_flat(pair.second, i) + pick(pair.first, i) + 0.0f * registers[i / 32][i % 32];
}

}  // namespace

cudaError_t helper_tiles(float* data, bool barrier) {
    helper_tiles_kernel<<<1, 64>>>(data, barrier);
    return launch_result();
}

cudaError_t vector_reverse(const float* in, float* out, int blocks, int offset) {
    vector_reverse_kernel<64><<<blocks, 64>>>(in, out, offset);
    return launch_result();
}

cudaError_t shared_vector(float* out, int offset) {
    shared_vector_kernel<<<1, 1>>>(out, offset);
    return launch_result();
}

cudaError_t address_casts(const float* in, int* out, int offset) {
    address_casts_kernel<<<1, 1>>>(in, out, offset);
    return launch_result();
}

const void* dynamic_sum_kernel_address() { return reinterpret_cast<const void*>(&dynamic_sum_kernel); }

cudaError_t async_sum(const float* in, float* out, int chunks, bool wait, bool barrier) {
    async_sum_kernel<<<1, 32>>>(in, out, chunks, wait, barrier);
    return launch_result();
}

cudaError_t async_vector(const float* in, float* out, int offset, int zero_fill) {
    async_vector_kernel<<<1, 1>>>(in, out, offset, zero_fill);
    return launch_result();
}

cudaError_t reverse_blocks(float* data, int blocks, int threads, bool barrier) {
    reverse_kernel<<<blocks, threads>>>(data, barrier);
    return launch_result();
}

cudaError_t split_barrier(int* out, int threads) {
    split_barrier_kernel<<<1, threads>>>(out);
    return launch_result();
}

cudaError_t early_return(int* out, int threads, unsigned active) {
    early_return_kernel<<<1, threads>>>(out, active);
    return launch_result();
}

cudaError_t read_past_end(const float* data, float* out, int count) {
    read_past_end_kernel<<<1, 1>>>(data, out, count);
    return launch_result();
}

cudaError_t deep_recursion(int* out, int depth) {
    deep_recursion_kernel<<<1, 1>>>(out, depth);
    return launch_result();
}

cudaError_t read_other_stack(int* out) {
    read_other_stack_kernel<<<1, 2>>>(out);
    return launch_result();
}

cudaError_t dynamic_sum(const int* values, int* total, int threads) {
    dynamic_sum_kernel<<<1, threads, threads * sizeof(int)>>>(values, total);
    return launch_result();
}

cudaError_t dynamic_tail_sum(const int* values, int* total, int threads, std::size_t bytes, int opt_in,
                             cudaError_t* set, int* reported) {
    *set = opt_in < 0 ? cudaSuccess
                      : cudaFuncSetAttribute(dynamic_tail_sum_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             opt_in);
    dynamic_tail_sum_kernel<<<1, threads, bytes>>>(values, total, static_cast<int>(bytes / sizeof(int)));
    const cudaError_t result = launch_result();
    cudaFuncAttributes attributes{};
    *reported = cudaFuncGetAttributes(&attributes, dynamic_tail_sum_kernel) == cudaSuccess
                    ? attributes.maxDynamicSharedSizeBytes
                    : -1;
    return result;
}

cudaError_t set_tail_sum_attribute(cudaFuncAttribute attribute, int value, bool no_kernel) {
    return no_kernel ? cudaFuncSetAttribute(static_cast<const void*>(nullptr), attribute, value)
                     : cudaFuncSetAttribute(dynamic_tail_sum_kernel, attribute, value);
}

cudaError_t fill_grid(int* out, dim3 grid) {
    fill_kernel<4><<<grid, 4>>>(out);
    return launch_result();
}

cudaError_t launch_block(dim3 block) {
    barriers_kernel<<<1, block>>>(0);
    return launch_result();
}

cudaError_t run_barriers(int blocks, int threads, int barriers) {
    barriers_kernel<<<blocks, threads>>>(barriers);
    return launch_result();
}

cudaError_t time_fill(int* out, cudaError_t* unwaited_code, float* ms, int* first_value) {
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    fill_kernel<4><<<dim3(2, 2), 4>>>(out);
    cudaEventRecord(stop);
    *unwaited_code = cudaEventElapsedTime(ms, start, stop);  // nothing has run yet: the host has not waited
    cudaMemcpy(first_value, out, sizeof(int), cudaMemcpyDeviceToHost);  // a blocking copy runs what is queued
    const cudaError_t waited = cudaEventSynchronize(stop) == cudaSuccess ? cudaEventElapsedTime(ms, start, stop)
                                                                          : cudaErrorNotReady;
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return waited;
}

cudaError_t launch_pointers(const float* in, float* out, bool write) {
    pointers_kernel<<<1, 1>>>(in, out, write);
    return launch_result();
}

cudaError_t launch_pointers_unwaited(const float* in, float* out) {
    pointers_kernel<<<1, 1>>>(in, out, true);
    return cudaGetLastError();
}

/// Stores @p value at out[i] through a __device__ function's pointer parameter (a DevicePointer on the CPU backend).
__device__ void store_through(float* out, int i, float value) { out[i] = value; }

/// Thread t copies in[t] to global[t] and, through shared memory, to staged[t], each store by store_through.
__global__ void helper_store_kernel(const float* in, float* global, float* staged) {
    __shared__ float tile[64];
    const int t = threadIdx.x;
    store_through(global, t, in[t]);
    store_through(tile, t, in[t]);
    __syncthreads();
    staged[t] = tile[63 - t];
}

cudaError_t helper_store(const float* in, float* global, float* staged) {
    helper_store_kernel<<<1, 64>>>(in, global, staged);
    return launch_result();
}

/// out[i] = 1000 i + the launch's thread count, over a grid-stride loop: reads blockDim and gridDim.
__global__ void grid_stride_kernel(int* out, int count) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += blockDim.x * gridDim.x)
        out[i] = 1000 * i + static_cast<int>(blockDim.x * gridDim.x);
}

cudaError_t grid_stride_fill(int* out, int count) {
    // Host variables named as the built-ins, as siboehm's SGEMM_CUDA names its launch's shape: legal under nvcc.
    dim3 gridDim(2);
    dim3 blockDim(32);
    grid_stride_kernel<<<gridDim, blockDim>>>(out, count);
    return launch_result();
}

cudaError_t struct_reverse(float* data, bool barrier) {
    struct_reverse_kernel<<<1, 64>>>(data, barrier);
    return launch_result();
}

cudaError_t view_reverse(float* data, bool barrier, int extra_rows) {
    view_reverse_kernel<<<1, 64, 64 * sizeof(float)>>>(data, barrier, extra_rows);
    return launch_result();
}

cudaError_t vector_view(float* out) {
    vector_view_kernel<<<1, 16, 16 * sizeof(float)>>>(out);
    return launch_result();
}
