/// @file kernel_record.hpp
/// @brief What the kit's instrumented lab 03 kernel (the one lab 04 links, grader/runner/lab04/) writes about its
/// launches into device memory of its own, for lab 04's runner to read back after a call of matmul_timed: that
/// the kernel ran, over which grid, on which buffers, and two elements of P as it wrote them; on the CPU backend,
/// also digests of the M and N it read and of the whole P it wrote.
#pragma once

#include <cstdint>

namespace tilelab {

/// One call's record: zeroed by the runner before matmul_timed, written by the kernel, read after.
struct KernelRecord {
    std::uint64_t launches;  ///< Launches that ran (counted by thread 0 of block 0).
    std::uint64_t blocks;    ///< Blocks that ran, over every launch.
    std::uint32_t grid[3];   ///< The last launch's grid (gridDim) ...
    std::uint32_t block[3];  ///< ... and block (blockDim).
    std::uint64_t M;         ///< The last launch's M pointer ...
    std::uint64_t N;         ///< ... its N pointer ...
    std::uint64_t P;         ///< ... and its P pointer.
    std::int32_t rows;       ///< The sizes the last launch was given: rows ...
    std::int32_t inner;      ///< ... inner ...
    std::int32_t cols;       ///< ... and cols.
    std::uint32_t first_written;     ///< 1 when the thread of P's first element stored it ...
    std::uint32_t last_written;      ///< ... and of its last.
    float first;                     ///< P[0] as the kernel wrote it.
    float last;                      ///< P[rows * cols - 1] as the kernel wrote it.
    /// @name The CPU backend's digests (tilelab::gate::digest), for operands in managed or pinned memory, whose
    /// contents reach the device with no copy the runtime could trace: what the last launch read and wrote.
    /// @{
    std::uint32_t digested;          ///< 1 when a launch filled the digests below (the CPU backend only).
    std::uint64_t M_digest;          ///< The rows * inner floats at M when the last launch started ...
    std::uint64_t N_digest;          ///< ... the inner * cols floats at N ...
    std::uint64_t P_digest;          ///< ... and the rows * cols floats at P when its last block had finished.
    std::uint64_t blocks_digested;   ///< The last launch's blocks that have finished (the kernel's own counter).
    /// @}
};

}  // namespace tilelab
