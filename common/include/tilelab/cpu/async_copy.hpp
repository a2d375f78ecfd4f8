/// @file async_copy.hpp
/// @brief The CPU backend's asynchronous copies (what <cuda_pipeline.h> declares on a GPU; see the stand-in
/// common/cpu/include/cuda_pipeline.h for how they are checked).
#pragma once

#include <cstddef>

namespace tilelab::cpu {

/// __pipeline_memcpy_async at @p file:@p line: checks and reads the source now, lands the bytes at the wait.
void pipeline_memcpy_async(const char* file, int line, void* destination, const void* source, std::size_t bytes,
                           std::size_t zero_fill = 0);
/// __pipeline_commit: the copies issued since the last commit become one batch.
void pipeline_commit();
/// __pipeline_wait_prior at @p file:@p line: lands every batch but the last @p prior committed ones.
void pipeline_wait_prior(const char* file, int line, std::size_t prior);

}  // namespace tilelab::cpu
