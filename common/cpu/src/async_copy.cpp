// Asynchronous copies from global to shared memory (<cuda_pipeline.h>) on the CPU backend: a copy reads its
// source when issued and lands when the issuing thread waits for its batch; until then its destination is
// pending, and touching it is a race (scheduler.cpp reports it). See common/cpu/include/cuda_pipeline.h.
#include <tilelab/cpu/async_copy.hpp>

#include "memory_checks.hpp"
#include "runtime_state.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace tilelab::cpu {
namespace {

constexpr const char* alignment_hint =
    "__pipeline_memcpy_async copies 4, 8 or 16 bytes, and both its source and its destination must be aligned to "
    "that size: a 16-byte copy of floats starts at an element index that is a multiple of 4, in a row that starts "
    "at such a multiple; where a row's length is not a multiple of 4, copy its elements 4 bytes at a time";

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
    detail::scale_shared_words(landing.data, landing.bytes);
    std::memcpy(copy.destination, landing.data, copy.bytes);
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
    auto* to = static_cast<unsigned char*>(destination);
    std::size_t offset = 0;
    if (!detail::shared_offset_of(to, &offset))
        detail::kernel_fault(cudaErrorInvalidValue, "invalid asynchronous copy",
                             "the destination of __pipeline_memcpy_async must be shared memory");
    // The destination is written now, as far as other threads are concerned: a stage still being read is a race.
    {
        const detail::AsyncCopyWrite copying;
        detail::check_device_access(to, bytes, bytes, true, "an asynchronous copy's", alignment_hint);
    }
    detail::PendingCopy copy{to, {}, bytes, detail::running_thread_commits(), file, line};
    detail::stamp_async_copy(copy);
    const std::size_t read = bytes - zero_fill;
    if (read > 0) {
        const auto* from = static_cast<const unsigned char*>(source);
        // The source is aligned to the copy's size; only the bytes it gives (not the zero fill) must be in its buffer.
        detail::check_device_access(from, read, bytes, false, "an asynchronous copy's", alignment_hint);
        std::memcpy(copy.data, from, read);
    }
    std::memset(copy.data + read, 0, zero_fill);
    detail::running_thread_copies().push_back(copy);
    detail::mark_async_pending(offset, bytes, true);
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
