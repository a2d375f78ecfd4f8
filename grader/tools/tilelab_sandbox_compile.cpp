// tilelab-sandbox-compile: CMake's compiler launcher for a lab's files. When the build runs as root it compiles
// as a user of its own (grader/process/sandbox.cpp) that can write only a scratch folder: the compiler's outputs
// (-o, -MF) are written there and copied into the build tree by this program afterwards. Otherwise it simply
// runs the compiler. As root, with TILELAB_COMPILE_CACHE naming a folder (grader/batch.sh sets it), a compile whose
// inputs equal an earlier one's takes that one's object (compile_cache.hpp): only as root with a user id of the
// compile's own, since only then can no student's program write the cache or this compile's outputs (the compiler
// and the labs' programs run as users of their own).
//   tilelab-sandbox-compile <compiler> <arguments...>
#include "compile_cache.hpp"
#include "sandbox.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <cstring>
#include <iostream>
#include <optional>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace {

std::vector<char*> pointers(std::vector<std::string>& args) {
    std::vector<char*> out;
    for (std::string& arg : args) out.push_back(arg.data());
    out.push_back(nullptr);
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: tilelab-sandbox-compile <compiler> <arguments...>\n");
        return 2;
    }
    std::vector<std::string> args(argv + 1, argv + argc);
    tilelab::grader::lower_cpu_priority_in_batch();  // no clock judges a compile (sandbox.hpp)
    if (geteuid() != 0) {
        auto p = pointers(args);
        execvp(p[0], p.data());
        std::perror(argv[1]);
        return 127;
    }
    using namespace tilelab::grader;
    tilelab::grader::Sandbox sandbox;
    try {
        sandbox = tilelab::grader::prepare_sandbox();
    } catch (const std::exception& error) {
        std::fprintf(stderr, "tilelab-sandbox-compile: %s\n", error.what());
        return 1;
    }
    // The batch's cache: only where the compiler runs as a user of its own, which nothing else runs as (with the
    // shared "nobody", a lab's program of another submission could reach this compile's scratch folder). The key
    // is taken before anything compiles. Whatever goes wrong with the cache, the file is compiled as without it.
    std::optional<CompileCache> cache;
    std::optional<CompileRequest> request;
    std::optional<std::string> key;
    bool claimed = false;  // this process compiles the key for every submission that has it
    const char* folder = std::getenv("TILELAB_COMPILE_CACHE");
    if (folder != nullptr && *folder != '\0' && sandbox.confined && sandbox.own_uid) try {
        request = compile_request(args);
        if (request) {
            cache.emplace(folder);
            std::string why_not;
            key = compile_cache_key(args, *request, why_not);
            if (!key) {
                cache->note("uncached", 0, *request, why_not);
            } else if (const std::optional<double> saved = cache->fetch(*key, *request)) {
                cache->note("hit", *saved, *request, "");
                tilelab::grader::remove_sandbox(sandbox);
                return 0;
            } else if (!cache->claim(*key)) {
                // Another submission compiles this very file now: its object, once it has one (a minute at most,
                // many times a lab's compile; a compile it does not keep is done here after all).
                if (const std::optional<double> waited = cache->wait_and_fetch(*key, *request, 60)) {
                    cache->note("hit", *waited, *request, "after waiting for the same compile");
                    tilelab::grader::remove_sandbox(sandbox);
                    return 0;
                }
            } else {
                claimed = true;
            }
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "tilelab-sandbox-compile: the class's compile cache is not used: %s\n", error.what());
        key.reset();
    }
    const auto started = std::chrono::steady_clock::now();

    // Outputs go to the scratch folder, the one place the compiler's user may write.
    std::vector<std::pair<std::string, std::string>> outputs;
    for (std::size_t i = 0; i + 1 < args.size(); ++i) {
        if (args[i] != "-o" && args[i] != "-MF") continue;
        const std::string scratch = sandbox.scratch + "/output" + std::to_string(outputs.size());
        outputs.emplace_back(args[i + 1], scratch);
        args[i + 1] = scratch;
    }
    // With a key, what the compiler prints goes to a file first: only a compile that printed nothing is kept (a
    // warning names the student's files), and what it printed is passed on after.
    const std::string printed = sandbox.scratch + "/printed";
    const pid_t child = fork();
    if (child == 0) {
        setpgid(0, 0);
        if (!tilelab::grader::become_sandbox_user(sandbox)) {
            std::fprintf(stderr, "tilelab-sandbox-compile: cannot take the sandbox's user id\n");
            _exit(127);
        }
        setenv("HOME", sandbox.scratch.c_str(), 1);
        setenv("TMPDIR", sandbox.scratch.c_str(), 1);
        if (key) {
            const int fd = open(printed.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
            if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0) _exit(127);
        }
        auto p = pointers(args);
        execvp(p[0], p.data());
        std::perror(p[0]);
        _exit(127);
    }
    int status = 1;
    if (child > 0) waitpid(child, &status, 0);
    tilelab::grader::end_sandboxed_processes(sandbox, child);
    int result = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    std::string said;
    if (key) {
        // Not through a link the compiler's user might have left there.
        const int fd = open(printed.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        char buffer[65536];
        for (ssize_t got; fd >= 0 && (got = read(fd, buffer, sizeof buffer)) > 0;) said.append(buffer, got);
        if (fd >= 0) close(fd);
        std::cerr << said << std::flush;
    }
    if (result == 0) {
        for (const auto& [wanted, written] : outputs) {
            std::error_code error;
            std::filesystem::copy_file(written, wanted, std::filesystem::copy_options::overwrite_existing, error);
            if (error) {
                std::fprintf(stderr, "tilelab-sandbox-compile: %s was not written: %s\n", wanted.c_str(),
                             error.message().c_str());
                result = 1;
            }
        }
    }
    if (key) try {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        const bool kept = result == 0 && said.empty();
        if (kept) {
            cache->store(*key, *request, seconds);
            cache->note("stored", seconds, *request, "");
        } else {
            cache->note("uncached", seconds, *request, result == 0 ? "the compiler printed something" : "it failed");
        }
        if (claimed) cache->release(*key, kept);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "tilelab-sandbox-compile: the class's compile cache did not keep this compile: %s\n",
                     error.what());
    }
    tilelab::grader::remove_sandbox(sandbox);
    return result;
}
