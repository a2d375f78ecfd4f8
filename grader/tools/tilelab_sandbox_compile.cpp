// tilelab-sandbox-compile: CMake's compiler launcher for a lab's files. When the build runs as root it compiles
// as a user of its own (grader/src/sandbox.cpp) that can write only a scratch folder: the compiler's outputs
// (-o, -MF) are written there and copied into the build tree by this program afterwards. Otherwise it simply
// runs the compiler.
//   tilelab-sandbox-compile <compiler> <arguments...>
#include "sandbox.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
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
    if (geteuid() != 0) {
        auto p = pointers(args);
        execvp(p[0], p.data());
        std::perror(argv[1]);
        return 127;
    }
    tilelab::grader::Sandbox sandbox;
    try {
        sandbox = tilelab::grader::prepare_sandbox();
    } catch (const std::exception& error) {
        std::fprintf(stderr, "tilelab-sandbox-compile: %s\n", error.what());
        return 1;
    }
    // Outputs go to the scratch folder, the one place the compiler's user may write.
    std::vector<std::pair<std::string, std::string>> outputs;
    for (std::size_t i = 0; i + 1 < args.size(); ++i) {
        if (args[i] != "-o" && args[i] != "-MF") continue;
        const std::string scratch = sandbox.scratch + "/output" + std::to_string(outputs.size());
        outputs.emplace_back(args[i + 1], scratch);
        args[i + 1] = scratch;
    }
    const pid_t child = fork();
    if (child == 0) {
        setpgid(0, 0);
        if (!tilelab::grader::become_sandbox_user(sandbox)) {
            std::fprintf(stderr, "tilelab-sandbox-compile: cannot take the sandbox's user id\n");
            _exit(127);
        }
        setenv("HOME", sandbox.scratch.c_str(), 1);
        setenv("TMPDIR", sandbox.scratch.c_str(), 1);
        auto p = pointers(args);
        execvp(p[0], p.data());
        std::perror(p[0]);
        _exit(127);
    }
    int status = 1;
    if (child > 0) waitpid(child, &status, 0);
    tilelab::grader::end_sandboxed_processes(sandbox, child);
    int result = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
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
    tilelab::grader::remove_sandbox(sandbox);
    return result;
}
