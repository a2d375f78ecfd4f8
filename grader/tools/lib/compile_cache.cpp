// A batch's cache of compiled lab files (compile_cache.hpp).
#include "compile_cache.hpp"

#include "sandbox.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
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

// What in @p text a line-by-line reading could take otherwise than the compiler does, or null.
const char* misreadable(const std::string& text) {
    if (text.find('\r') != std::string::npos) return "a carriage return";
    if (text.find("??") != std::string::npos) return "\"??\" (a trigraph)";
    if (text.find("%:") != std::string::npos) return "\"%:\" (a digraph of #)";
    if (text.find("@build") != std::string::npos) return "\"@build\"";
    for (std::size_t at = text.find('\\'); at != std::string::npos; at = text.find('\\', at + 1)) {
        const std::size_t next = text.find_first_not_of(" \t", at + 1);
        if (next == std::string::npos || text[next] == '\n') return "a backslash at the end of a line";
    }
    return nullptr;
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

namespace {

// A line that is a comment to the compiler and to nothing else: "//" after blanks, with none of what could end it
// early or carry it on (a carriage return, a backslash, ??/), and, where @p closing_nothing, none of what could
// close a comment, string or raw string opened above it (*, ", ').
bool is_line_comment(const std::string& line, bool closing_nothing) {
    const std::size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line.compare(start, 2, "//") != 0) return false;
    if (line.find_first_of("\r\\") != std::string::npos || line.find("??") != std::string::npos) return false;
    return !closing_nothing || line.find_first_of("*\"'") == std::string::npos;
}

}  // namespace

std::string without_name_comments(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t begin = 0;
    while (begin < text.size()) {
        const std::size_t end = text.find('\n', begin);
        lines.push_back(text.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
        if (end == std::string::npos) break;
        begin = end + 1;
    }
    const bool ends_with_newline = !text.empty() && text.back() == '\n';
    // Leading: nothing is open above them; each becomes an empty line, so every line below keeps its number.
    auto blank = [](const std::string& line) { return line.find_first_not_of(" \t") == std::string::npos; };
    std::size_t first = 0;
    while (first < lines.size() && (blank(lines[first]) || is_line_comment(lines[first], false))) lines[first++].clear();
    // Trailing: dropped, nothing comes after them. They can close nothing opened above (a file that ends inside a
    // comment, string or raw string fails to compile either way), and the line above them must not run on into them.
    std::size_t last = lines.size();
    if (ends_with_newline)
        while (last > first && (blank(lines[last - 1]) || is_line_comment(lines[last - 1], true))) --last;
    if (last < lines.size()) {
        const std::string& above = last > 0 ? lines[last - 1] : std::string();
        const std::size_t end = above.find_last_not_of(" \t");
        if (end != std::string::npos && (above[end] == '\\' || above[end] == '/')) last = lines.size();
    }
    std::string out;
    for (std::size_t i = 0; i < last; ++i) {
        out += lines[i];
        if (i + 1 < lines.size() || ends_with_newline) out += '\n';
    }
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
    // The key leaves the source's path out ("@source"), so the object must not hold it: only where __FILE__ is
    // mapped away from the build folder (cmake/TileLabRunner.cmake) is the object the same for every student.
    const std::string cwd = fs::current_path(error).string();
    bool mapped = false;
    for (std::string arg : args) {
        if (arg == request.source) arg = "@source";
        const bool prefix_map = arg.find("-fmacro-prefix-map=") != std::string::npos ||
                                arg.find("-ffile-prefix-map=") != std::string::npos;
        if (const std::size_t at = arg.find(cwd + "/="); prefix_map && !cwd.empty() && at != std::string::npos) {
            arg.replace(at, cwd.size(), "@build");
            mapped = true;
        }
        key << "arg " << arg << '\n';
    }
    if (!mapped) {
        why_not = "no -fmacro-prefix-map names the build folder (a folder name with a space or a comma has none)";
        return std::nullopt;
    }
    std::vector<std::string> environment;
    // Which GPU a slot of the batch uses changes no compile whose architectures are named (as the kit's are).
    for (char** entry = environ; *entry != nullptr; ++entry)
        if (sandbox_variable_allowed(*entry) && std::strstr(*entry, "_VISIBLE_DEVICES=") == nullptr)
            environment.emplace_back(*entry);
    std::sort(environment.begin(), environment.end());
    for (const std::string& entry : environment) key << "env " << entry << '\n';

    // The lab's folder: everything a quoted #include of the source can reach there.
    const fs::path source(request.source);
    const fs::path folder = source.parent_path().empty() ? fs::path(".") : source.parent_path();
    std::vector<fs::path> files;
    std::uintmax_t bytes = 0;
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
        const fs::directory_entry& entry = *it;
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
        const std::string raw = read_file(file);
        // What would make a line-by-line reading of the file differ from the compiler's: a carriage return (a line
        // end to the compiler), a backslash at a line's end (a line spliced to the next), trigraphs and digraphs
        // (??/ is a backslash, %: a #), and the key's own placeholder.
        if (const char* unread = misreadable(raw)) {
            why_not = file.filename().string() + " holds " + unread;
            return std::nullopt;
        }
        const std::string text = build_folder_named(without_name_comments(raw), cwd);
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
            // The claimant's process id: others wait only while it lives.
            const std::string pid = std::to_string(getpid());
            const ssize_t written = ::write(fd, pid.data(), pid.size());
            (void)written;
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

void CompileCache::release(const std::string& key, bool kept) const {
    std::error_code error;
    // A compile that was not kept is not waited for again: the next ones with this key compile at once.
    if (!kept) write_file(entry(key).string() + ".not-kept", "");
    fs::remove(entry(key).string() + ".compiling", error);
}

std::optional<double> CompileCache::wait_and_fetch(const std::string& key, const CompileRequest& request,
                                                   double seconds) const {
    const fs::path claim = entry(key).string() + ".compiling";
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    std::error_code error;
    if (fs::exists(entry(key).string() + ".not-kept", error)) return fetch(key, request);
    // While the claim is there and its process lives (a process of this machine: on another node of a cluster the
    // id names nothing here, and the wait ends at once).
    while (std::chrono::steady_clock::now() < until) {
        const std::string pid = read_file(claim);
        if (pid.empty()) break;
        const long id = std::strtol(pid.c_str(), nullptr, 10);
        if (id <= 0 || (::kill(static_cast<pid_t>(id), 0) != 0 && errno == ESRCH)) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return fetch(key, request);
}

void CompileCache::store(const std::string& key, const CompileRequest& request, double seconds) const {
    std::error_code error;
    const fs::path dir = entry(key);
    if (fs::exists(dir, error)) return;
    const fs::path partial =
        folder_ / ("partial-" + std::to_string(getpid()) + "-" +
                   std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
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
