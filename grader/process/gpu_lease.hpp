/// @file gpu_lease.hpp
/// @brief Turns on one GPU among the checkers of a batch: measuring checks hold it alone, the others share it.
#pragma once

#include <chrono>
#include <string>

namespace tilelab::grader {

/// How a check uses the GPU.
enum class GpuUse {
    starting,   ///< Creating a CUDA context (a lab's program's first request, the checker's device query): it runs
                ///< no kernel, so only the checks that measure must not see it happen (timing, exclusive).
    shared,     ///< Correctness and sanitizer requests: any number at once (each has its own context).
    timing,     ///< The performance gate's timed runs: no other kernel runs or context starts meanwhile (a batch
                ///< measured a 2048³ race's medians moved 1.6× while other programs started, compute-sanitizer's
                ///< most: their starts work on the GPU too).
    exclusive,  ///< Lab 04's measuring checks (clock, memory, errors): nothing else runs or starts, since the
                ///< memory check reads the whole device's free memory.
};

/// A fair reader-writer lock between processes over five lock files (flock): `<path>` (shared by requests, held
/// alone by timing and exclusive holds), `<path>.contexts` (shared by starting holds, held alone by timing and
/// exclusive ones), two turnstiles, `<path>.starts` and `<path>.turnstile`, where a checker waiting to hold the
/// GPU alone stops new contexts and then new requests, so it is not starved, and `<path>.measurers`, which one such
/// checker holds while it tries. It keeps new requests out for a second, then two at most, and lets them run for
/// four in between (taking the GPU as soon as it is found free), so a request that lasts (a kernel that never ends,
/// until its limit) does not stop every other.
/// Keeping context creation (a second or more each when many programs start at once: the driver makes contexts one
/// at a time) off `<path>` lets requests run while contexts start; a hold that measures waits for the contexts under
/// way first, while requests still run, and only then stops new requests and waits for those under way (short: one
/// request each).
/// A timing or exclusive hold lasts until release() or the process ends; a shared or starting one until
/// release_shared(). The path is TILELAB_GPU_LOCK: the batch's, one per GPU, when grader/batch.sh grades several
/// submissions at once, else tilelab-grade's in its build folder; without it a checker holds nothing.
class GpuLease {
public:
    /// The lease on the lock files at @p path; an empty path holds nothing (every call returns at once).
    explicit GpuLease(std::string path);
    GpuLease(const GpuLease&) = delete;
    GpuLease& operator=(const GpuLease&) = delete;
    ~GpuLease();

    /// Holds the GPU for @p use from now on (a hold that does not cover @p use is let go of first; an exclusive
    /// one covers every use) and returns how long it waited. Throws std::runtime_error when a lock file cannot be opened or locked.
    std::chrono::steady_clock::duration hold(GpuUse use);

    /// Lets go of a shared or starting hold (a timing or exclusive one is kept): checks that only share the GPU
    /// hold it for one request at a time, so a check waiting to measure never waits for a whole slow check (a
    /// compute-sanitizer run), only for the requests under way.
    void release_shared();

    /// Lets go of the hold, whatever it is: the performance gate hands the GPU back as soon as it has its timings.
    void release();

    /// Appends one line per hold to @p log (`<label>,<starting|shared|timing|exclusive>,<waited ms>,<held ms>,<start,
    /// ms since the epoch>`, times to the microsecond), written when the hold ends: how long each check had the GPU,
    /// which scripts/class-benchmark.sh sums up and scripts/two-gpu-benchmark.sh checks for overlaps. An empty
    /// @p log writes nothing.
    void log_holds(std::string log, std::string label);

private:
    void write_hold_line(std::chrono::steady_clock::time_point held_until) const;
    /// During the others' turn between a measuring hold's tries: true, holding what a measuring hold holds, as
    /// soon as the GPU is found free; false when the turn ended first.
    bool free_within_turn();
    void open_lock_files();

    std::string path_;
    std::string log_;
    std::string label_;
    std::chrono::steady_clock::time_point asked_{};
    std::chrono::steady_clock::time_point held_since_{};
    std::chrono::system_clock::time_point held_since_wall_{};
    int lock_fd_ = -1;
    int contexts_fd_ = -1;
    int turnstile_fd_ = -1;
    int starts_fd_ = -1;
    int measurers_fd_ = -1;
    bool held_ = false;
    GpuUse use_ = GpuUse::shared;
};

/// The label of a check's holds in a batch's log (GpuLease::log_holds): the check's submission and its record's name,
/// `<build folder>/<verdict file name>` (a batch builds each submission in builds/<student>/ with its records in
/// verdicts/), so that a class's record says whose holds they were. A comma or line break in the student's name
/// (an entry's name is the student's choice) becomes '_': the log is one CSV line per hold.
std::string holds_label(const std::string& verdict_file);

/// This checker's lease, on the path in the environment variable TILELAB_GPU_LOCK (none when it is unset, and
/// always none on the CPU backend, which runs no GPU).
GpuLease& gpu_lease();

}  // namespace tilelab::grader
