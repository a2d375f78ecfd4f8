// The sandbox's environment and its cleanup of temporary files (grader/process/sandbox.hpp): what the grader's
// environment holds beyond the allowlist never reaches a lab's program, and what a sandbox user leaves in a shared
// temporary folder is removed, nothing of anyone else's.
#include "sandbox.hpp"

#include <doctest/doctest.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using tilelab::grader::end_sandboxed_processes;
using tilelab::grader::labs_run_as_other_users;
using tilelab::grader::lower_cpu_priority_in_batch;
using tilelab::grader::prepare_sandbox;
using tilelab::grader::remove_sandbox;
using tilelab::grader::remove_files_of;
using tilelab::grader::sandboxed_processes_left;
using tilelab::grader::sandbox_variable_allowed;

namespace {

// The state letter of /proc/<pid>/stat ('Z' once its exit is done), 0 when there is no such process.
char process_state(pid_t pid) {
    std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(file, line) || line.rfind(')') == std::string::npos) return 0;
    return line[line.rfind(')') + 2];
}

}  // namespace

TEST_SUITE("sandbox") {
    TEST_CASE("a runner's processes have ended when ending them returns, not only been sent the signal") {
        // Processes whose exits take a while, as one whose GPU context the driver tears down: here, four of one
        // group with 256 MiB of memory each to give back, more than the cores end at once. The caller's hold on the
        // GPU ends after end_sandboxed_processes returns.
        int ready[2];
        REQUIRE(pipe(ready) == 0);
        const pid_t leader = fork();
        if (leader == 0) {
            setpgid(0, 0);
            for (int other = 0; other < 3; ++other)
                if (fork() == 0) break;  // the same group; each of the four goes on below
            const std::size_t size = std::size_t{256} << 20;
            char* memory = static_cast<char*>(std::malloc(size));
            if (memory != nullptr) std::memset(memory, 1, size);
            const pid_t self = getpid();
            if (write(ready[1], &self, sizeof self) != sizeof self) _exit(2);
            for (;;) pause();
        }
        setpgid(leader, leader);
        close(ready[1]);
        std::vector<pid_t> group;
        for (pid_t pid = 0; group.size() < 4 && read(ready[0], &pid, sizeof pid) == sizeof pid;) group.push_back(pid);
        close(ready[0]);
        REQUIRE(group.size() == 4);
        end_sandboxed_processes(tilelab::grader::Sandbox{}, leader);
        std::string states;  // read at once: each exit gives back 256 MiB, which takes milliseconds
        for (const pid_t pid : group) states += process_state(pid) == 'R' || process_state(pid) == 'S' ||
                                                        process_state(pid) == 'D' ? "running " : "ended ";
        CHECK_MESSAGE(states.find("running") == std::string::npos,
                      "a runner's process was still running when ending them returned: " << states);
        CHECK(!sandboxed_processes_left(tilelab::grader::Sandbox{}, leader));
        int status = 0;
        waitpid(leader, &status, 0);
        CHECK(WIFSIGNALED(status));
    }

    TEST_CASE("a process of the runner's own user that left its group is waited for too") {
        if (geteuid() != 0) return;  // only root can run a program as another user (then the batch does)
        tilelab::grader::Sandbox sandbox;
        sandbox.confined = sandbox.own_uid = true;
        sandbox.uid = sandbox.gid = 2099999999;
        const pid_t child = fork();
        if (child == 0) {
            setsid();  // out of any group the caller knows
            if (setresgid(sandbox.gid, sandbox.gid, sandbox.gid) != 0 || setresuid(sandbox.uid, sandbox.uid, sandbox.uid) != 0)
                _exit(1);
            execl("/bin/sleep", "sleep", "100", static_cast<char*>(nullptr));
            _exit(127);
        }
        // Once it runs sleep as that user, /proc/<pid> is that user's: the scan finds it by its owner.
        for (int tries = 0; tries < 200 && !sandboxed_processes_left(sandbox, 0); ++tries) usleep(10000);
        CHECK(sandboxed_processes_left(sandbox, 0));
        end_sandboxed_processes(sandbox, 0);
        CHECK_FALSE(sandboxed_processes_left(sandbox, 0));
        int status = 0;
        waitpid(child, &status, 0);
        CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL));
    }

    TEST_CASE("the environment a lab's program gets is an allowlist") {
        for (const char* kept : {"PATH=/usr/bin", "LANG=C.UTF-8", "LC_ALL=C", "CUDA_VISIBLE_DEVICES=0",
                                 "NVIDIA_VISIBLE_DEVICES=all", "LD_LIBRARY_PATH=/usr/local/cuda/lib64",
                                 "TILELAB_CPU_WORKERS=2", "NVCC_APPEND_FLAGS=-lineinfo"})
            CHECK_MESSAGE(sandbox_variable_allowed(kept), kept);
        for (const char* dropped : {"TILELAB_SEED=42", "TILELAB_RUNNER_UID=5", "CTEST_INTERACTIVE_DEBUG_MODE=1",
                                    "DASHBOARD_TEST_FROM_CTEST=3.28", "LD_PRELOAD=/tmp/x.so", "HOME=/root",
                                    "TMPDIR=/tmp", "GITHUB_TOKEN=x", "PATHX=1", "CUDA=1"})
            CHECK_MESSAGE(!sandbox_variable_allowed(dropped), dropped);
    }

    TEST_CASE("the labs' programs run as another user only as root, and never when the user asked for is root") {
        // What a folder of the grader's alone (the class's reference store) relies on: a lab's program cannot reach it.
        const char* before = std::getenv("TILELAB_RUNNER_UID");
        const std::string kept = before != nullptr ? before : "";
        ::setenv("TILELAB_RUNNER_UID", "0", 1);
        CHECK_FALSE(labs_run_as_other_users());
        ::unsetenv("TILELAB_RUNNER_UID");
        const auto sandbox = prepare_sandbox();
        CHECK(labs_run_as_other_users() == (geteuid() == 0 && sandbox.confined && sandbox.uid != 0));
        if (geteuid() != 0) CHECK_FALSE(labs_run_as_other_users());
        remove_sandbox(sandbox);
        if (before != nullptr) ::setenv("TILELAB_RUNNER_UID", kept.c_str(), 1);
    }

    TEST_CASE("a batch's work that no clock judges runs at the niceness it names, and nothing else changes it") {
        // In a child, with @p nice in the environment: the niceness after lower_cpu_priority_in_batch (plus 20).
        auto niceness_after = [](const char* nice) {
            const pid_t child = fork();
            if (child == 0) {
                if (nice != nullptr) ::setenv("TILELAB_CPU_NICE", nice, 1); else ::unsetenv("TILELAB_CPU_NICE");
                lower_cpu_priority_in_batch();
                errno = 0;
                const int now = getpriority(PRIO_PROCESS, 0);
                _exit(errno == 0 ? now + 20 : 255);
            }
            int status = 0;
            waitpid(child, &status, 0);
            return WIFEXITED(status) ? WEXITSTATUS(status) - 20 : 99;
        };
        errno = 0;
        const int own = getpriority(PRIO_PROCESS, 0);
        REQUIRE(errno == 0);
        if (own < 10) CHECK(niceness_after("10") == 10);
        for (const char* ignored : {static_cast<const char*>(nullptr), "", "0", "-5", "25", "ten"})
            CHECK_MESSAGE(niceness_after(ignored) == own, (ignored != nullptr ? ignored : "(unset)"));
    }

    TEST_CASE("what a sandbox user leaves in a shared folder is removed, nothing else") {
        if (geteuid() != 0) return;  // only root can give files to another user, as the sandbox does
        namespace fs = std::filesystem;
        const uid_t sandbox_uid = 2000000000u + static_cast<uid_t>(getpid() % 100000);
        const fs::path shared = fs::temp_directory_path() / ("tilelab-sandbox-test-" + std::to_string(getpid()));
        fs::remove_all(shared);
        fs::create_directories(shared / "others" / "deep");
        fs::create_directories(shared / "open" / "inner");
        chmod(shared.c_str(), 01777);                           // like /tmp
        chmod((shared / "open").c_str(), 01777);                // a world-writable folder of someone else's
        auto file = [](const fs::path& path, uid_t owner) {
            std::ofstream(path) << "x";
            CHECK(chown(path.c_str(), owner, owner) == 0);
        };
        file(shared / "left-behind", sandbox_uid);
        fs::create_directories(shared / "its-folder" / "sub");
        file(shared / "its-folder" / "sub" / "f", sandbox_uid);
        CHECK(chown((shared / "its-folder").c_str(), sandbox_uid, sandbox_uid) == 0);
        file(shared / "open" / "dropped", sandbox_uid);
        file(shared / "mine", 0);
        file(shared / "others" / "deep" / "kept", 0);
        file(shared / "open" / "inner" / "kept", 0);
        remove_files_of(sandbox_uid, shared);
        CHECK(!fs::exists(shared / "left-behind"));
        CHECK(!fs::exists(shared / "its-folder"));
        CHECK(!fs::exists(shared / "open" / "dropped"));
        CHECK(fs::exists(shared / "mine"));
        CHECK(fs::exists(shared / "others" / "deep" / "kept"));
        CHECK(fs::exists(shared / "open" / "inner" / "kept"));
        fs::remove_all(shared);
    }
}
