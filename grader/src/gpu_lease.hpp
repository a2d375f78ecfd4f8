/// @file gpu_lease.hpp
/// @brief Turns on one GPU among the checkers of a batch: measuring checks hold it alone, the others share it.
#pragma once

#include <chrono>
#include <string>

namespace tilelab::grader {

/// How a check uses the GPU.
enum class GpuUse {
    shared,     ///< Correctness and sanitizer checks: any number at once (each has its own context).
    exclusive,  ///< Checks that measure the GPU (the performance gate, lab 04's clock, memory and error checks).
};

/// A fair reader-writer lock between processes over two lock files, `<path>` and `<path>.turnstile` (flock):
/// a checker waiting to hold the GPU alone stops new checkers from sharing it, so it is not starved. An exclusive
/// hold lasts until release() or the process ends; a shared one until release_shared(). grader/batch.sh names the
/// path (TILELAB_GPU_LOCK, one per GPU) when it grades several
/// submissions on one GPU; within one build, CTest's RUN_SERIAL does the same job.
class GpuLease {
public:
    /// The lease on the lock files at @p path; an empty path holds nothing (every call returns at once).
    explicit GpuLease(std::string path);
    GpuLease(const GpuLease&) = delete;
    GpuLease& operator=(const GpuLease&) = delete;
    ~GpuLease();

    /// Holds the GPU for @p use from now on (a shared hold becomes exclusive; an exclusive one stays) and
    /// returns how long it waited. Throws std::runtime_error when a lock file cannot be opened or locked.
    std::chrono::steady_clock::duration hold(GpuUse use);

    /// Lets go of a shared hold (an exclusive one is kept until the process ends): checks that only share the
    /// GPU hold it for one request at a time, so a check waiting to measure never waits for a whole slow check
    /// (a compute-sanitizer run), only for the requests under way.
    void release_shared();

    /// Lets go of the hold, shared or exclusive: a check that measures only part of the time (the performance
    /// gate) hands the GPU back as soon as it has its timings.
    void release();

    /// Appends one line per hold to @p log (`<label>,<shared|exclusive>,<waited ms>,<held ms>,<start, ms since the
    /// epoch>`), written when the hold ends: how long each check had the GPU, which a batch sums up
    /// (grader/batch/gpu-holds.sh). An empty @p log writes nothing.
    void log_holds(std::string log, std::string label);

private:
    void write_hold_line() const;

    std::string path_;
    std::string log_;
    std::string label_;
    std::chrono::steady_clock::time_point asked_{};
    std::chrono::steady_clock::time_point held_since_{};
    std::chrono::system_clock::time_point held_since_wall_{};
    int lock_fd_ = -1;
    int turnstile_fd_ = -1;
    bool held_ = false;
    GpuUse use_ = GpuUse::shared;
};

/// This checker's lease, on the path in the environment variable TILELAB_GPU_LOCK (none when it is unset, and
/// always none on the CPU backend, which runs no GPU).
GpuLease& gpu_lease();

}  // namespace tilelab::grader
