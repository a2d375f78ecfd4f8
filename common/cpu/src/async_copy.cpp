// Asynchronous copies from global to shared memory (<cuda_pipeline.h>, and the C++ APIs built on the same batches:
// <cuda/pipeline>, <cooperative_groups/memcpy_async.h>) on the CPU backend: a copy reads its source when issued and
// lands when the issuing thread waits for its batch; until then its destination is pending, and touching it is a
// race (race_check.cpp reports it). See common/cpu/include/cuda_pipeline.h.
#include <tilelab/cpu/output_reads.hpp>
#include <tilelab/cpu/async_copy.hpp>

#include "memory_checks.hpp"
#include "runtime_state.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

namespace tilelab::cpu {
namespace {

constexpr const char* alignment_hint =
    "__pipeline_memcpy_async copies 4, 8 or 16 bytes, and both its source and its destination must be aligned to "
    "that size: a 16-byte copy of floats starts at an element index that is a multiple of 4, in a row that starts "
    "at such a multiple; where a row's length is not a multiple of 4, copy its elements 4 bytes at a time";

constexpr const char* aligned_size_hint =
    "cuda::aligned_size_t<N>(size) promises that the source, the destination and the size are all multiples of N "
    "bytes (a GPU then copies N bytes at a time, and faults where the promise is broken): a 16-byte promise for "
    "floats needs element indices that are multiples of 4, in rows whose length is a multiple of 4; elsewhere pass "
    "the size alone (sizeof(float) * n), which promises nothing";

// Lands @p copy: its bytes become the issuing thread's write, made now.
void land(const detail::PendingCopy& copy) {
    std::size_t offset = 0;
    detail::shared_offset_of(copy.destination, &offset);
    detail::mark_async_pending(offset, copy.bytes, false);
    detail::note_async_landed(copy);
    {
        const detail::AsyncCopyWrite copying;
        note_shared_access(copy.destination, copy.bytes, true);
    }
    detail::PendingCopy landing = copy;
    if (detail::operand_probe_on)
        detail::probe_async_landing(copy.destination, landing.data, landing.bytes, copy.reads_before, copy.issue_epoch);
    else
        detail::scale_shared_words(landing.data, landing.bytes);
    std::memcpy(copy.destination, landing.data, copy.bytes);
}

// Issues the running thread's copy of @p bytes (up to 16) from @p from into shared memory at @p to, the last
// @p zero_fill of them zeros: checks both ends (aligned to @p alignment, counted from their buffers), reads the
// source now and marks the destination pending until the thread's wait lands it. @p api names the C++ call, or
// null for __pipeline_memcpy_async.
void issue(const char* file, int line, unsigned char* to, const unsigned char* from, std::size_t bytes,
           std::size_t zero_fill, std::size_t alignment, const char* hint, const AsyncCopyApi* api) {
    std::size_t offset = 0;
    detail::shared_offset_of(to, &offset);
    // The destination is written now, as far as other threads are concerned: a stage still being read is a race.
    {
        const detail::AsyncCopyWrite copying;
        detail::check_device_access(to, bytes, alignment, true, "an asynchronous copy's", hint);
    }
    detail::PendingCopy copy{to, {}, bytes, detail::running_thread_commits(), file, line};
    if (api != nullptr) {
        copy.call = api->call;
        copy.wait = api->wait;
    }
    detail::stamp_async_copy(copy);
    const std::size_t read = bytes - zero_fill;
    if (read > 0) {
        // The source is aligned to the copy's size; only the bytes it gives (not the zero fill) must be in its buffer.
        detail::check_device_access(from, read, alignment, false, "an asynchronous copy's", hint);
        if (detail::operand_probe_on) detail::probe_shared_read(from, read);  // a source in shared memory is read
        if (detail::output_tracked) detail::note_output_access(from, read, detail::OutputAccess::read);
        std::memcpy(copy.data, from, read);
    }
    std::memset(copy.data + read, 0, zero_fill);
    detail::running_thread_copies().push_back(copy);
    detail::mark_async_pending(offset, bytes, true);
}

}  // namespace

void pipeline_memcpy_async(const char* file, int line, void* destination, const void* source, std::size_t bytes,
                           std::size_t zero_fill) {
    if (bytes != 4 && bytes != 8 && bytes != 16)
        detail::kernel_fault(cudaErrorInvalidValue, "invalid asynchronous copy",
                             "__pipeline_memcpy_async copies 4, 8 or 16 bytes, not " + std::to_string(bytes));
    if (zero_fill > bytes)
        detail::kernel_fault(cudaErrorInvalidValue, "invalid asynchronous copy",
                             "__pipeline_memcpy_async's zero fill (" + std::to_string(zero_fill) +
                                 " bytes) is larger than the copy (" + std::to_string(bytes) + ")");
    std::size_t offset = 0;
    if (!detail::shared_offset_of(destination, &offset))
        detail::kernel_fault(cudaErrorInvalidValue, "invalid asynchronous copy",
                             "the destination of __pipeline_memcpy_async must be shared memory");
    issue(file, line, static_cast<unsigned char*>(destination), static_cast<const unsigned char*>(source), bytes,
          zero_fill, bytes, alignment_hint, nullptr);
}

void async_copy(const char* file, int line, void* destination, const void* source, std::size_t bytes,
                std::size_t promised, std::size_t rank, std::size_t ranks, const AsyncCopyApi& api) {
    auto* to = static_cast<unsigned char*>(destination);
    const auto* from = static_cast<const unsigned char*>(source);
    if (promised > 1 && bytes % promised != 0)
        detail::kernel_fault(cudaErrorInvalidValue, "invalid asynchronous copy",
                             std::string(api.call) + " was given cuda::aligned_size_t<" + std::to_string(promised) +
                                 ">(" + std::to_string(bytes) + "), a size that is not a multiple of " +
                                 std::to_string(promised) + " bytes: the promise is the size's as well as the "
                                 "pointers'");
    // The pieces a GPU's copy is cut into: the promised alignment, or without a promise the largest size that the
    // addresses and the length allow (a GPU's copy picks its instructions the same way).
    std::size_t piece = promised > 1 ? std::min<std::size_t>(promised, 16) : 16;
    if (promised <= 1)
        while (piece > 1 && (bytes % piece != 0 || reinterpret_cast<std::uintptr_t>(to) % piece != 0 ||
                             reinterpret_cast<std::uintptr_t>(from) % piece != 0))
            piece /= 2;
    std::size_t offset = 0;
    const bool shared = detail::shared_offset_of(to, &offset);
    const char* hint = promised > 1 ? aligned_size_hint : alignment_hint;
    for (std::size_t at = rank * piece; at < bytes; at += ranks * piece) {
        const std::size_t size = std::min(piece, bytes - at);
        // Pieces under a word would share the race checks' words with their neighbours' (another thread's, or the
        // next piece's): copied at once as the thread's own write, as is a copy into global memory, which a GPU
        // makes synchronously.
        if (!shared || size < 4) {
            detail::check_device_access(from + at, size, std::min(promised, piece), false, "an asynchronous copy's", hint);
            detail::check_device_access(to + at, size, std::min(promised, piece), true, "an asynchronous copy's", hint);
            // A read of shared memory like any other (into a register, say): the technique checks count it.
            if (detail::operand_probe_on) detail::probe_shared_read(from + at, size);
            if (detail::output_tracked) {
                detail::note_output_access(from + at, size, detail::OutputAccess::read);
                detail::note_output_access(to + at, size, detail::OutputAccess::write);
            }
            std::memcpy(to + at, from + at, size);
            continue;
        }
        issue(file, line, to + at, from + at, size, 0, std::min(promised, piece), hint, &api);
    }
}

void async_copy_misuse(const char* detail) {
    detail::kernel_fault(cudaErrorInvalidValue, "invalid asynchronous copy", detail);
}

std::uint64_t async_batches_committed() { return detail::running_thread_commits(); }

void async_wait_batch(std::uint64_t batch) {
    auto& copies = detail::running_thread_copies();
    auto done = [&](const detail::PendingCopy& copy) { return copy.batch <= batch; };
    for (const detail::PendingCopy& copy : copies)
        if (done(copy)) land(copy);
    copies.erase(std::remove_if(copies.begin(), copies.end(), done), copies.end());
}

void pipeline_commit() {
    ++detail::running_thread_commits();
}

void pipeline_wait_prior(const char*, int, std::size_t prior) {
    auto& copies = detail::running_thread_copies();
    const std::uint64_t commits = detail::running_thread_commits();
    // Batch b is complete when at most `prior` batches were committed after it: b + prior < commits.
    auto done = [&](const detail::PendingCopy& copy) { return copy.batch + prior < commits; };
    for (const detail::PendingCopy& copy : copies)
        if (done(copy)) land(copy);
    copies.erase(std::remove_if(copies.begin(), copies.end(), done), copies.end());
}

}  // namespace tilelab::cpu
