#include "suite_series.hpp"

#include "check_record.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include <fcntl.h>
#include <unistd.h>

namespace tilelab::grader {

/// Exit code that CTest's SKIP_RETURN_CODE turns into "skipped".
constexpr int exit_skipped = 77;

SeriesSuite parse_series_suite(const std::string& text) {
    std::istringstream in(text);
    std::string name, seconds, request_limit, use, request_cpu_limit;
    if (!std::getline(in, name, ':') || !std::getline(in, seconds, ':') || !std::getline(in, request_limit, ':') ||
        !std::getline(in, use, ':') || name.empty() || (use != "shared" && use != "exclusive"))
        throw std::invalid_argument("--suite " + text +
                                    ": give <suite>:<seconds>:<request limit>:<shared|exclusive>[:<request CPU limit>]");
    std::getline(in, request_cpu_limit);
    SeriesSuite suite;
    suite.name = name;
    suite.seconds = std::strtod(seconds.c_str(), nullptr);
    suite.request_limit_seconds = std::strtod(request_limit.c_str(), nullptr);
    suite.request_cpu_limit_seconds = std::strtod(request_cpu_limit.c_str(), nullptr);
    suite.exclusive_gpu = use == "exclusive";
    if (suite.seconds <= 0) throw std::invalid_argument("--suite " + text + ": the limit must be positive");
    return suite;
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
