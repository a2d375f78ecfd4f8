// The batch's GPU lock (grader/src/gpu_lease.hpp) between real processes: a measuring check waits for the
// sharers, and a sharer that comes after a waiting measuring check goes after it (no starvation).
#include "gpu_lease.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

using tilelab::grader::GpuLease;
using tilelab::grader::GpuUse;

namespace {

std::string lock_path() {
    char pattern[] = "/tmp/tilelab-gpu-lease-XXXXXX";
    const int fd = mkstemp(pattern);
    close(fd);
    return pattern;
}

// A child process that holds the lease at @p path for @p use, writes one byte @p tag to @p pipe_out once it has
// it, keeps it for @p hold_ms, and exits.
pid_t spawn_holder(const std::string& path, GpuUse use, char tag, int pipe_out, int hold_ms) {
    const pid_t pid = fork();
    if (pid == 0) {
        GpuLease lease{path};
        lease.hold(use);
        if (write(pipe_out, &tag, 1) != 1) _exit(2);
        std::this_thread::sleep_for(std::chrono::milliseconds(hold_ms));
        _exit(0);
    }
    return pid;
}

// The next tag written to @p pipe_in within @p wait_ms, or 0 when none came.
char next_tag(int pipe_in, int wait_ms) {
    pollfd p{pipe_in, POLLIN, 0};
    if (poll(&p, 1, wait_ms) != 1) return 0;
    char tag = 0;
    return read(pipe_in, &tag, 1) == 1 ? tag : 0;
}

}  // namespace

TEST_SUITE("gpu_lease") {
    TEST_CASE("an empty path holds nothing and waits for nothing") {
        GpuLease lease{""};
        CHECK(lease.hold(GpuUse::exclusive) == std::chrono::steady_clock::duration::zero());
    }

    TEST_CASE("a measuring check waits for the sharers, and later sharers wait for it") {
        const std::string path = lock_path();
        int channel[2];
        REQUIRE(pipe(channel) == 0);
        GpuLease sharer{path};
        sharer.hold(GpuUse::shared);

        const pid_t measuring = spawn_holder(path, GpuUse::exclusive, 'E', channel[1], 300);
        CHECK_MESSAGE(next_tag(channel[0], 300) == 0, "the exclusive hold was granted while the GPU was shared");
        // A sharer arriving now must queue behind the waiting measuring check, not slip in before it.
        const pid_t late = spawn_holder(path, GpuUse::shared, 'S', channel[1], 0);
        CHECK_MESSAGE(next_tag(channel[0], 300) == 0, "a sharer got in while a measuring check was waiting");

        sharer.release_shared();
        CHECK(next_tag(channel[0], 3000) == 'E');
        CHECK_MESSAGE(next_tag(channel[0], 100) == 0, "a sharer got in while the GPU was held alone");
        CHECK(next_tag(channel[0], 3000) == 'S');
        int status = 0;
        waitpid(measuring, &status, 0);
        waitpid(late, &status, 0);
        close(channel[0]);
        close(channel[1]);
        std::remove(path.c_str());
        std::remove((path + ".turnstile").c_str());
        std::remove((path + ".contexts").c_str());
    }

    TEST_CASE("an exclusive hold released lets sharers in before the process ends") {
        const std::string path = lock_path();
        int channel[2];
        REQUIRE(pipe(channel) == 0);
        GpuLease measuring{path};
        measuring.hold(GpuUse::exclusive);
        const pid_t sharer = spawn_holder(path, GpuUse::shared, 'S', channel[1], 0);
        CHECK_MESSAGE(next_tag(channel[0], 300) == 0, "a sharer got in while the GPU was held alone");
        measuring.release();  // the performance gate, once it has its timings
        CHECK_MESSAGE(next_tag(channel[0], 3000) == 'S', "the sharer still waited after the exclusive hold ended");
        measuring.release_shared();  // nothing held: does nothing
        int status = 0;
        waitpid(sharer, &status, 0);
        close(channel[0]);
        close(channel[1]);
        std::remove(path.c_str());
        std::remove((path + ".turnstile").c_str());
        std::remove((path + ".contexts").c_str());
    }

    TEST_CASE("a context may start while the gate times the GPU, not while the memory check reads it") {
        const std::string path = lock_path();
        int channel[2];
        REQUIRE(pipe(channel) == 0);
        GpuLease checker{path};
        checker.hold(GpuUse::timing);
        const pid_t first = spawn_holder(path, GpuUse::starting, 'C', channel[1], 0);
        CHECK_MESSAGE(next_tag(channel[0], 3000) == 'C', "a context waited for the performance gate's timed runs");
        const pid_t request = spawn_holder(path, GpuUse::shared, 'S', channel[1], 0);
        CHECK_MESSAGE(next_tag(channel[0], 300) == 0, "a request ran while the performance gate timed the GPU");
        checker.release();
        CHECK(next_tag(channel[0], 3000) == 'S');

        checker.hold(GpuUse::exclusive);
        const pid_t second = spawn_holder(path, GpuUse::starting, 'D', channel[1], 0);
        CHECK_MESSAGE(next_tag(channel[0], 300) == 0, "a context started while the memory check held the GPU");
        checker.release();
        CHECK(next_tag(channel[0], 3000) == 'D');
        int status = 0;
        for (const pid_t pid : {first, request, second}) waitpid(pid, &status, 0);
        close(channel[0]);
        close(channel[1]);
        for (const char* suffix : {"", ".turnstile", ".contexts"}) std::remove((path + suffix).c_str());
    }

    TEST_CASE("sharers share") {
        const std::string path = lock_path();
        int channel[2];
        REQUIRE(pipe(channel) == 0);
        GpuLease sharer{path};
        sharer.hold(GpuUse::shared);
        const pid_t other = spawn_holder(path, GpuUse::shared, 'S', channel[1], 0);
        CHECK_MESSAGE(next_tag(channel[0], 3000) == 'S', "a second sharer had to wait");
        int status = 0;
        waitpid(other, &status, 0);
        close(channel[0]);
        close(channel[1]);
        std::remove(path.c_str());
        std::remove((path + ".turnstile").c_str());
        std::remove((path + ".contexts").c_str());
    }
}
