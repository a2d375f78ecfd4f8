// A batch's cache of compiled lab files (compile_cache.hpp).
#include "compile_cache.hpp"

#include "sandbox.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

extern char** environ;

namespace tilelab::grader {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t max_folder_bytes = 1u << 20;

std::string read_file(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

bool write_file(const fs::path& file, const std::string& text) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << text;
    return static_cast<bool>(out.flush());
}

// FNV-1a, 64 bits: only the name of an entry; a hit compares the whole key.
std::string hash_name(const std::string& text) {
    std::uint64_t h = 14695981039346656037ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    char name[17];
    std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(h));
    return name;
}

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// True where @p word appears in @p text as a whole identifier.
bool has_identifier(const std::string& text, const std::string& word) {
    for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
        const bool starts = at == 0 || !is_identifier_char(text[at - 1]);
        const bool ends = at + word.size() == text.size() || !is_identifier_char(text[at + word.size()]);
        if (starts && ends) return true;
    }
    return false;
}

// Why an #include-like line of @p text (without comments) might read a file outside the lab's folder and the
// compiler's own include paths, or a file chosen by a macro; "" where none does.
std::string include_problem(const std::string& text) {
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        std::size_t i = line.find_first_not_of(" \t");
        if (i == std::string::npos || line[i] != '#') continue;
        i = line.find_first_not_of(" \t", i + 1);
        if (i == std::string::npos) continue;
        std::size_t end = i;
        while (end < line.size() && is_identifier_char(line[end])) ++end;
        const std::string directive = line.substr(i, end - i);
        if (directive != "include" && directive != "include_next" && directive != "import" && directive != "embed")
            continue;
        const std::size_t open = line.find_first_not_of(" \t", end);
        if (open == std::string::npos || (line[open] != '"' && line[open] != '<'))
            return "an #" + directive + " names its file by a macro";
        const std::size_t close = line.find(line[open] == '"' ? '"' : '>', open + 1);
        if (close == std::string::npos) return "an #" + directive + " is not closed";
        const std::string name = line.substr(open + 1, close - open - 1);
        if (name.empty() || name.front() == '/' || name.find("..") != std::string::npos)
            return "an #" + directive + " names " + name;
    }
    return "";
}

// @p text with the build folder in its #line directives written "@build": the CPU backend's translation names the
// lab's file by its path there (with the student's name in it), which only __FILE__ reads, and the prefix map
// (cmake/TileLabRunner.cmake) takes the folder out of __FILE__ again.
std::string build_folder_named(const std::string& text, const std::string& build) {
    if (build.empty()) return text;
    std::istringstream lines(text);
    std::string line, out;
    while (std::getline(lines, line)) {
        const std::size_t hash = line.find_first_not_of(" \t");
        const std::size_t word = hash == std::string::npos || line[hash] != '#' ? std::string::npos
                                                                                : line.find_first_not_of(" \t", hash + 1);
        if (word != std::string::npos && line.compare(word, 5, "line ") == 0)
            if (const std::size_t at = line.find("\"" + build + "/"); at != std::string::npos)
                line.replace(at + 1, build.size(), "@build");
        out += line;
        out += '\n';
    }
    if (!out.empty() && (text.empty() || text.back() != '\n')) out.pop_back();
    return out;
}

}  // namespace

std::optional<CompileRequest> compile_request(const std::vector<std::string>& args) {
    CompileRequest request;
    int sources = 0;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& arg = args[i];
        const bool has_value = i + 1 < args.size();
        if (arg == "-c" && has_value && args[i + 1].front() != '-') {
            request.source = args[++i];
            ++sources;
        } else if (arg == "-c") {
            ++sources;  // "-c" alone: the source is elsewhere on the line; not a form CMake writes for these
            request.source.clear();
        } else if (arg == "-o" && has_value) {
            request.object = args[++i];
        } else if (arg == "-MF" && has_value) {
            request.depfile = args[++i];
        } else if (arg == "-MT" && has_value) {
            request.dep_target = args[++i];
        } else if (!arg.empty() && arg.front() == '@') {
            return std::nullopt;  // a response file: arguments the key would not see
        }
    }
    if (sources != 1 || request.source.empty() || request.object.empty()) return std::nullopt;
    if (request.dep_target.empty()) request.dep_target = request.object;
    return request;
}

std::string without_comments(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    const std::size_t n = text.size();
    auto end_line = [&out] {
        while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) out.pop_back();
        out += '\n';
    };
    while (i < n) {
        const char c = text[i];
        if (c == '/' && i + 1 < n && text[i + 1] == '/') {  // to the end of the line (a spliced line included)
            i += 2;
            while (i < n && text[i] != '\n') {
                if (text[i] == '\\' && i + 1 < n && text[i + 1] == '\n') {
                    end_line();  // the spliced line keeps its number
                    i += 2;
                    continue;
                }
                ++i;
            }
            out += ' ';
        } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
            i += 2;
            out += ' ';
            while (i < n && !(text[i] == '*' && i + 1 < n && text[i + 1] == '/')) {
                if (text[i] == '\n') end_line();
                ++i;
            }
            i = std::min(n, i + 2);
        } else if (c == 'R' && i + 1 < n && text[i + 1] == '"' && (i == 0 || !is_identifier_char(text[i - 1]) ||
                                                                  text[i - 1] == 'u' || text[i - 1] == 'U' ||
                                                                  text[i - 1] == 'L' || text[i - 1] == '8')) {
            // A raw string: R"delimiter( ... )delimiter", kept whole.
            const std::size_t paren = text.find('(', i + 2);
            if (paren == std::string::npos) {
                out.append(text, i, std::string::npos);
                break;
            }
            const std::string closing = ")" + text.substr(i + 2, paren - i - 2) + "\"";
            const std::size_t end = text.find(closing, paren + 1);
            const std::size_t stop = end == std::string::npos ? n : end + closing.size();
            out.append(text, i, stop - i);
            i = stop;
        } else if (c == '"' || (c == '\'' && !(i > 0 && i + 1 < n && std::isxdigit(static_cast<unsigned char>(text[i - 1])) &&
                                               std::isxdigit(static_cast<unsigned char>(text[i + 1]))))) {
            // A literal, escapes included; a ' between digits is a digit separator (1'000), not a literal.
            out += c;
            ++i;
            while (i < n && text[i] != c && text[i] != '\n') {
                if (text[i] == '\\' && i + 1 < n) out += text[i++];
                out += text[i++];
            }
            if (i < n && text[i] == c) out += text[i++];
        } else if (c == '\n') {
            end_line();
            ++i;
        } else {
            out += c;
            ++i;
        }
    }
    // Blank lines at the end change no line's number.
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

std::optional<std::string> compile_cache_key(const std::vector<std::string>& args, const CompileRequest& request,
                                             std::string& why_not) {
    std::error_code error;
    std::ostringstream key;
    key << "tilelab compile cache 1\n";
    struct stat compiler {};
    if (args.empty() || stat(args[0].c_str(), &compiler) != 0) {
        why_not = "the compiler cannot be found by its path";
        return std::nullopt;
    }
    key << "compiler " << args[0] << ' ' << compiler.st_size << ' ' << compiler.st_mtim.tv_sec << '.'
        << compiler.st_mtim.tv_nsec << '\n';
    // A prefix map names the build folder, which holds the student's name; it changes no file the compiler reads.
    const std::string cwd = fs::current_path(error).string();
    for (std::string arg : args) {
        if (arg == request.source) arg = "@source";
        const bool prefix_map = arg.find("-fmacro-prefix-map=") != std::string::npos ||
                                arg.find("-ffile-prefix-map=") != std::string::npos;
        if (const std::size_t at = arg.find(cwd); prefix_map && !cwd.empty() && at != std::string::npos)
            arg.replace(at, cwd.size(), "@build");
        key << "arg " << arg << '\n';
    }
    std::vector<std::string> environment;
    for (char** entry = environ; *entry != nullptr; ++entry)
        if (sandbox_variable_allowed(*entry)) environment.emplace_back(*entry);
    std::sort(environment.begin(), environment.end());
    for (const std::string& entry : environment) key << "env " << entry << '\n';

    // The lab's folder: everything a quoted #include of the source can reach there.
    const fs::path source(request.source);
    const fs::path folder = source.parent_path().empty() ? fs::path(".") : source.parent_path();
    std::vector<fs::path> files;
    std::uintmax_t bytes = 0;
    for (const fs::directory_entry& entry : fs::directory_iterator(folder, error)) {
        if (entry.is_symlink(error) || !entry.is_regular_file(error)) {
            why_not = "the lab's folder holds " + entry.path().filename().string() + ", which is no plain file";
            return std::nullopt;
        }
        bytes += entry.file_size(error);
        files.push_back(entry.path());
    }
    if (error || files.empty()) {
        why_not = "the lab's folder cannot be read";
        return std::nullopt;
    }
    if (bytes > max_folder_bytes) {
        why_not = "the lab's folder holds more than 1 MiB";
        return std::nullopt;
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
        const std::string text = build_folder_named(without_comments(read_file(file)), cwd);
        for (const char* word : {"__DATE__", "__TIME__", "__TIMESTAMP__", "__has_include", "__has_include_next"})
            if (has_identifier(text, word)) {
                why_not = file.filename().string() + " uses " + word;
                return std::nullopt;
            }
        if (const std::string problem = include_problem(text); !problem.empty()) {
            why_not = file.filename().string() + ": " + problem;
            return std::nullopt;
        }
        key << "file " << file.filename().string() << (file == source ? " (the source)" : "") << ' ' << text.size()
            << '\n'
            << text << '\n';
    }
    return key.str();
}

fs::path CompileCache::entry(const std::string& key) const { return folder_ / hash_name(key); }

std::optional<double> CompileCache::fetch(const std::string& key, const CompileRequest& request) const {
    const fs::path dir = entry(key);
    std::error_code error;
    if (!fs::is_regular_file(dir / "object", error) || read_file(dir / "key") != key) return std::nullopt;
    // Written to a file beside the object, then renamed: the build never sees half an object.
    const fs::path partial = request.object + ".cached";
    fs::copy_file(dir / "object", partial, fs::copy_options::overwrite_existing, error);
    if (error) return std::nullopt;
    fs::rename(partial, request.object, error);
    if (error) return std::nullopt;
    if (!request.depfile.empty() && !write_file(request.depfile, request.dep_target + ": " + request.source + "\n"))
        return std::nullopt;
    return std::strtod(read_file(dir / "seconds").c_str(), nullptr);
}

bool CompileCache::claim(const std::string& key, double stale_seconds) const {
    const fs::path claim = entry(key).string() + ".compiling";
    for (int attempt = 0; attempt < 2; ++attempt) {
        const int fd = ::open(claim.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0) {
            ::close(fd);
            return true;
        }
        std::error_code error;
        const auto written = fs::last_write_time(claim, error);
        if (error) continue;  // released meanwhile: try again
        const double age = std::chrono::duration<double>(fs::file_time_type::clock::now() - written).count();
        if (age < stale_seconds) return false;
        fs::remove(claim, error);
    }
    return false;
}

void CompileCache::release(const std::string& key) const {
    std::error_code error;
    fs::remove(entry(key).string() + ".compiling", error);
}

std::optional<double> CompileCache::wait_and_fetch(const std::string& key, const CompileRequest& request,
                                                   double seconds) const {
    const fs::path claim = entry(key).string() + ".compiling";
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    std::error_code error;
    while (fs::exists(claim, error) && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    return fetch(key, request);
}

void CompileCache::store(const std::string& key, const CompileRequest& request, double seconds) const {
    std::error_code error;
    const fs::path dir = entry(key);
    if (fs::exists(dir, error)) return;
    std::random_device entropy;
    const fs::path partial = folder_ / ("partial-" + std::to_string(getpid()) + "-" + std::to_string(entropy()));
    if (!fs::create_directories(partial, error) || !write_file(partial / "key", key) ||
        !write_file(partial / "seconds", std::to_string(seconds))) {
        fs::remove_all(partial, error);
        return;
    }
    fs::copy_file(request.object, partial / "object", error);
    if (!error) fs::rename(partial, dir, error);  // fails when another process stored it first: keep theirs
    if (error) fs::remove_all(partial, error);
}

void CompileCache::note(const std::string& event, double seconds, const CompileRequest& request,
                        const std::string& detail) const {
    char line[1024];
    std::string clean = detail;
    std::replace(clean.begin(), clean.end(), ',', ';');
    std::replace(clean.begin(), clean.end(), '\n', ' ');
    const int length = std::snprintf(line, sizeof line, "%s,%.3f,%s,%s\n", event.c_str(), seconds,
                                     fs::path(request.source).filename().c_str(), clean.c_str());
    if (length <= 0) return;
    // One write of a short line with O_APPEND: lines of processes writing at once do not interleave.
    const int fd = ::open((folder_ / "events.csv").c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return;
    const ssize_t written = ::write(fd, line, std::min<std::size_t>(static_cast<std::size_t>(length), sizeof line - 1));
    (void)written;
    ::close(fd);
}

}  // namespace tilelab::grader
