#include "suite_series.hpp"

#include "check_record.hpp"
#include "lab_registry.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include <fcntl.h>
#include <unistd.h>

namespace tilelab::grader {

/// Exit code that CTest's SKIP_RETURN_CODE turns into "skipped".
constexpr int exit_skipped = 77;

RequestLimits build_request_limits() {
    return {TILELAB_REQUEST_LIMITS};  // seconds, CPU-seconds, gpu: the build's (grader/CMakeLists.txt)
}

SeriesSuite series_suite(const std::string& name, double seconds, const RequestLimits& limits) {
    const SuiteEntry* entry = find_suite(name);
    if (entry == nullptr) throw std::invalid_argument("--suite " + name + ": no suite of that name in the registry");
    SeriesSuite suite{name, seconds};
    const std::string kind = entry->kind;
    const double factor = kind == "timing" ? entry->time_factor : kind == "correctness" || kind == "structure" ? 1 : 0;
    suite.request_limit_seconds = limits.seconds * factor;
    suite.request_cpu_limit_seconds = limits.cpu_seconds * factor;
    suite.exclusive_gpu = limits.gpu && entry->measures_gpu && kind != "gate";
    return suite;
}

SeriesSuite parse_series_suite(const std::string& text) {
    const std::size_t colon = text.find(':');
    if (colon == 0 || colon == std::string::npos)
        throw std::invalid_argument("--suite " + text + ": give <suite>:<seconds>");
    const double seconds = std::strtod(text.c_str() + colon + 1, nullptr);
    if (seconds <= 0) throw std::invalid_argument("--suite " + text + ": the limit must be positive");
    return series_suite(text.substr(0, colon), seconds, build_request_limits());
}

SeriesSuite limits_after_time_out(SeriesSuite suite, bool earlier_ran_out) {
    if (earlier_ran_out) {
        suite.request_limit_seconds *= limit_share_after_time_out;
        suite.request_cpu_limit_seconds *= limit_share_after_time_out;
    }
    return suite;
}

OutputToFile::OutputToFile(const std::string& path) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
    std::fflush(stdout);
    std::cout.flush();
    saved_stdout_ = ::dup(STDOUT_FILENO);
    ::dup2(fd, STDOUT_FILENO);
    ::close(fd);
}

OutputToFile::~OutputToFile() {
    std::fflush(stdout);
    std::cout.flush();
    if (saved_stdout_ >= 0) {
        ::dup2(saved_stdout_, STDOUT_FILENO);
        ::close(saved_stdout_);
    }
}

const char* verdict_word(int exit_status) {
    return exit_status == 0 ? "passed" : exit_status == exit_skipped ? "skipped" : "failed";
}

int show_verdict(const std::string& verdict_file) {
    std::ifstream log(log_path(verdict_file));
    if (log.is_open() && log.peek() != std::ifstream::traits_type::eof()) std::cout << log.rdbuf();
    std::cout.flush();
    try {
        return verdict_exit_status(read_record(record_path(verdict_file)).verdict);
    } catch (const std::exception& error) {
        std::printf("error: %s: the check's series (the test named like this one, with .checks in place of the "
                    "check) did not run or did not finish; see its output\n", error.what());
        return 1;
    }
}

}  // namespace tilelab::grader
