/// @file async_copy.hpp
/// @brief The CPU backend's asynchronous copies (what <cuda_pipeline.h> declares on a GPU; see the stand-in
/// common/cpu/include/cuda_pipeline.h for how they are checked).
#pragma once

#include <tilelab/cpu/shared_pointer.hpp>
#include <tilelab/cpu/vector_access.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace tilelab::cpu {

/// __pipeline_memcpy_async at @p file:@p line: checks and reads the source now, lands the bytes at the wait.
void pipeline_memcpy_async(const char* file, int line, void* destination, const void* source, std::size_t bytes,
                           std::size_t zero_fill = 0);
/// __pipeline_commit: the copies issued since the last commit become one batch.
void pipeline_commit();
/// __pipeline_wait_prior at @p file:@p line: lands every batch but the last @p prior committed ones.
void pipeline_wait_prior(const char* file, int line, std::size_t prior);

/// The C++ APIs' copies (cuda::memcpy_async, cooperative_groups::memcpy_async): what a race report names.
struct AsyncCopyApi {
    const char* call;  ///< The call that issued the copy ("cuda::memcpy_async").
    const char* wait;  ///< What lands it ("the pipeline's consumer_wait()"), for the report's advice.
};
/// A copy of @p bytes (any number) of the C++ APIs at @p file:@p line, issued by the running thread as its share
/// of a group's: the thread takes pieces @p rank, @p rank + @p ranks, ... of the copy cut into pieces of up to 16
/// bytes (a GPU's cp.async sizes). @p promised is the alignment the caller promised (cuda::aligned_size_t<N>: both
/// pointers and the size are multiples of N, checked as a GPU's misaligned copy faults), 1 for none. The pieces
/// join the thread's open batch, checked and pending as __pipeline_memcpy_async's are; a destination outside
/// shared memory is copied at once (a GPU copies it synchronously).
void async_copy(const char* file, int line, void* destination, const void* source, std::size_t bytes,
                std::size_t promised, std::size_t rank, std::size_t ranks, const AsyncCopyApi& api);
/// Ends the running CUDA thread with cudaErrorInvalidValue: an asynchronous copy's API misused as @p detail says.
[[noreturn]] void async_copy_misuse(const char* detail);
/// The running thread's number of committed batches: the batch its next copies join.
std::uint64_t async_batches_committed();
/// Lands every copy of the running thread in a batch numbered @p batch or lower (batches count from 0).
void async_wait_batch(std::uint64_t batch);

/// The address behind a copy's pointer argument, as the build rewrote it: a plain pointer (a shared array's
/// element is a Shared<T>*) is itself.
template <class T>
T* copy_address(T* pointer) noexcept {
    return pointer;
}
/// A __device__ function's pointer parameter (`float* dst` becomes DevicePointer<float>): the address it holds.
template <class T>
auto copy_address(DevicePointer<T> pointer) noexcept {
    return pointer.element();
}
/// A vector pointer (`float4* A4s = reinterpret_cast<float4*>(&As[r][c])`, as the CUDA Samples write their copies):
/// its address, const when it points to const.
template <class V>
auto copy_address(VectorPointer<V> pointer) noexcept {
    using Address = std::conditional_t<std::is_const_v<V>, const void*, void*>;
    return static_cast<Address>(pointer.address());
}

/// __pipeline_memcpy_async with pointers the build rewrote (DevicePointer, VectorPointer): the same copy, from the
/// addresses they hold. CUDA takes any pointer here (the parameters are void* and const void*).
template <class Destination, class Source>
void pipeline_memcpy_async(const char* file, int line, Destination destination, Source source, std::size_t bytes,
                           std::size_t zero_fill = 0) {
    pipeline_memcpy_async(file, line, static_cast<void*>(copy_address(destination)),
                          static_cast<const void*>(copy_address(source)), bytes, zero_fill);
}

}  // namespace tilelab::cpu
