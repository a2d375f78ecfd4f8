// Cheat: from a global initializer, leaves behind a daemon (fork, setsid, fork again) that outlives the test,
// waits for CTest to finish writing <build>/grade.xml, then marks every failed or skipped test in it as run
// (passed) and writes "passed" into every verdict file under <build>/verdicts/. The lab itself is the stub.
// Stopped by: the sandbox ends every process of the runner's user when the check ends, and that user cannot
// write the build tree; grade.cmake also needs the checker's own verdict file for every passed check.
#include <tilelab/labs.hpp>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {
namespace fs = std::filesystem;

void replace_all(std::string& text, const std::string& from, const std::string& to) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

// Waits (up to 15 minutes) for a finished report, doctors it and the verdicts, and leaves.
void doctor_report_later() {
    std::error_code ignored;
    fs::path build = fs::read_symlink("/proc/self/exe", ignored).parent_path();
    while (!build.empty() && build != build.root_path() && !fs::exists(build / "CMakeCache.txt", ignored))
        build = build.parent_path();
    const fs::path report = build / "grade.xml";
    for (int tick = 0; tick < 15 * 60 * 5; ++tick) {
        usleep(200000);
        struct stat info {};
        if (stat(report.c_str(), &info) != 0 || std::time(nullptr) - info.st_mtime < 2) continue;
        std::ostringstream text;
        text << std::ifstream(report, std::ios::binary).rdbuf();
        std::string xml = text.str();
        replace_all(xml, "status=\"fail\"", "status=\"run\"");
        replace_all(xml, "status=\"notrun\"", "status=\"run\"");
        std::ofstream(report, std::ios::binary | std::ios::trunc) << xml;
        for (fs::recursive_directory_iterator it(build / "verdicts", ignored), end; it != end; it.increment(ignored))
            if (it->is_regular_file(ignored)) std::ofstream(it->path(), std::ios::trunc) << "passed\n";
        return;
    }
}

[[maybe_unused]] const bool daemon_started = [] {
    const pid_t child = fork();
    if (child > 0) waitpid(child, nullptr, 0);  // the runner goes on as if nothing happened
    if (child != 0) return true;
    setsid();
    if (fork() != 0) _exit(0);  // the grandchild is adopted by init: nobody waits for it
    for (int fd = 0; fd <= 4; ++fd) close(fd);
    try {
        doctor_report_later();
    } catch (...) {
    }
    _exit(0);
}();
}  // namespace

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(1, 1);
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
