// Kernels that use CUDA's device built-ins (builtin_kernels.cu), for the CPU backend's tests of them
// (builtin_test.cpp). Each launcher waits for its kernel and returns the launch's error, else the kernel's.
#pragma once

#include <cuda_runtime_api.h>

/// out[i] = __ldg(&in[i]) + __ldg(&ints[i]) + the x of __ldg of in's float4 at i / 4, for i < 64 (one block).
cudaError_t ldg_sum(const float* in, const int* ints, float* out);
/// blocks × threads threads each add 1 (float, int, double, unsigned) and more to @p counters (see the kernel).
cudaError_t global_atomics(float* f, int* counters, double* d, unsigned* u, int blocks, int threads);
/// A histogram of values % 8 in shared memory per block, by atomicAdd, added to @p bins; with @p plain_read a
/// thread reads a bin others update atomically in the same barrier interval (a race).
cudaError_t shared_histogram(const int* values, int* bins, int count, bool plain_read);
/// Warp shuffles, votes and reductions over a block of @p threads: out[t * 8 + k] (see the kernel).
cudaError_t warp_functions(int* out, int threads);
/// A __shfl_down_sync with a full mask that only lanes below @p callers call.
cudaError_t warp_divergent_shuffle(int* out, int callers);
/// Cooperative groups: block sync, thread_rank, a tile of 16's sum and cg::reduce (out[t * 4 + k]).
cudaError_t cooperative_groups_sums(int* out, int threads);
/// out[y] = the sum of in[y * 32 ... y * 32 + 31], one warp per row of a (32, 8) block, by __shfl_down_sync.
cudaError_t warp_row_sums(const float* in, float* out);
/// P = M × N with one warp per element of P, lanes splitting the inner dimension, summed by __shfl_down_sync.
cudaError_t warp_matmul(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// One thread copies in[0..7] into shared memory by __pipeline_memcpy_async through float4 pointers (the first
/// four) and through a __device__ function's float* parameters (the next four), and writes them to out[0..7].
cudaError_t async_copy_pointers(const float* in, float* out);
/// out[t * 3 + k] = __syncthreads_count, __syncthreads_and, __syncthreads_or of flags[t] over a block of @p threads.
cudaError_t barrier_reductions(const int* flags, int* out, int threads);
/// A __syncthreads_count that only the lower half of a block of @p threads reaches (barrier divergence).
cudaError_t divergent_barrier_count(int* out, int threads);
/// Lane t of a warp stores t in shared memory and out[t] gets another lane's value: @p mode 0, the next lane's with
/// no __syncwarp (a race); 1, the same after __syncwarp(); 2, a lane of the other warp of a block of 64, after
/// __syncwarp() (a race); 3, each half-warp's __syncwarp(half mask), then the next lane of the same half; 4, the
/// same __syncwarp, then a lane of the other half (a race).
cudaError_t warp_exchange(int* out, int mode);
/// @p blocks blocks of 32 threads: block b stores the sum of values[32 b ... 32 b + 31] in partial[b], fences and
/// counts itself in @p done (zero before); the last block stores the sum of all in @p total.
cudaError_t fenced_sum(const int* values, int* partial, unsigned* done, int* total, int blocks);
/// @p n threads fill two tiles carved by pointers from one extern __shared__ array; out[t] = t + 1 + 2 (t + 1)
/// (mod n); @p barrier false leaves out the __syncthreads() between the stores and the reads (a race).
cudaError_t carved_tiles(float* out, int n, bool barrier);
/// out[i] = i * @p scale for i < 64, by a kernel launched with cudaLaunchKernel on @p stream.
cudaError_t launch_kernel_scale(int* out, int scale, cudaStream_t stream);

/// out[i] = i * @p scale for i < 64, by a kernel launched with cudaLaunchKernel((void*)kernel, ...), as the CUDA
/// Programming Guide writes it.
cudaError_t launch_kernel_void_cast_scale(int* out, int scale);
/// out[i] = i * @p scale for i < 64, by a kernel launched with cudaLaunchKernelEx and a cudaLaunchConfig_t (with a
/// priority attribute) on @p stream.
/// Sets a `__constant__ int[4]` with cudaMemcpyToSymbol (@p bytes at byte @p offset, from @p factors, or from the
/// device buffer @p device_factors when not null), runs out[i] = i * factor[i % 4] over 64 threads, and reads the
/// four factors back into @p read_back with cudaMemcpyFromSymbol.
cudaError_t constant_scale(int* out, const int* factors, std::size_t bytes, std::size_t offset,
                           const int* device_factors, int* read_back);
cudaError_t launch_kernel_ex_scale(int* out, int scale, cudaStream_t stream);
/// One thread stores CUDA's min and max of mixed types (see the kernel) in out[0..11].
cudaError_t min_max_overloads(double* out);

/// How pipeline_sum waits for its copies.
enum class PipelineMode {
    consumer_wait,  ///< cuda::memcpy_async with aligned_size_t<16>, pipe.consumer_wait() before each chunk.
    plain_size,     ///< The same with a plain size (no alignment promised).
    wait_prior,     ///< cuda::pipeline_consumer_wait_prior<1> (<0> for the last chunk) instead of consumer_wait.
    no_wait         ///< No wait at all: the block reads stages still in flight (a race).
};
/// 32 threads add up @p chunks chunks of 128 floats from in + @p offset, staged by double-buffered
/// cuda::memcpy_async copies through a thread-scope cuda::pipeline; every out[t] is the total.
cudaError_t pipeline_sum(const float* in, float* out, int chunks, int offset, PipelineMode mode);
/// How group_copy_sum copies and waits.
enum class GroupCopyMode {
    plain_size,    ///< cooperative_groups::memcpy_async(block, dst, src, bytes), wait_prior<1> / wait.
    aligned_size,  ///< The same with cuda::aligned_size_t<16>(bytes).
    no_wait        ///< No wait: the block reads stages still in flight (a race).
};
/// 64 threads add up @p chunks chunks of 256 floats of @p in, each chunk copied by the whole block with
/// cooperative_groups::memcpy_async, double-buffered; every out[t] is the total.
cudaError_t group_copy_sum(const float* in, float* out, int chunks, GroupCopyMode mode);
/// out[t] = e * e + c for 32 threads, the expression as written in device code (which nvcc contracts into an FMA).
cudaError_t product_sum(float e, float c, float* out);
