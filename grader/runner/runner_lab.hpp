/// @file runner_lab.hpp
/// @brief What a lab's runner knows of the lab it was built from: the student's functions and the kit's own
/// launch of the student's kernel. One adapter (grader/runner/adapters/<lab>.cu) defines runner_lab().
#pragma once

#include <tilelab/kernel_record.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace tilelab::runner {

/// A launcher: device pointers in, P = M · N launched (asynchronously).
using Launcher = void (*)(const float* M, const float* N, float* P, int rows, int inner, int cols);
/// Lab 04's host function: host pointers in, P computed, the kernel's milliseconds returned.
using TimedMultiply = float (*)(const float* M, const float* N, float* P, int rows, int inner, int cols);

/// The lab linked into this runner.
struct RunnerLab {
    Launcher launcher;         ///< The student's launcher (lab 04: lab 03's, which it times).
    Launcher contract_launch;  ///< The kit's launch of the student's kernel: the contract's grid and block.
    const void* kernel;        ///< The student's kernel (its host stub), for cudaFuncGetAttributes.
    TimedMultiply timed;       ///< Lab 04's matmul_timed; null for the other labs.
    /// Lab 04: zeroes the record the kit's lab 03 kernel keeps of its launches (grader/runner/lab04); null elsewhere.
    void (*reset_record)() = nullptr;
    /// Lab 04: that record, read back after a call of matmul_timed; null elsewhere.
    KernelRecord (*read_record)() = nullptr;
    /// The dynamic shared memory contract_launch gives the kernel on a rows × inner × cols product, the launcher's
    /// own launches' (launch_record.hpp), learned by a call of the launcher where none on that shape was recorded;
    /// null where the kit's launch gives none (lab 04's kit kernel, a gate's model).
    std::size_t (*contract_dynamic_shared)(int rows, int inner, int cols) = nullptr;
};

/// The lab this runner holds: the adapter's, linked into the runner, or the runner host's module loaded last.
const RunnerLab& runner_lab();

/// Loads a lab's module (a shared object of the lab's files, adapter and module_entry.cpp) at @p tile_width and
/// answers for it from then on; returns an empty string, or why it could not. Set by the runner host
/// (runner_host.cpp) before main runs; null in a runner built with its one lab.
extern std::string (*load_lab_module)(const std::string& path, int tile_width);

/// TILE_WIDTH the lab was built with, as the checker says (--tile-width): the adapters are kit code built once
/// per lab, so they learn it here rather than from the macro.
int contract_tile_width();

/// The contract's block: TILE_WIDTH × TILE_WIDTH threads.
inline dim3 contract_block(int tile_width) {
    return dim3(static_cast<unsigned>(tile_width), static_cast<unsigned>(tile_width));
}
/// The grid of a lab whose blocks compute @p tile × @p tile tiles of P (labs 05 and up): partial tiles included.
inline dim3 block_tile_grid(int rows, int cols, int tile) {
    return dim3(static_cast<unsigned>((cols + tile - 1) / tile), static_cast<unsigned>((rows + tile - 1) / tile));
}
/// The contract's grid: one block per TILE_WIDTH × TILE_WIDTH tile of P, partial tiles included.
inline dim3 contract_grid(int rows, int cols, int tile_width) {
    return dim3(static_cast<unsigned>((cols + tile_width - 1) / tile_width),
                static_cast<unsigned>((rows + tile_width - 1) / tile_width));
}
/// A lab's grid (generic.cu.in): block_tile_grid for a lab with a configuration of its own (@p block_tile, its
/// labs.hpp constant), else (0) the contract's for the tile width the runner is told.
inline dim3 lab_grid(int rows, int cols, int block_tile) {
    return block_tile > 0 ? block_tile_grid(rows, cols, block_tile) : contract_grid(rows, cols, contract_tile_width());
}
/// A lab's block (generic.cu.in): @p threads of a lab with a configuration of its own, else (0) the contract's.
inline dim3 lab_block(int threads) {
    return threads > 0 ? dim3(static_cast<unsigned>(threads)) : contract_block(contract_tile_width());
}

}  // namespace tilelab::runner
