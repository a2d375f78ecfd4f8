// The checks a wide access makes before it touches memory (vector loads and stores, asynchronous copies):
// alignment counted from the start of its buffer, and every byte inside it. Internal to the CPU backend.
#pragma once

#include <cstddef>

namespace tilelab::cpu::detail {

/// Checks that @p bytes at @p address are aligned to @p alignment (from the start of their device buffer, which a GPU
/// aligns to 256 bytes, or of shared memory) and lie inside that buffer; otherwise ends the running CUDA thread
/// with cudaErrorMisalignedAddress or cudaErrorIllegalAddress, describing the access as @p what (@p write says
/// which way) and adding @p hint. A shared-memory access is recorded for the race checks.
void check_device_access(const unsigned char* address, std::size_t bytes, std::size_t alignment, bool write, const char* what,
                         const char* hint);

}  // namespace tilelab::cpu::detail
