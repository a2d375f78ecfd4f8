// Cheat: from a global initializer, leaves behind a daemon (fork, setsid, fork again) that outlives the test and
// goes after what the report is made from: until the report is written (<build>/summary.json), it keeps rewriting
// every record of its own lab, <build>/verdicts/graded.lab02.*.json, to "verdict": "passed", so that tilelab-report
// would count the stub's failed checks as passed. The lab itself is the stub.
// Stopped by: the sandbox ends every process of the runner's user when the check ends, and that user cannot
// write the build tree (verdicts/ is the checker's); the report reads nothing else a lab could change (CTest's own
// pass or fail counts for nothing, and a test without its record is failed).
#include <tilelab/labs.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {
namespace fs = std::filesystem;

// Every record of lab 02's checks in <verdicts>, with its verdict made "passed".
void pass_own_records(const fs::path& verdicts) {
    static const std::regex verdict("\"verdict\"\\s*:\\s*\"(failed|skipped)\"");
    std::error_code ignored;
    for (fs::directory_iterator it(verdicts, ignored), end; it != end; it.increment(ignored)) {
        const std::string name = it->path().filename().string();
        if (name.rfind("graded.lab02.", 0) != 0 || it->path().extension() != ".json") continue;
        std::ostringstream text;
        text << std::ifstream(it->path(), std::ios::binary).rdbuf();
        const std::string doctored = std::regex_replace(text.str(), verdict, "\"verdict\": \"passed\"");
        if (doctored != text.str()) std::ofstream(it->path(), std::ios::binary | std::ios::trunc) << doctored;
    }
}

// Whether <summary> was written after <since>: the report of this grading, not one of an earlier grading.
bool reported_since(const fs::path& summary, fs::file_time_type since) {
    std::error_code missing;
    const fs::file_time_type written = fs::last_write_time(summary, missing);
    return !missing && written >= since;
}

// Doctors the records (up to 15 minutes) until the report has been written from them, and leaves.
void doctor_records_until_reported() {
    const fs::file_time_type started = fs::file_time_type::clock::now();
    std::error_code ignored;
    fs::path build = fs::read_symlink("/proc/self/exe", ignored).parent_path();
    while (!build.empty() && build != build.root_path() && !fs::exists(build / "CMakeCache.txt", ignored))
        build = build.parent_path();
    for (int tick = 0; tick < 15 * 60 * 5 && !reported_since(build / "summary.json", started); ++tick) {
        usleep(200000);
        pass_own_records(build / "verdicts");
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
        doctor_records_until_reported();
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
