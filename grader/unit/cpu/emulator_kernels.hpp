// Launchers of the kernels in emulator_kernels.cu (device pointers in; the runtime's verdict out).
#pragma once

#include <cuda_runtime_api.h>

cudaError_t reverse_blocks(float* data, int blocks, int threads, bool barrier);
cudaError_t split_barrier(int* out, int threads);
cudaError_t early_return(int* out, int threads, unsigned active);
cudaError_t read_past_end(const float* data, float* out, int count);
/// Recurses @p depth times in a kernel thread, 1 KiB of stack per call (overflows the stack: a fault).
cudaError_t deep_recursion(int* out, int depth);
/// Thread 0 of two reads down from thread 1's stack into the page below it (a wild read: a fault); @p out: 2 ints.
cudaError_t read_other_stack(int* out);
cudaError_t dynamic_sum(const int* values, int* total, int threads);
/// Sums @p threads values through the last @p threads ints of @p bytes of dynamic shared memory; first, where
/// @p opt_in is not negative, sets the kernel's cudaFuncAttributeMaxDynamicSharedMemorySize to it (@p set gets
/// what that returned, and @p reported what cudaFuncGetAttributes reports after the launch).
cudaError_t dynamic_tail_sum(const int* values, int* total, int threads, std::size_t bytes, int opt_in,
                             cudaError_t* set, int* reported);
/// cudaFuncSetAttribute(dynamic_tail_sum's kernel, @p attribute, @p value), or with no kernel where @p no_kernel.
cudaError_t set_tail_sum_attribute(cudaFuncAttribute attribute, int value, bool no_kernel);
cudaError_t fill_grid(int* out, dim3 grid);
cudaError_t launch_block(dim3 block);
cudaError_t run_barriers(int blocks, int threads, int barriers);
/// Times fill_grid's kernel with events; reads the time at once (@p unwaited_code) and after waiting for the stop
/// event (returned); @p first_value is out[0] read by a copy right after the launch.
cudaError_t time_fill(int* out, cudaError_t* unwaited_code, float* ms, int* first_value);
/// Copies blocks × 256 floats from @p in + @p offset to @p out through float4 loads and stores and a float4 tile in
/// shared memory, each block's vectors in reverse order.
cudaError_t vector_reverse(const float* in, float* out, int blocks, int offset);
/// Reads a float4 at float @p offset of a 16-float shared tile holding 0..15; out[0] gets its x.
cudaError_t shared_vector(float* out, int offset);
/// For in + @p offset (a device buffer), the address modulo 16 as each kind of pointer-to-integer cast gives it
/// (address_casts_kernel in emulator_kernels.cu says which is where); out: 5 ints.
cudaError_t address_casts(const float* in, int* out, int offset);
/// dynamic_sum's kernel, as a launch names it (LaunchSite::kernel).
const void* dynamic_sum_kernel_address();
/// 32 threads add up @p chunks chunks of 32 floats staged by double-buffered asynchronous copies; @p wait and
/// @p barrier false leave out the wait for the copies or the barrier after it.
cudaError_t async_sum(const float* in, float* out, int chunks, bool wait, bool barrier);
/// One asynchronous 16-byte copy from float @p offset of @p in, the last @p zero_fill bytes zero, into out[0..3].
cudaError_t async_vector(const float* in, float* out, int offset, int zero_fill);
/// Launches a kernel given @p in and @p out, which writes out[0] (reading in[0]) when @p write.
cudaError_t launch_pointers(const float* in, float* out, bool write);
/// The same launch (writing), returning only the launch's own error: the host has not waited for the kernel.
cudaError_t launch_pointers_unwaited(const float* in, float* out);
/// 64 threads store in[t] into global[t] and into a shared tile through the same __device__ helper taking float*;
/// staged[t] is the tile's element 63 - t.
cudaError_t helper_store(const float* in, float* global, float* staged);
/// out[i] = 1000 i + 64 for i below @p count, by 2 blocks of 32 threads launched from host variables named gridDim and
/// blockDim.
cudaError_t grid_stride_fill(int* out, int count);
/// Reverses 64 floats of @p data through members of __shared__ structs (struct_reverse_kernel in emulator_kernels.cu);
/// with @p barrier false, a race on a member.
cudaError_t struct_reverse(float* data, bool barrier);
/// Reverses 64 floats of @p data through array views of 256 bytes of dynamic shared memory, reading back @p extra_rows
/// rows of 32 floats further on (1: past the launch's bytes); with @p barrier false, a race through a view.
cudaError_t view_reverse(float* data, bool barrier, int extra_rows);
/// out[t] for t below 4: the sum of 4t .. 4t + 3, read as a float4 through a float4 (&)[4] view of shared memory.
cudaError_t vector_view(float* out);
/// data[i] = 2 data[63 - i] + data[i] for 64 floats, through shared tiles passed to __device__ helpers as float (&)[R][C]
/// (a template), const float (*)[32], const float[] and a struct of tiles by reference, and to a lambda
/// (helper_tiles_kernel in emulator_kernels.cu); with @p barrier false, a race through a helper's parameter.
cudaError_t helper_tiles(float* data, bool barrier);
