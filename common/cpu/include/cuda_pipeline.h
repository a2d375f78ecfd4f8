/// @file cuda_pipeline.h
/// @brief The CPU backend's stand-in for <cuda_pipeline.h>: asynchronous copies from global to shared memory.
///
/// `__pipeline_memcpy_async(dst, src, size[, zfill])` reads its source when it is issued (a fault there is the
/// issuing thread's) and lands in shared memory only when the issuing thread waits for its batch
/// (`__pipeline_commit()` closes a batch, `__pipeline_wait_prior(n)` waits for all but the last n). Until then
/// the destination is marked pending: any thread that reads or writes it is reported as a shared-memory race,
/// as a missing barrier is. Once landed, the copy counts as the issuing thread's write, so other threads still
/// need a __syncthreads() after the wait before they read it.
#pragma once

#include <tilelab/cpu/async_copy.hpp>

/// Issues an asynchronous copy of @p size bytes (4, 8 or 16, both addresses aligned to it) from global memory
/// to shared memory; the last zfill bytes of the destination become zero instead (the source reads size - zfill).
#define __pipeline_memcpy_async(...) ::tilelab::cpu::pipeline_memcpy_async(__FILE__, __LINE__, __VA_ARGS__)
/// Closes the batch of copies issued since the last commit.
#define __pipeline_commit() ::tilelab::cpu::pipeline_commit()
/// Waits until at most @p prior of this thread's committed batches are still in flight.
#define __pipeline_wait_prior(prior) ::tilelab::cpu::pipeline_wait_prior(__FILE__, __LINE__, (prior))
