#include "gpu_lease.hpp"

#include <cuda_runtime_api.h>  // says which backend this is

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace tilelab::grader {
namespace {

int open_lock_file(const std::string& path) {
    // Only the grader (root, in a batch) opens these: 0600, so a lab's program, another user, cannot hold them.
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        throw std::runtime_error("cannot open the GPU lock file " + path + ": " + std::strerror(errno) +
                                 " (TILELAB_GPU_LOCK, set by grader/batch.sh)");
    return fd;
}

void lock(int fd, int operation, const std::string& path) {
    while (::flock(fd, operation) != 0) {
        if (errno != EINTR)
            throw std::runtime_error("cannot lock " + path + ": " + std::strerror(errno));
    }
}

// Locks @p fd exclusively within @p patience; false, holding nothing, when it could not.
bool lock_within(int fd, const std::string& path, std::chrono::steady_clock::duration patience) {
    const auto deadline = std::chrono::steady_clock::now() + patience;
    auto pause = std::chrono::microseconds(200);
    for (;;) {
        if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return true;
        if (errno != EWOULDBLOCK && errno != EINTR)
            throw std::runtime_error("cannot lock " + path + ": " + std::strerror(errno));
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(5000));
    }
}

// How long a checker waiting to hold the GPU alone first keeps new requests out while it waits for those under way,
// and how long it then lets them run before it tries again. A request lasts milliseconds, a second at most; one
// whose kernel never ends lasts until its limit, and meanwhile every request of the batch would wait behind the
// checker at the turnstile: a class of 64 stood still for 200 s behind one such submission
// (docs/benchmarks.md#class_sanitizer_groups). The patience doubles once, so that requests that keep overlapping
// cannot keep the checker out, and no further: a request that outlasts two seconds is one the checker must wait for
// anyway. The turn is twice the longest patience, so that while such a request lasts the turnstile is shut a third of
// the time at most: with a patience of up to 4 s and turns of 2 s it was shut two thirds of it, and a class of 64
// finished no submission for three minutes while one kernel that never ended was stopped check after check
// (benchmarks#class_hung_kernel); with a patience of a minute, almost all of it (benchmarks#class_two_gpus). During
// the turn the checker takes the GPU as soon as it finds it free (free_within_turn): a long turn does not keep it
// waiting once the request that lasted has ended.
constexpr auto first_requests_patience = std::chrono::seconds(1);
constexpr auto longest_requests_patience = std::chrono::seconds(2);
constexpr auto requests_turn = std::chrono::milliseconds(4000);

// Whether a hold for @p held already covers a request for @p wanted.
bool covers(GpuUse held, GpuUse wanted) {
    if (held == GpuUse::exclusive) return true;
    if (held == GpuUse::timing) return wanted == GpuUse::timing || wanted == GpuUse::shared;
    return held == wanted;
}

const char* use_name(GpuUse use) {
    switch (use) {
        case GpuUse::starting: return "starting";
        case GpuUse::shared: return "shared";
        case GpuUse::timing: return "timing";
        case GpuUse::exclusive: return "exclusive";
    }
    return "?";
}

}  // namespace

GpuLease::GpuLease(std::string path) : path_(std::move(path)) {}

GpuLease::~GpuLease() {
    if (held_) write_hold_line(std::chrono::steady_clock::now());  // a timing or exclusive hold ends with the process
    for (const int fd : {lock_fd_, contexts_fd_, turnstile_fd_, starts_fd_, measurers_fd_})
        if (fd >= 0) ::close(fd);
}

void GpuLease::open_lock_files() {
    if (lock_fd_ >= 0) return;
    lock_fd_ = open_lock_file(path_);
    contexts_fd_ = open_lock_file(path_ + ".contexts");
    turnstile_fd_ = open_lock_file(path_ + ".turnstile");
    starts_fd_ = open_lock_file(path_ + ".starts");
    measurers_fd_ = open_lock_file(path_ + ".measurers");
}

std::chrono::steady_clock::duration GpuLease::hold(GpuUse use) {
    const auto start = std::chrono::steady_clock::now();
    if (path_.empty() || (held_ && covers(use_, use))) return {};
    // A hold that does not cover this use is given up first: waiting at the turnstile while holding it would
    // deadlock with a checker at the turnstile that waits for this one to let go.
    release();
    open_lock_files();
    const std::string turnstile = path_ + ".turnstile", contexts = path_ + ".contexts", starts = path_ + ".starts",
                      measurers = path_ + ".measurers";
    if (use == GpuUse::timing || use == GpuUse::exclusive) {
        // The contexts first, with requests still running: a context takes seconds to create when many programs
        // start at once, and every request of the batch waited for that behind the turnstile.
        // One measuring checker at a time tries, and waits between its tries: others taking turns in its pauses
        // would keep the turnstile shut almost all the time.
        lock(measurers_fd_, LOCK_EX, measurers);
        std::chrono::steady_clock::duration patience = first_requests_patience;
        for (;;) {
            lock(starts_fd_, LOCK_EX, starts);        // new contexts wait behind this one
            lock(contexts_fd_, LOCK_EX, contexts);    // until those being created are done (see GpuUse::timing)
            lock(turnstile_fd_, LOCK_EX, turnstile);  // then new requests wait behind this one too
            if (lock_within(lock_fd_, path_, patience)) break;  // until the requests under way are done
            // One of them lasts: the others' requests run meanwhile, and this checker tries again, more patiently,
            // unless it finds the GPU free in between (the request that lasted has ended, and no other is under way).
            lock(turnstile_fd_, LOCK_UN, turnstile);
            lock(contexts_fd_, LOCK_UN, contexts);
            lock(starts_fd_, LOCK_UN, starts);
            if (free_within_turn()) break;
            patience = std::min<std::chrono::steady_clock::duration>(patience * 2, longest_requests_patience);
        }
        lock(turnstile_fd_, LOCK_UN, turnstile);
        lock(starts_fd_, LOCK_UN, starts);
        lock(measurers_fd_, LOCK_UN, measurers);
    } else if (use == GpuUse::starting) {
        lock(starts_fd_, LOCK_EX, starts);  // not past a checker waiting to hold the GPU alone
        lock(starts_fd_, LOCK_UN, starts);
        lock(contexts_fd_, LOCK_SH, contexts);
    } else {
        lock(turnstile_fd_, LOCK_EX, turnstile);  // not past a checker waiting to hold the GPU alone
        lock(turnstile_fd_, LOCK_UN, turnstile);
        lock(lock_fd_, LOCK_SH, path_);
    }
    asked_ = start;
    held_ = true;
    use_ = use;
    // The wall clock first: the log's start is then never before the hold began, and its end (start plus the
    // steady clock's span, read before unlocking) never after the hold ended, so two holds that did not overlap
    // never look as if they had (scripts/two-gpu-benchmark.sh checks that none that measures did).
    held_since_wall_ = std::chrono::system_clock::now();
    held_since_ = std::chrono::steady_clock::now();
    return held_since_ - start;
}

bool GpuLease::free_within_turn() {
    // Every few milliseconds of the others' turn, takes what a measuring hold takes, each only if it is free at once
    // (so this waits behind no one and no one behind it): a gate then has the GPU as soon as a request that lasted
    // ends at a moment when no other request or context start is under way, not at the turn's end.
    const auto turn_end = std::chrono::steady_clock::now() + requests_turn;
    const std::string starts = path_ + ".starts", contexts = path_ + ".contexts";
    const auto at_once = std::chrono::steady_clock::duration::zero();
    while (std::chrono::steady_clock::now() < turn_end) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        if (!lock_within(starts_fd_, starts, at_once)) continue;
        if (lock_within(contexts_fd_, contexts, at_once)) {
            if (lock_within(lock_fd_, path_, at_once)) return true;  // holding what a try that succeeds holds
            lock(contexts_fd_, LOCK_UN, contexts);
        }
        lock(starts_fd_, LOCK_UN, starts);
    }
    return false;
}

void GpuLease::release_shared() {
    if (use_ == GpuUse::shared || use_ == GpuUse::starting) release();
}

void GpuLease::release() {
    if (!held_) return;
    const auto held_until = std::chrono::steady_clock::now();
    if (use_ != GpuUse::starting) lock(lock_fd_, LOCK_UN, path_);
    lock(contexts_fd_, LOCK_UN, path_ + ".contexts");
    write_hold_line(held_until);
    held_ = false;
}

void GpuLease::log_holds(std::string log, std::string label) {
    log_ = std::move(log);
    label_ = std::move(label);
}

void GpuLease::write_hold_line(std::chrono::steady_clock::time_point held_until) const {
    if (log_.empty()) return;
    using ms = std::chrono::duration<double, std::milli>;
    char line[512];
    const int length = std::snprintf(line, sizeof line, "%s,%s,%.1f,%.3f,%.3f\n", label_.c_str(), use_name(use_),
                                     ms(held_since_ - asked_).count(), ms(held_until - held_since_).count(),
                                     ms(held_since_wall_.time_since_epoch()).count());
    // One write with O_APPEND: lines of checkers running at once do not interleave.
    const int fd = ::open(log_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0 || length <= 0) return;  // a missing line costs a figure, never a grade
    [[maybe_unused]] const ssize_t written = ::write(fd, line, static_cast<std::size_t>(length));
    ::close(fd);
}

std::string holds_label(const std::string& verdict_file) {
    const std::filesystem::path path(verdict_file);
    std::string label = path.parent_path().parent_path().filename().string() + "/" + path.filename().string();
    std::replace_if(label.begin(), label.end(), [](char c) { return c == ',' || c == '\n' || c == '\r'; }, '_');
    return label;
}

GpuLease& gpu_lease() {
#ifdef TILELAB_CPU_BACKEND
    static GpuLease lease{""};
#else
    const char* path = std::getenv("TILELAB_GPU_LOCK");
    static GpuLease lease{path != nullptr ? path : ""};
#endif
    return lease;
}

}  // namespace tilelab::grader
