#include "progress.hpp"

#include "processes.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace tilelab::grade {

std::pair<int, int> progress_of(const std::string& log_text) {
    // The tail is enough (the last status line is before at most a few failures' output), and a long log is read often.
    const std::size_t window = 1 << 18;
    const std::string tail = log_text.size() > window ? log_text.substr(log_text.size() - window) : log_text;
    static const std::regex status(R"((?:^|\n)\[([0-9]+)/([0-9]+)\]|\n *([0-9]+)/([0-9]+) Test)");
    std::pair<int, int> last{0, 0};
    for (auto it = std::sregex_iterator(tail.begin(), tail.end(), status); it != std::sregex_iterator(); ++it) {
        const std::smatch& match = *it;
        const int at = match[1].matched ? 1 : 3;
        last = {std::stoi(match[at].str()), std::stoi(match[at + 1].str())};
    }
    return last;
}

namespace {

/// The whole of @p path as it is now ("" where it cannot be read).
std::string file_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

int run_with_progress(const std::vector<std::string>& argv, const std::filesystem::path& log, const std::string& what) {
    const bool terminal = ::isatty(STDOUT_FILENO) != 0;
    const auto started = std::chrono::steady_clock::now();
    std::cout << "TileLab: " << what << std::flush;
    const pid_t pid = batch::start(batch::Command{argv, {}, log, false});
    if (pid < 0) throw std::runtime_error("cannot start " + argv.front());
    int shown_tens = 0;
    std::pair<int, int> shown{0, 0};
    int status = 0;
    for (;;) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);  // before reading: the last read sees all it wrote
        const std::pair<int, int> now = progress_of(file_text(log));
        if (now != shown && now.second > 0) {
            shown = now;
            const int percent = 100 * now.first / now.second;
            if (terminal) {
                std::cout << "\rTileLab: " << what << ": " << now.first << "/" << now.second << " (" << percent << "%)\033[K"
                          << std::flush;
            } else {
                for (; shown_tens + 10 <= percent; shown_tens += 10) std::cout << (shown_tens == 0 ? ": " : " ") << shown_tens + 10 << "%";
                std::cout << std::flush;
            }
        }
        if (done == pid) break;
        if (done < 0) {
            status = 1 << 8;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    const long seconds =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started).count();
    const int exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    std::cout << (!terminal && shown_tens == 0 ? ":" : "") << " done in " << seconds << " s" << std::endl;
    return exit_status;
}

}  // namespace tilelab::grade
