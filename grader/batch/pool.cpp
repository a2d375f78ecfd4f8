// Grading a list of entries several at once (pool.hpp).
#include "pool.hpp"

#include "batch_plan.hpp"
#include "processes.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <iostream>

namespace tilelab::batch {

namespace {

/// Stops every running worker (each stops its own grading's process group) and waits for them.
void stop_workers(std::vector<pid_t>& slots) {
    for (const pid_t pid : slots) {
        if (pid > 0) ::kill(pid, SIGTERM);
    }
    for (pid_t& pid : slots) {
        while (pid > 0 && ::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
        }
        pid = 0;
    }
}

}  // namespace

void grade_all(const Grading& grading, const std::vector<std::string>& entries, int parallel,
               const std::vector<std::string>& lanes,
               const std::function<void()>& on_stop, int stop_status) {
    std::vector<pid_t> slots(static_cast<std::size_t>(std::max(parallel, 1)), 0);
    std::size_t next = 0;
    for (;;) {
        for (std::size_t slot = 0; slot < slots.size() && next < entries.size(); ++slot) {
            if (slots[slot] != 0) continue;
            std::cout.flush();
            std::cerr.flush();
            const pid_t pid = ::fork();
            if (pid == 0) {
                clear_stop_signal();
                pin_to_gpu(grading.out, static_cast<int>(slot), lanes);
                grade_entry(grading, entries[next]);
                std::cerr.flush();
                ::_exit(0);
            }
            if (pid < 0) break;  // no more processes now: try again once a worker ends
            slots[slot] = pid;
            ++next;
        }
        if (std::all_of(slots.begin(), slots.end(), [](pid_t pid) { return pid == 0; })) return;
        const pid_t done = ::waitpid(-1, nullptr, 0);
        if (const int signal = stop_signal()) {
            if (on_stop) on_stop();
            stop_workers(slots);
            std::exit(stop_status != 0 ? stop_status : 128 + signal);
        }
        std::replace(slots.begin(), slots.end(), done, pid_t{0});
    }
}

}  // namespace tilelab::batch
