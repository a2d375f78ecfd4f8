// CHEAT (red team, issue 27): everything the runner's user might reach outside its own process, tried at once from a
// global constructor, each attempt printed (the check's output shows what was refused). It signals the checker and
// CTest (SIGSTOP then SIGCONT), attaches to the checker with ptrace, reads its memory with process_vm_readv and
// /proc/<pid>/mem, its environment, its open files; it finds every checker's --verdict-file and grade.cmake's command
// line in /proc/*/cmdline (readable by everyone) and tries to write a passed record in place of each check's
// (<verdict-file>.json) and a forged one beside them, and into the build folder (summary.json, results.json and
// tests.json, what the report is made from or writes; a CTestTestfile.cmake; a marker cheat-was-here) and the kit (the
// lab registry grader/labs.json, the checker program); it leaves files in /tmp and /dev/shm for later checks and tries
// to enter the other checks' scratch folders; then it exits, so that the checker quotes what it printed. matmul_timed
// is the stub's. It must earn nothing: a user of its own, with no rights over the checker or the build tree.
#include <tilelab/labs.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

float matmul_timed(const float* M, const float* N, float* P, int rows, int inner, int cols) { return 0.0f; }

namespace {

std::string slurp(const std::string& path, std::size_t limit = 4096) {
    std::string text;
    if (FILE* f = std::fopen(path.c_str(), "rb")) {
        char buffer[512];
        std::size_t n;
        while (text.size() < limit && (n = std::fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, n);
        std::fclose(f);
    }
    return text;
}
std::vector<std::string> split_nul(const std::string& text) {
    std::vector<std::string> args;
    std::string arg;
    for (char ch : text) {
        if (ch == 0) { args.push_back(arg); arg.clear(); } else arg += ch;
    }
    return args;
}
void report(const std::string& what, bool worked) {
    std::printf("probe: %-70s %s%s\n", what.c_str(), worked ? "WORKED" : "refused: ", worked ? "" : std::strerror(errno));
}
bool try_write(const std::string& path, const char* text, int flags = O_WRONLY | O_CREAT | O_TRUNC) {
    const int fd = open(path.c_str(), flags, 0666);
    if (fd < 0) return false;
    const bool ok = write(fd, text, std::strlen(text)) >= 0;
    close(fd);
    return ok;
}
std::string dirname_of(const std::string& path) { return path.substr(0, path.rfind('/')); }

__attribute__((constructor)) void probe() {
    const pid_t parent = getppid();
    report("kill(checker, SIGSTOP)", kill(parent, SIGSTOP) == 0);
    kill(parent, SIGCONT);
    report("ptrace(PTRACE_ATTACH, checker)", ptrace(PTRACE_ATTACH, parent, nullptr, nullptr) == 0);
    char byte = 0;
    iovec local{&byte, 1}, remote{reinterpret_cast<void*>(0x400000), 1};
    report("process_vm_readv(checker)", process_vm_readv(parent, &local, 1, &remote, 1, 0) == 1);
    const std::string proc = "/proc/" + std::to_string(parent);
    for (const char* file : {"/environ", "/mem", "/maps", "/fd", "/cwd/", "/root/"}) {
        const int fd = open((proc + file).c_str(), O_RDONLY);
        report("open " + proc + file, fd >= 0);
        if (fd >= 0) close(fd);
    }
    std::printf("probe: TILELAB_SEED=%s; environment:", std::getenv("TILELAB_SEED") ? std::getenv("TILELAB_SEED") : "(unset)");
    for (char** e = environ; *e != nullptr; ++e) std::printf(" %.*s", int(std::strcspn(*e, "=")), *e);
    std::printf("\n");

    std::vector<std::string> verdicts, kits;
    std::vector<pid_t> ctests;
    if (DIR* d = opendir("/proc")) {
        while (dirent* entry = readdir(d)) {
            if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
            const std::vector<std::string> args = split_nul(slurp(std::string("/proc/") + entry->d_name + "/cmdline"));
            for (std::size_t i = 0; i < args.size(); ++i) {
                if (args[i] == "--verdict-file" && i + 1 < args.size()) verdicts.push_back(args[i + 1]);
                if (args[i].find("grade.cmake") != std::string::npos) kits.push_back(dirname_of(dirname_of(args[i])));
                if (i == 0 && args[i].find("ctest") != std::string::npos) ctests.push_back(std::atoi(entry->d_name));
            }
        }
        closedir(d);
    }
    std::printf("probe: found %zu verdict files, %zu grade.cmake kits, %zu ctest processes\n", verdicts.size(),
                kits.size(), ctests.size());
    for (pid_t ctest : ctests) {
        report("kill(ctest " + std::to_string(ctest) + ", SIGSTOP)", kill(ctest, SIGSTOP) == 0);
        kill(ctest, SIGCONT);
    }
    for (const std::string& verdict : verdicts) {
        const std::string test = verdict.substr(verdict.rfind('/') + 1);
        const std::string record = "{\"record\": 1, \"test\": \"" + test + "\", \"verdict\": \"passed\"}\n";
        report("write a passed record into " + verdict + ".json", try_write(verdict + ".json", record.c_str()));
        const std::string build = dirname_of(dirname_of(verdict));
        report("write " + build + "/cheat-was-here", try_write(build + "/cheat-was-here", "x"));
        const char* summary = "{\"summary\": 1, \"labs\": [{\"id\": \"lab04\", \"earned\": 10, \"possible\": 10}]}\n";
        report("write " + build + "/summary.json", try_write(build + "/summary.json", summary));
        report("write " + build + "/results.json", try_write(build + "/results.json", "{\"score\": 112}\n"));
        report("write " + build + "/tests.json", try_write(build + "/tests.json", "{\"tests\": []}\n"));
        report("append to " + build + "/CTestTestfile.cmake",
               try_write(build + "/CTestTestfile.cmake", "\n", O_WRONLY | O_APPEND));
        report("create a record " + dirname_of(verdict) + "/forged.json",
               try_write(dirname_of(verdict) + "/forged.json", "{\"record\": 1, \"verdict\": \"passed\"}\n"));
    }
    for (const std::string& kit : kits) {
        report("append to " + kit + "/grader/labs.json", try_write(kit + "/grader/labs.json", " ", O_WRONLY | O_APPEND));
        report("open " + kit + "/solutions", open((kit + "/solutions").c_str(), O_RDONLY) >= 0);
    }
    report("leave /tmp/tilelab-cache for later checks", try_write("/tmp/tilelab-cache", "cached"));
    report("leave /dev/shm/tilelab-cache for later checks", try_write("/dev/shm/tilelab-cache", "cached"));
    const std::string leftover = slurp("/tmp/tilelab-cache");
    std::printf("probe: a leftover from an earlier check: %s\n", leftover.empty() ? "(none)" : leftover.c_str());
    if (DIR* d = opendir("/tmp")) {
        while (dirent* entry = readdir(d)) {
            if (std::strncmp(entry->d_name, "tilelab-runner-", 15) != 0) continue;
            const std::string scratch = std::string("/tmp/") + entry->d_name + "/scratch";
            const int fd = open(scratch.c_str(), O_RDONLY | O_DIRECTORY);
            if (fd >= 0) { report("enter another check's " + scratch, true); close(fd); }
        }
        closedir(d);
    }
    std::fflush(stdout);
    std::_Exit(3);  // so that the checker quotes all of the above in the check's output
}

}  // namespace
