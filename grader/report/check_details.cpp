#include "check_details.hpp"

#include <cctype>
#include <fstream>
#include <regex>
#include <sstream>

namespace tilelab::report {

namespace {

/// @p text split into lines, carriage returns and control characters but tabs dropped (a lab's program may print
/// terminal escapes; a platform shows the text as it is).
std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines(1);
    for (char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\n') lines.emplace_back();
        else if (byte >= 0x20 || c == '\t') lines.back() += c;
    }
    if (lines.back().empty()) lines.pop_back();
    return lines;
}

/// @p line with every path under @p build shown from its submission's folder ("<build>/submission/02_tiled/x" as
/// "02_tiled/x"), and other paths under it from the build folder.
std::string shown_path(std::string line, const std::string& build) {
    if (build.empty()) return line;
    const std::string folder = build.back() == '/' ? build : build + "/";
    for (const std::string& prefix : {folder + "submission/", folder}) {
        for (std::size_t at = line.find(prefix); at != std::string::npos; at = line.find(prefix, at))
            line.erase(at, prefix.size());
    }
    return line;
}

bool contains_error(const std::string& line) {
    std::string lower;
    for (char c : line) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower.find("error") != std::string::npos;
}

/// Whether a build log's line is the build tool's, not the compiler's or the checks': its progress ("[2/3] ..."),
/// its FAILED and stop lines, a compile command, the hint and the link to the docs (the reason says those).
bool build_tool_line(const std::string& line) {
    static const std::regex progress(R"(^\[[0-9]+/[0-9]+\] )");
    return std::regex_search(line, progress) || line.rfind("FAILED: ", 0) == 0 || line.rfind("ninja: ", 0) == 0 ||
           line.rfind("hint: ", 0) == 0 || line.rfind("see docs/", 0) == 0 ||
           line.find("tilelab-sandbox-compile ") != std::string::npos ||
           line.find(" -o CMakeFiles/") != std::string::npos;
}

/// The build check's details: the compiler's first three errors and what follows each (the source line quoted,
/// notes), else the first lines the build tool did not write.
std::vector<std::string> build_details(const std::vector<std::string>& lines) {
    std::vector<std::string> kept;
    for (const auto& line : lines)
        if (!build_tool_line(line) && !line.empty()) kept.push_back(line);
    std::size_t first = kept.size();
    for (std::size_t i = 0; i < kept.size(); ++i) {
        if (!contains_error(kept[i])) continue;
        // The compiler's "In function ..." line before the first error says where it is.
        first = i > 0 && kept[i - 1].find("In ") != std::string::npos && kept[i - 1].back() == ':' ? i - 1 : i;
        break;
    }
    if (first == kept.size()) {
        kept.resize(std::min<std::size_t>(kept.size(), 10));
        return kept;
    }
    std::vector<std::string> details;
    int errors = 0;
    for (std::size_t i = first; i < kept.size(); ++i) {
        if (kept[i].find("error") != std::string::npos && kept[i].find(": ") != std::string::npos && ++errors > 3) break;
        details.push_back(kept[i]);
    }
    return details;
}

/// A check's details: each failure block of the checker's log ("<file>:<line>: ERROR: <text>" and the indented
/// lines below it, up to a blank line), its messages ("MESSAGE: 0 of 27 shapes correct"), without the position in
/// the checker's source. A block quotes at most 12 lines that the lab's program printed.
std::vector<std::string> check_blocks(const std::vector<std::string>& lines) {
    static const std::regex marker(R"(^.*:[0-9]+: (FATAL ERROR|ERROR|WARNING|MESSAGE): (.*)$)");
    std::vector<std::string> details;
    bool in_block = false;
    int quoted = 0;
    for (const auto& line : lines) {
        std::smatch match;
        if (std::regex_match(line, match, marker)) {
            in_block = true;
            quoted = 0;
            details.push_back(match[2].str());
        } else if (in_block && line.rfind("  ", 0) == 0) {
            if (line.rfind("  |", 0) == 0 && ++quoted > 12) {
                if (quoted == 13) details.push_back("  | ...");
                continue;
            }
            details.push_back(line);
        } else {
            in_block = false;
        }
    }
    return details;
}

}  // namespace

std::string check_details(const std::string& log, const std::string& check, const std::string& build) {
    const std::vector<std::string> lines = lines_of(log);
    const std::vector<std::string> picked = check == "build" ? build_details(lines) : check_blocks(lines);
    std::string details;
    for (const auto& line : picked) {
        const std::string shown = shown_path(line, build);
        if (details.size() + shown.size() + 1 > details_limit) {
            details += details.empty() ? shown.substr(0, details_limit - 4) + "...\n" : "...\n";
            break;
        }
        details += shown + "\n";
    }
    if (!details.empty()) details.pop_back();
    return details;
}

std::string details_beyond(const std::string& details, const std::string& reason) {
    std::string kept;
    for (const auto& line : lines_of(details)) {
        std::size_t start = line.find_first_not_of(' ');
        const std::string trimmed = start == std::string::npos ? "" : line.substr(start);
        // The checker's hint where the reason shows it already (the reason is the hint when there is one).
        if (trimmed.rfind("hint: ", 0) == 0 && reason.find(trimmed) != std::string::npos) continue;
        kept += line + "\n";
    }
    if (!kept.empty()) kept.pop_back();
    return kept;
}

void attach_details(std::vector<TestResult>& tests, const std::string& verdicts, const std::string& build) {
    for (auto& test : tests) {
        if (test.state != "failed") continue;
        std::ifstream in(verdicts + "/" + test.name + ".log", std::ios::binary);
        if (!in) continue;
        std::ostringstream text;
        text << in.rdbuf();
        test.details = check_details(text.str(), test.id.suite, build);
    }
}

}  // namespace tilelab::report
