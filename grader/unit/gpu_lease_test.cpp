// The batch's GPU lock (grader/process/gpu_lease.hpp) between real processes: a measuring check waits for the
// sharers, and a sharer that comes after a waiting measuring check goes after it (no starvation).
#include "gpu_lease.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

using tilelab::grader::GpuLease;
using tilelab::grader::GpuUse;

namespace {

// A lock path of its own, a pipe on which child processes report their holds, and those children: spawn() starts
// one that holds the lease for @p use, writes @p tag once it has it, keeps it @p hold_ms and exits; next_tag()
// is the next tag written within @p wait_ms, or 0 when none came. Declared before the test's own leases, it is
// torn down after them, so no child is left waiting: it reaps the children and removes the lock files.
class LockScene {
public:
    LockScene() {
        char pattern[] = "/tmp/tilelab-gpu-lease-XXXXXX";
        const int fd = mkstemp(pattern);
        close(fd);
        path = pattern;
        REQUIRE(pipe(channel_) == 0);
    }
    LockScene(const LockScene&) = delete;
    LockScene& operator=(const LockScene&) = delete;
    ~LockScene() {
        int status = 0;
        for (const pid_t pid : children_) waitpid(pid, &status, 0);
        close(channel_[0]);
        close(channel_[1]);
        for (const char* suffix : {"", ".turnstile", ".contexts", ".starts", ".measurers"}) std::remove((path + suffix).c_str());
    }

    void spawn(GpuUse use, char tag, int hold_ms) {
        const pid_t pid = fork();
        if (pid == 0) {
            GpuLease lease{path};
            lease.hold(use);
            if (write(channel_[1], &tag, 1) != 1) _exit(2);
            std::this_thread::sleep_for(std::chrono::milliseconds(hold_ms));
            _exit(0);
        }
        children_.push_back(pid);
    }

    // A child that holds the lease for @p use @p hold_ms at a time, again and again, for @p total_ms; then, when
    // @p within is given, it writes @p within if none of its holds waited more than @p limit_ms, else @p beyond.
    void spawn_repeating(GpuUse use, int hold_ms, int total_ms, char within = 0, char beyond = 0, int limit_ms = 0) {
        const pid_t pid = fork();
        if (pid == 0) {
            const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(total_ms);
            GpuLease lease{path};
            std::chrono::steady_clock::duration longest{};
            while (std::chrono::steady_clock::now() < end) {
                longest = std::max(longest, lease.hold(use));
                std::this_thread::sleep_for(std::chrono::milliseconds(hold_ms));
                lease.release_shared();
            }
            const char tag = longest <= std::chrono::milliseconds(limit_ms) ? within : beyond;
            _exit(within == 0 || write(channel_[1], &tag, 1) == 1 ? 0 : 2);
        }
        children_.push_back(pid);
    }

    char next_tag(int wait_ms) {
        pollfd p{channel_[0], POLLIN, 0};
        if (poll(&p, 1, wait_ms) != 1) return 0;
        char tag = 0;
        return read(channel_[0], &tag, 1) == 1 ? tag : 0;
    }

    std::string path;

private:
    int channel_[2] = {-1, -1};
    std::vector<pid_t> children_;
};

}  // namespace

TEST_SUITE("gpu_lease") {
    TEST_CASE("a hold's label names the submission and the check, and cannot break the log's lines") {
        using tilelab::grader::holds_label;
        CHECK(holds_label("/out/builds/student-054-never-ends/verdicts/graded.lab01.tw16") ==
              "student-054-never-ends/graded.lab01.tw16");
        CHECK(holds_label("/out/builds/ann,b\nc/verdicts/graded.lab02.tw8.perf") == "ann_b_c/graded.lab02.tw8.perf");
    }

    TEST_CASE("an empty path holds nothing and waits for nothing") {
        GpuLease lease{""};
        CHECK(lease.hold(GpuUse::exclusive) == std::chrono::steady_clock::duration::zero());
    }

    TEST_CASE("a measuring check waits for the sharers, and later sharers wait for it") {
        LockScene scene;
        GpuLease sharer{scene.path};
        sharer.hold(GpuUse::shared);

        scene.spawn(GpuUse::exclusive, 'E', 300);
        CHECK_MESSAGE(scene.next_tag(300) == 0, "the exclusive hold was granted while the GPU was shared");
        // A sharer arriving now must queue behind the waiting measuring check, not slip in before it.
        scene.spawn(GpuUse::shared, 'S', 0);
        CHECK_MESSAGE(scene.next_tag(300) == 0, "a sharer got in while a measuring check was waiting");

        sharer.release_shared();
        CHECK(scene.next_tag(3000) == 'E');
        CHECK_MESSAGE(scene.next_tag(100) == 0, "a sharer got in while the GPU was held alone");
        CHECK(scene.next_tag(3000) == 'S');
    }

    TEST_CASE("an exclusive hold released lets sharers in before the process ends") {
        LockScene scene;
        GpuLease measuring{scene.path};
        measuring.hold(GpuUse::exclusive);
        scene.spawn(GpuUse::shared, 'S', 0);
        CHECK_MESSAGE(scene.next_tag(300) == 0, "a sharer got in while the GPU was held alone");
        measuring.release();  // the performance gate, once it has its timings
        CHECK_MESSAGE(scene.next_tag(3000) == 'S', "the sharer still waited after the exclusive hold ended");
        measuring.release_shared();  // nothing held: does nothing
    }

    TEST_CASE("no context starts while the gate times the GPU or the memory check reads it") {
        LockScene scene;
        GpuLease checker{scene.path};
        checker.hold(GpuUse::timing);
        scene.spawn(GpuUse::starting, 'C', 0);
        CHECK_MESSAGE(scene.next_tag(300) == 0, "a context started while the performance gate timed the GPU");
        scene.spawn(GpuUse::shared, 'S', 0);
        CHECK_MESSAGE(scene.next_tag(300) == 0, "a request ran while the performance gate timed the GPU");
        checker.release();
        const char first = scene.next_tag(3000), second = scene.next_tag(3000);
        CHECK(((first == 'C' && second == 'S') || (first == 'S' && second == 'C')));

        checker.hold(GpuUse::exclusive);
        scene.spawn(GpuUse::starting, 'D', 0);
        CHECK_MESSAGE(scene.next_tag(300) == 0, "a context started while the memory check held the GPU");
        checker.release();
        CHECK(scene.next_tag(3000) == 'D');
    }

    TEST_CASE("the gate's timed runs wait for a context being created") {
        LockScene scene;
        scene.spawn(GpuUse::starting, 'C', 600);
        REQUIRE(scene.next_tag(3000) == 'C');
        GpuLease gate{scene.path};
        const auto asked = std::chrono::steady_clock::now();
        gate.hold(GpuUse::timing);
        CHECK_MESSAGE(std::chrono::steady_clock::now() - asked >= std::chrono::milliseconds(400),
                      "the gate timed the GPU while a context was being created");
        gate.release();
    }

    TEST_CASE("while the gate waits for a context being created, requests still run") {
        LockScene scene;
        scene.spawn(GpuUse::starting, 'C', 800);
        REQUIRE(scene.next_tag(3000) == 'C');
        scene.spawn(GpuUse::timing, 'T', 0);
        CHECK_MESSAGE(scene.next_tag(200) == 0, "the gate timed the GPU while a context was being created");
        // The gate is waiting for the context: a request goes on, a new context waits behind the gate.
        scene.spawn(GpuUse::shared, 'S', 0);
        CHECK_MESSAGE(scene.next_tag(300) == 'S', "a request waited for a context being created by another program");
        scene.spawn(GpuUse::starting, 'D', 0);
        CHECK(scene.next_tag(3000) == 'T');
        CHECK(scene.next_tag(3000) == 'D');
    }

    TEST_CASE("a request that lasts does not keep every other request waiting behind a measuring check") {
        LockScene scene;
        GpuLease hung{scene.path};  // a request whose kernel never ends, until its limit
        hung.hold(GpuUse::shared);
        scene.spawn(GpuUse::timing, 'T', 0);
        CHECK_MESSAGE(scene.next_tag(300) == 0, "the measuring check was granted the GPU while it was shared");
        scene.spawn(GpuUse::shared, 'S', 0);  // now behind the measuring check, which waits for `hung`
        CHECK_MESSAGE(scene.next_tag(2500) == 'S',
                      "a request waited behind the measuring check for as long as another request lasted");
        hung.release_shared();
        // Within a second, though the check is then letting others run for 4 s: it takes the GPU once it is free.
        CHECK_MESSAGE(scene.next_tag(1000) == 'T', "the measuring check did not get the GPU once the request ended");
    }

    TEST_CASE("with several measuring checks waiting behind a request that lasts, other requests still run") {
        LockScene scene;
        GpuLease hung{scene.path};
        hung.hold(GpuUse::shared);
        scene.spawn(GpuUse::timing, 'T', 0);
        scene.spawn(GpuUse::exclusive, 'E', 0);
        CHECK(scene.next_tag(300) == 0);
        scene.spawn(GpuUse::shared, 'S', 0);
        CHECK_MESSAGE(scene.next_tag(2500) == 'S', "measuring checks taking turns kept the turnstile shut");
        hung.release_shared();
        const char first = scene.next_tag(8000), second = scene.next_tag(8000);
        CHECK(((first == 'T' && second == 'E') || (first == 'E' && second == 'T')));
    }

    TEST_CASE("a measuring check waiting for a request that lasts long shuts the others out a few seconds at most") {
        LockScene scene;
        GpuLease hung{scene.path};  // a kernel that never ends, under compute-sanitizer: a request of minutes
        hung.hold(GpuUse::shared);
        scene.spawn(GpuUse::timing, 'T', 0);
        CHECK(scene.next_tag(300) == 0);
        // Another program's requests, 20 ms each, for 14 s: each waits at most the longest patience (2 s) and a
        // little; with a patience that doubled up to 4 s they waited 4 s, with one that kept doubling 8 s and more.
        scene.spawn_repeating(GpuUse::shared, 20, 14000, 'W', 'L', 3000);
        CHECK_MESSAGE(scene.next_tag(20000) == 'W', "a request waited more than 3 s behind a waiting measuring check");
        hung.release_shared();
        CHECK_MESSAGE(scene.next_tag(8000) == 'T', "the measuring check did not get the GPU once the request ended");
    }

    TEST_CASE("requests that keep overlapping do not keep a measuring check out for ever") {
        LockScene scene;
        // Two programs, each asking requests of 1.5 s back to back, half a request apart: one is always under way.
        scene.spawn_repeating(GpuUse::shared, 1500, 9000);
        std::this_thread::sleep_for(std::chrono::milliseconds(750));
        scene.spawn_repeating(GpuUse::shared, 1500, 9000);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        scene.spawn(GpuUse::timing, 'T', 0);
        CHECK_MESSAGE(scene.next_tag(7500) == 'T', "the measuring check waited more than 7.5 s for requests of 1.5 s");
    }

    TEST_CASE("sharers share") {
        LockScene scene;
        GpuLease sharer{scene.path};
        sharer.hold(GpuUse::shared);
        scene.spawn(GpuUse::shared, 'S', 0);
        CHECK_MESSAGE(scene.next_tag(3000) == 'S', "a second sharer had to wait");
    }
}
