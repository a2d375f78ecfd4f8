// The source check's entry points (source_policy.hpp): a file's text, a lab's files read without links, nm -u.
#include "source_policy.hpp"

#include "device_calls.hpp"
#include "source_names.hpp"
#include "source_lexer.hpp"
#include "source_rules.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace tilelab::grader {
namespace {

using namespace source_names;  // the tables (source_names.hpp)

using source_rules::allowed_includes;

// ---------------------------------------------------------------------------------------------------------------
// Links, and files read without following them.

std::string describe_link(const std::filesystem::path& path) {
    std::error_code error;
    const auto target = std::filesystem::read_symlink(path, error);
    return error ? std::string("a symbolic link") : "a symbolic link (to " + target.string() + ")";
}

const std::string why_plain =
    ": a submission holds plain files and folders only, and the grader follows no link (a link can point at "
    "files outside the submission, the kit's model answers among them); replace it by the file itself";

// Findings for @p path (shown as @p shown) unless it is a plain folder (@p folder) or a plain file with one name.
void check_plain(const std::filesystem::path& path, const std::string& shown, bool folder,
                 std::vector<SourceFinding>& out) {
    struct stat st {};
    if (lstat(path.c_str(), &st) != 0) {
        out.push_back(SourceFinding{shown, 0, "cannot be read (" + std::string(std::strerror(errno)) + ")"});
        return;
    }
    if (S_ISLNK(st.st_mode)) {
        out.push_back(SourceFinding{shown, 0, "is " + describe_link(path) + why_plain});
    } else if (S_ISREG(st.st_mode) && st.st_nlink > 1) {
        out.push_back(SourceFinding{shown, 0, "is a hard link (one file under " + std::to_string(st.st_nlink) +
                                                  " names, one of them perhaps outside the submission)" + why_plain});
    } else if (folder ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)) {
        if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
            out.push_back(SourceFinding{shown, 0, "is neither a plain file nor a folder (a device, a pipe, a socket)" +
                                                      why_plain});
        else if (folder)
            out.push_back(SourceFinding{shown, 0, "should be a folder"});
    }
}

// Reads a plain file without following a link at its last step (its folders are checked before).
bool read_plain(const std::filesystem::path& path, std::string& text) {
    const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return false;
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
        close(fd);
        return false;
    }
    text.clear();
    char buffer[65536];
    ssize_t got;
    while ((got = read(fd, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<std::size_t>(got));
    close(fd);
    return got == 0;
}

// The line, from 1, of the character at @p offset in @p text as written (no splicing).
int line_of_offset(const std::string& text, std::size_t offset) {
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

// The rules on one file's text (check_source_text's), without those that need every file of the lab.
SourceScan scan_source_text(const std::string& text) {
    SourceScan out;
    // Trigraphs (??= for #, ??/ for a backslash) are replaced before everything else by compilers that still
    // honour them: refused, so that the check and every compiler read the same characters.
    for (std::size_t at = text.find("??"); at != std::string::npos; at = text.find("??", at + 1)) {
        if (at + 2 < text.size() && std::strchr("=/'()!<>-", text[at + 2]) != nullptr && text[at + 2] != '\0') {
            const int line = line_of_offset(text, at);
            out.findings.push_back(SourceFinding{"", line, "a trigraph (??" + std::string(1, text[at + 2]) +
                                                               ") stands for another character: write that character"});
            return out;
        }
    }
    // A carriage return ends a line for the compilers, not for this check's reading, which ends lines at "\n":
    // "// note\r" followed by code hid that code from it. One before "\n" (a CRLF line end) is only a blank.
    for (std::size_t at = text.find('\r'); at != std::string::npos; at = text.find('\r', at + 1)) {
        if (at + 1 < text.size() && text[at + 1] == '\n') continue;
        const int line = line_of_offset(text, at);
        out.findings.push_back(SourceFinding{"", line, "a carriage return that is not part of a line end (CR LF) ends a "
                                                       "line for the compiler but not for an editor: save the file "
                                                       "with LF or CRLF line ends"});
        return out;
    }
    lexing::Lexed lexed = lexing::lex(text);
    out.findings = std::move(lexed.findings);
    source_rules::Rules(lexed.tokens, out).run();
    for (SourceFinding& finding : device_call_findings(lexed.tokens)) out.findings.push_back(std::move(finding));
    std::stable_sort(out.findings.begin(), out.findings.end(),
                     [](const SourceFinding& a, const SourceFinding& b) { return a.line < b.line; });
    return out;
}

}  // namespace

SourceScan check_source_text(const std::string& text) {
    SourceScan out = scan_source_text(text);
    std::vector<SourceScan*> scans = {&out};
    resolve_lab_scans(scans);
    return out;
}

std::vector<SourceFinding> check_lab_file(const std::filesystem::path& root, const std::filesystem::path& relative) {
    namespace fs = std::filesystem;
    std::vector<SourceFinding> out;
    // Every folder from the submission's root down to the file's folder.
    fs::path folder = root;
    fs::path shown;
    for (const fs::path& step : relative.parent_path()) {
        folder /= step;
        shown /= step;
        const std::size_t before = out.size();
        check_plain(folder, shown.string(), true, out);
        if (out.size() != before) return out;
    }
    // Everything in the file's folder, at any depth (a quoted include may name any of it).
    std::error_code error;
    for (fs::recursive_directory_iterator it(folder, fs::directory_options::none, error), end; !error && it != end;
         it.increment(error)) {
        const fs::path entry = it->path();
        const std::string entry_shown = (relative.parent_path() / entry.lexically_relative(folder)).string();
        std::error_code status_error;  // never follow a link: its target may be closed to this user
        check_plain(entry, entry_shown, fs::is_directory(it->symlink_status(status_error)), out);
    }
    if (!out.empty()) return out;
    // The file, then each file it includes with quotes, each once.
    std::vector<std::pair<fs::path, std::string>> pending = {{root / relative, relative.string()}};
    std::set<std::string> seen;
    // Each file's findings after what came before it (the folder's, a file that cannot be read): in order.
    std::vector<std::pair<std::string, SourceScan>> scans;
    std::vector<std::pair<std::size_t, SourceFinding>> others;  // (scans read before it, finding)
    while (!pending.empty()) {
        const auto [path, file] = pending.back();
        pending.pop_back();
        if (!seen.insert(path.lexically_normal().string()).second) continue;
        std::string text;
        if (!read_plain(path, text)) {
            others.emplace_back(scans.size(), SourceFinding{file, 0, "cannot be read as a plain file of the lab's folder"});
            continue;
        }
        scans.emplace_back(file, scan_source_text(text));
        const SourceScan& scan = scans.back().second;
        for (const QuotedInclude& include : scan.quoted) {
            const fs::path included = path.parent_path() / include.name;
            const std::string included_shown = (fs::path(file).parent_path() / include.name).string();
            struct stat st {};
            if (lstat(included.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
                others.emplace_back(scans.size(), SourceFinding{file, include.line,
                                            "#include \"" + include.name + "\" names no file of the lab's folder "
                                            "(a compiler would then look in the kit's include folders): " +
                                            allowed_includes});
                continue;
            }
            pending.emplace_back(included, included_shown);
        }
    }
    std::vector<SourceScan*> all;
    for (auto& entry : scans) all.push_back(&entry.second);
    resolve_lab_scans(all);
    std::size_t other = 0;
    for (std::size_t k = 0; k <= scans.size(); ++k) {
        for (; other < others.size() && others[other].first == k; ++other) out.push_back(others[other].second);
        if (k == scans.size()) break;
        for (SourceFinding& finding : scans[k].second.findings) {
            finding.file = scans[k].first;
            out.push_back(std::move(finding));
        }
    }
    return out;
}

std::string first_os_symbol(const std::string& nm_undefined) {
    std::istringstream lines(nm_undefined);
    std::string line;
    while (std::getline(lines, line)) {
        // "                 U name@VERSION": the kind, then the name; nm's "<object>:" headers and blank lines
        // have no "U" before the last word.
        std::istringstream words(line);
        std::string kind, name;
        if (!(words >> kind >> name) || kind != "U" || line.back() == ':') continue;
        name = name.substr(0, name.find('@'));
        const bool listed = (os_functions.count(name) != 0 && name != "atexit") || os_object_only_names.count(name) != 0;
        bool prefixed = false;
        for (const char* prefix : os_object_prefixes)
            if (name.rfind(prefix, 0) == 0) prefixed = true;
        if (listed || prefixed) return name;
    }
    return {};
}

}  // namespace tilelab::grader
