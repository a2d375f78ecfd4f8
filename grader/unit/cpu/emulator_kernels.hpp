// Launchers of the kernels in emulator_kernels.cu (device pointers in; the runtime's verdict out).
#pragma once

#include <cuda_runtime_api.h>

cudaError_t reverse_blocks(float* data, int blocks, int threads, bool barrier);
cudaError_t split_barrier(int* out, int threads);
cudaError_t early_return(int* out, int threads, unsigned active);
cudaError_t read_past_end(const float* data, float* out, int count);
cudaError_t dynamic_sum(const int* values, int* total, int threads);
cudaError_t fill_grid(int* out, dim3 grid);
cudaError_t launch_block(dim3 block);
cudaError_t run_barriers(int blocks, int threads, int barriers);
/// Times fill_grid's kernel with events; reads the time at once (@p unwaited_code) and after waiting for the stop
/// event (returned); @p first_value is out[0] read by a copy right after the launch.
cudaError_t time_fill(int* out, cudaError_t* unwaited_code, float* ms, int* first_value);
