// Kernels for the CPU backend's tests of CUDA's device built-ins, in CUDA as a student writes it (the build
// rewrites this file as it rewrites a lab).
#include "builtin_kernels.hpp"

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cuda/pipeline>
#include <cuda_pipeline.h>

namespace cg = cooperative_groups;

namespace {

cudaError_t finish() {
    const cudaError_t launch = cudaGetLastError();
    if (launch != cudaSuccess) return launch;
    const cudaError_t kernel = cudaDeviceSynchronize();
    static_cast<void>(cudaGetLastError());
    return kernel;
}

__global__ void ldg_kernel(const float* __restrict__ in, const int* __restrict__ ints, float* out) {
    const int i = threadIdx.x;
    const float4 quad = __ldg(reinterpret_cast<const float4*>(in) + i / 4);
    out[i] = __ldg(&in[i]) + static_cast<float>(__ldg(ints + i)) + quad.x;
}

__global__ void global_atomics_kernel(float* f, int* counters, double* d, unsigned* u) {
    const int id = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(f, 1.0f);
    atomicAdd(&counters[0], 1);
    atomicSub(&counters[1], 2);
    atomicMax(&counters[2], id);
    atomicMin(&counters[3], -id);
    atomicOr(&counters[4], 1 << (id % 31));
    atomicXor(&counters[5], 1);  // an even number of threads: back to the start
    atomicAnd(&counters[6], ~(1 << (id % 8)));
    atomicInc(reinterpret_cast<unsigned*>(&counters[7]), 9u);  // counts modulo 10
    // A lock-free add by compare-and-swap, the textbook way to build an atomic that CUDA lacks.
    int old = counters[8], assumed;
    do {
        assumed = old;
        old = atomicCAS(&counters[8], assumed, assumed + 3);
    } while (old != assumed);
    atomicExch(&counters[9], 7);
    atomicAdd(d, 0.5);
    atomicAdd(u, 2u);
}

__global__ void histogram_kernel(const int* values, int* bins, int count, bool plain_read) {
    __shared__ int local[8];
    if (threadIdx.x < 8) local[threadIdx.x] = 0;
    __syncthreads();  // the bins are zero before any thread counts
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) atomicAdd(&local[values[i] % 8], 1);
    if (plain_read && threadIdx.x == blockDim.x - 1) bins[8] = local[0];  // (wrong on purpose) no barrier
    __syncthreads();  // every count is in before the block's totals are read
    if (threadIdx.x < 8) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

__global__ void warp_kernel(int* out) {
    const int t = threadIdx.x;
    const int lane = t % 32;
    int sum = t;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    int all = t;
    for (int offset = 16; offset > 0; offset /= 2) all += __shfl_xor_sync(0xffffffffu, all, offset);
    int scan = 1;
    for (int offset = 1; offset < 32; offset *= 2) {
        const int up = __shfl_up_sync(0xffffffffu, scan, offset);
        if (lane >= offset) scan += up;
    }
    const float broadcast = __shfl_sync(0xffffffffu, static_cast<float>(t), 3, 8);
    const unsigned ballot = __ballot_sync(0xffffffffu, t % 2 == 0);
    const int every = __all_sync(0xffffffffu, t >= 0);
    const int some = __any_sync(0xffffffffu, t == 5);
    __syncwarp();
    out[t * 8 + 0] = lane == 0 ? sum : -1;
    out[t * 8 + 1] = all;
    out[t * 8 + 2] = scan;
    out[t * 8 + 3] = static_cast<int>(broadcast);
    out[t * 8 + 4] = static_cast<int>(ballot);
    out[t * 8 + 5] = every;
    out[t * 8 + 6] = some;
    out[t * 8 + 7] = __reduce_add_sync(0xffffffffu, 1);
}

__global__ void divergent_shuffle_kernel(int* out, int callers) {
    int value = threadIdx.x;
    if (static_cast<int>(threadIdx.x) < callers) value = __shfl_down_sync(0xffffffffu, value, 1);  // (wrong on purpose)
    out[threadIdx.x] = value;
}

__global__ void cooperative_kernel(int* out) {
    __shared__ int ranks[128];
    cg::thread_block block = cg::this_thread_block();
    const int rank = static_cast<int>(block.thread_rank());
    ranks[rank] = rank;
    block.sync();  // every rank is stored before a neighbour's is read
    const int neighbour = ranks[(rank + 1) % block.size()];
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    int sum = rank;
    for (unsigned offset = tile.size() / 2; offset > 0; offset /= 2) sum += tile.shfl_down(sum, offset);
    tile.sync();
    const int reduced = cg::reduce(tile, rank, cg::plus<int>());
    out[rank * 4 + 0] = neighbour;
    out[rank * 4 + 1] = tile.thread_rank() == 0 ? sum : -1;
    out[rank * 4 + 2] = reduced;
    out[rank * 4 + 3] = static_cast<int>(tile.meta_group_rank());
}

}  // namespace

cudaError_t ldg_sum(const float* in, const int* ints, float* out) {
    ldg_kernel<<<1, 64>>>(in, ints, out);
    return finish();
}

cudaError_t global_atomics(float* f, int* counters, double* d, unsigned* u, int blocks, int threads) {
    global_atomics_kernel<<<blocks, threads>>>(f, counters, d, u);
    return finish();
}

cudaError_t shared_histogram(const int* values, int* bins, int count, bool plain_read) {
    histogram_kernel<<<(count + 127) / 128, 128>>>(values, bins, count, plain_read);
    return finish();
}

cudaError_t warp_functions(int* out, int threads) {
    warp_kernel<<<1, threads>>>(out);
    return finish();
}

cudaError_t warp_divergent_shuffle(int* out, int callers) {
    divergent_shuffle_kernel<<<1, 32>>>(out, callers);
    return finish();
}

cudaError_t cooperative_groups_sums(int* out, int threads) {
    cooperative_kernel<<<1, threads>>>(out);
    return finish();
}

namespace {
/// One warp per row of a (32, 8) block: lane 0 of warp y gets the sum of in[y * 32 + lane] by __shfl_down_sync.
__global__ void warp_rows_kernel(const float* in, float* out) {
    float sum = in[threadIdx.y * 32 + threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x == 0) out[threadIdx.y] = sum;
}
}  // namespace

cudaError_t warp_row_sums(const float* in, float* out) {
    warp_rows_kernel<<<1, dim3(32, 8)>>>(in, out);
    return finish();
}

namespace {
__global__ void warp_matmul_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const int lane = threadIdx.x;
    const long long element = 1ll * blockIdx.x * 8 + threadIdx.y;
    const bool active = element < 1ll * rows * cols;
    const int row = active ? static_cast<int>(element / cols) : 0;
    const int col = active ? static_cast<int>(element % cols) : 0;
    float sum = 0.0f;
    if (active)
        for (int k = lane; k < inner; k += 32) sum += M[row * inner + k] * N[k * cols + col];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (active && lane == 0) P[row * cols + col] = sum;
}
}  // namespace

cudaError_t warp_matmul(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    warp_matmul_kernel<<<(rows * cols + 7) / 8, dim3(32, 8)>>>(M, N, P, rows, inner, cols);
    return finish();
}

namespace {
/// Starts an asynchronous copy of @p bytes through a __device__ function's pointer parameters.
__device__ void copy_through_parameters(float* destination, const float* source, int bytes) {
    __pipeline_memcpy_async(destination, source, bytes);
}

__global__ void async_copy_pointers_kernel(const float* in, float* out) {
    __shared__ __align__(16) float stage[8];
    // The CUDA Samples' form: float4 pointers into shared and global memory.
    float4* const stage4 = reinterpret_cast<float4*>(&stage[0]);
    const float4* const in4 = reinterpret_cast<const float4*>(in);
    __pipeline_memcpy_async(stage4, in4, sizeof(float4));
    copy_through_parameters(&stage[4], in + 4, 16);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    for (int i = 0; i < 8; ++i) out[i] = stage[i];
}
}  // namespace

cudaError_t async_copy_pointers(const float* in, float* out) {
    async_copy_pointers_kernel<<<1, 1>>>(in, out);
    return finish();
}

namespace {
/// Each thread gives flags[t] to the three barrier reductions: out[t * 3 + 0..2] gets their results.
__global__ void barrier_reductions_kernel(const int* flags, int* out) {
    const int t = threadIdx.x;
    const int count = __syncthreads_count(flags[t]);
    const int every = __syncthreads_and(flags[t]);
    const int some = __syncthreads_or(flags[t]);
    out[t * 3 + 0] = count;
    out[t * 3 + 1] = every;
    out[t * 3 + 2] = some;
}

/// The upper half of the block returns before the barrier reduction (wrong on purpose).
__global__ void divergent_count_kernel(int* out) {
    if (threadIdx.x >= blockDim.x / 2) return;
    out[threadIdx.x] = __syncthreads_count(1);
}

/// Lanes store their index into a shared array and read another lane's, ordered (or not) by __syncwarp (see
/// warp_exchange in builtin_kernels.hpp for the modes).
__global__ void warp_exchange_kernel(int* out, int mode) {
    __shared__ int values[64];
    const int t = threadIdx.x, lane = t % 32;
    values[t] = t;
    int from = (t + 1) % 32 + t / 32 * 32;  // the next lane of the same warp
    if (mode == 1) __syncwarp();
    if (mode == 2) {
        __syncwarp();
        from = (t + 32) % 64;  // a lane of the other warp: __syncwarp does not order it
    }
    if (mode == 3 || mode == 4) {
        const unsigned half = lane < 16 ? 0x0000FFFFu : 0xFFFF0000u;
        __syncwarp(half);
        // mode 3: the next lane of the same half, which this __syncwarp named; mode 4: a lane of the other half.
        from = t / 32 * 32 + (mode == 3 ? (lane / 16 * 16 + (lane + 1) % 16) : (lane + 16) % 32);
    }
    out[t] = values[from];
}
}  // namespace

cudaError_t barrier_reductions(const int* flags, int* out, int threads) {
    barrier_reductions_kernel<<<1, threads>>>(flags, out);
    return finish();
}

cudaError_t divergent_barrier_count(int* out, int threads) {
    divergent_count_kernel<<<1, threads>>>(out);
    return finish();
}

cudaError_t warp_exchange(int* out, int mode) {
    warp_exchange_kernel<<<1, mode == 2 ? 64 : 32>>>(out, mode);
    return finish();
}

namespace {
/// The CUDA Programming Guide's last-block pattern: each block stores its partial sum, fences, and counts itself
/// done; the block that counts last adds the partial sums (a fence orders the store before the count).
__global__ void fenced_sum_kernel(const int* values, int* partial, unsigned* done, int* total) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        int sum = 0;
        for (int i = 0; i < 32; ++i) sum += values[blockIdx.x * 32 + i];
        partial[blockIdx.x] = sum;
        __threadfence();  // the partial sum is visible to every block before the count says so
        __threadfence_block();
        __threadfence_system();
        last = atomicInc(done, gridDim.x) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int sum = 0;
        for (unsigned b = 0; b < gridDim.x; ++b) sum += reinterpret_cast<volatile int*>(partial)[b];
        *total = sum;
    }
}

/// Two tiles carved from one extern __shared__ array by pointers; out[t] = a[next] + b[next]. Without @p barrier,
/// thread t reads the elements thread t + 1 has not stored yet (a race).
__global__ void carved_tiles_kernel(float* out, int n, bool barrier) {
    extern __shared__ float shared[];
    float* a = shared;
    float* b = shared + n;
    const int t = threadIdx.x;
    a[t] = static_cast<float>(t);
    b[t] = 2.0f * t;
    if (barrier) __syncthreads();
    out[t] = a[(t + 1) % n] + b[(t + 1) % n];
}

/// out[t] = t * scale, launched through cudaLaunchKernel.
__global__ void scale_kernel(int* out, int scale) { out[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * scale; }
}  // namespace

cudaError_t fenced_sum(const int* values, int* partial, unsigned* done, int* total, int blocks) {
    fenced_sum_kernel<<<blocks, 32>>>(values, partial, done, total);
    return finish();
}

cudaError_t carved_tiles(float* out, int n, bool barrier) {
    carved_tiles_kernel<<<1, n, 2 * n * sizeof(float)>>>(out, n, barrier);
    return finish();
}

cudaError_t launch_kernel_scale(int* out, int scale, cudaStream_t stream) {
    void* arguments[] = {&out, &scale};
    const cudaError_t launched =
        cudaLaunchKernel(scale_kernel, dim3(2), dim3(32), arguments, 0, stream);
    if (launched != cudaSuccess) return launched;
    return finish();
}

cudaError_t launch_kernel_void_cast_scale(int* out, int scale) {
    void* arguments[] = {(void*)&out, (void*)&scale};
    const cudaError_t launched = cudaLaunchKernel((void*)scale_kernel, dim3(2), dim3(32), arguments, 0, 0);
    if (launched != cudaSuccess) return launched;
    return finish();
}

cudaError_t launch_kernel_ex_scale(int* out, int scale, cudaStream_t stream) {
    cudaLaunchAttribute attributes[1] = {};
    attributes[0].id = cudaLaunchAttributePriority;
    attributes[0].val.priority = 0;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(2);
    config.blockDim = dim3(32);
    config.dynamicSmemBytes = 0;
    config.stream = stream;
    config.attrs = attributes;
    config.numAttrs = 1;
    const cudaError_t launched = cudaLaunchKernelEx(&config, scale_kernel, out, scale);
    if (launched != cudaSuccess) return launched;
    return finish();
}

namespace {
/// CUDA's min and max overloads: each call is ambiguous unless the backend has nvcc's set.
__global__ void min_max_kernel(double* out) {
    const std::size_t big = std::size_t{1} << 40;
    const long negative = -3;
    const unsigned int u = 7;
    out[0] = static_cast<double>(min(big, std::size_t{5}));      // unsigned long
    out[1] = static_cast<double>(max(big, std::size_t{5}));
    out[2] = max(0.0f, -2.5f);                                   // float
    out[3] = min(1.5f, 2.5);                                     // float and double: double
    out[4] = static_cast<double>(min(negative, 4L));             // long
    out[5] = static_cast<double>(max(-1LL, 2LL));                // long long
    out[6] = static_cast<double>(min(u, 3));                     // unsigned and int: unsigned
    out[7] = static_cast<double>(max(-1, u));                    // -1 as unsigned is the larger
    out[8] = fminf(min(2.0f, 3.0f), 1.0f);
    out[9] = max(2.0, 3.0);                                      // double
    out[10] = static_cast<double>(min(static_cast<int>(threadIdx.x) + 4, 9));  // int
    out[11] = static_cast<double>(min(threadIdx.x + 4u, 9u));   // unsigned
}
}  // namespace

cudaError_t min_max_overloads(double* out) {
    min_max_kernel<<<1, 1>>>(out);
    return finish();
}

namespace {
constexpr int kPipelineThreads = 32;  // pipeline_sum's block; each thread copies four floats of a chunk

/// Double-buffered chunks of kPipelineThreads · 4 floats from in + @p offset through a thread-scope cuda::pipeline:
/// each thread copies its four floats of the next chunk (one stage) while the block adds up this one.
__global__ void pipeline_sum_kernel(const float* in, float* out, int chunks, int offset, PipelineMode mode) {
    __shared__ __align__(16) float stage[2][kPipelineThreads * 4];
    const int t = threadIdx.x;
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    auto copy = [&](int c) {
        pipe.producer_acquire();
        const float* from = in + offset + c * kPipelineThreads * 4 + t * 4;
        if (mode == PipelineMode::plain_size)
            cuda::memcpy_async(&stage[c % 2][t * 4], from, sizeof(float) * 4, pipe);
        else
            cuda::memcpy_async(&stage[c % 2][t * 4], from, cuda::aligned_size_t<16>(sizeof(float) * 4), pipe);
        pipe.producer_commit();
    };
    copy(0);
    float sum = 0.0f;
    for (int c = 0; c < chunks; ++c) {
        if (c + 1 < chunks) copy(c + 1);
        if (mode == PipelineMode::wait_prior) {
            if (c + 1 < chunks) cuda::pipeline_consumer_wait_prior<1>(pipe);
            else cuda::pipeline_consumer_wait_prior<0>(pipe);
        } else if (mode != PipelineMode::no_wait) {
            pipe.consumer_wait();
        }
        __syncthreads();  // every thread's copy of chunk c has landed
        for (int i = 0; i < kPipelineThreads * 4; ++i) sum += stage[c % 2][i];
        __syncthreads();  // every thread has read chunk c before its stage is refilled
        pipe.consumer_release();
    }
    out[t] = sum;
}

constexpr int kGroupThreads = 64;    // group_copy_sum's block
constexpr int kGroupChunk = 256;     // floats per chunk: one 16-byte piece per thread

/// Double-buffered chunks of kGroupChunk floats copied by the whole block with cooperative_groups::memcpy_async:
/// each thread adds up every chunk.
__global__ void group_copy_sum_kernel(const float* in, float* out, int chunks, GroupCopyMode mode) {
    __shared__ __align__(16) float stage[2][kGroupChunk];
    cg::thread_block block = cg::this_thread_block();
    auto copy = [&](int c) {
        if (mode == GroupCopyMode::aligned_size)
            cg::memcpy_async(block, stage[c % 2], in + c * kGroupChunk,
                             cuda::aligned_size_t<16>(sizeof(float) * kGroupChunk));
        else
            cg::memcpy_async(block, stage[c % 2], in + c * kGroupChunk, sizeof(float) * kGroupChunk);
    };
    copy(0);
    float sum = 0.0f;
    for (int c = 0; c < chunks; ++c) {
        if (c + 1 < chunks) {
            copy(c + 1);
            if (mode != GroupCopyMode::no_wait) cg::wait_prior<1>(block);  // chunk c has landed, for every thread
        } else if (mode != GroupCopyMode::no_wait) {
            cg::wait(block);
        }
        for (int i = 0; i < kGroupChunk; ++i) sum += stage[c % 2][i];
        block.sync();  // every thread has read chunk c before its stage is refilled
    }
    out[block.thread_rank()] = sum;
}
}  // namespace

cudaError_t pipeline_sum(const float* in, float* out, int chunks, int offset, PipelineMode mode) {
    pipeline_sum_kernel<<<1, kPipelineThreads>>>(in, out, chunks, offset, mode);
    return finish();
}

cudaError_t group_copy_sum(const float* in, float* out, int chunks, GroupCopyMode mode) {
    group_copy_sum_kernel<<<1, kGroupThreads>>>(in, out, chunks, mode);
    return finish();
}

namespace {
/// A kernel's sizes and scale, in constant memory as a CUDA course often keeps them.
__constant__ int constant_factors[4];

/// out[i] = i * constant_factors[i % 4].
__global__ void constant_scale_kernel(int* out) {
    const int i = threadIdx.x;
    out[i] = i * constant_factors[i % 4];
}
}  // namespace

cudaError_t constant_scale(int* out, const int* factors, std::size_t bytes, std::size_t offset,
                           const int* device_factors, int* read_back) {
    const cudaError_t copied = device_factors != nullptr
                                   ? cudaMemcpyToSymbol(constant_factors, device_factors, bytes, offset,
                                                        cudaMemcpyDeviceToDevice)
                                   : cudaMemcpyToSymbol(constant_factors, factors, bytes, offset);
    if (copied != cudaSuccess) return copied;
    constant_scale_kernel<<<1, 64>>>(out);
    if (const cudaError_t launched = finish(); launched != cudaSuccess) return launched;
    return cudaMemcpyFromSymbol(read_back, constant_factors, sizeof(constant_factors));
}

namespace {
/// out[t] = e·e + c, written as a student writes it: nvcc fuses it into one FMA (--fmad=true by default).
__global__ void product_sum_kernel(float e, float c, float* out) { out[threadIdx.x] = e * e + c; }
}  // namespace

cudaError_t product_sum(float e, float c, float* out) {
    product_sum_kernel<<<1, 32>>>(e, c, out);
    return finish();
}
