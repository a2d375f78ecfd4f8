#include "markdown_code.hpp"

#include <sstream>

namespace tilelab::docs {
namespace {

// The fence (``` or ~~~, three or more) that opens a code block on this line, or "".
std::string opening_fence(const std::string& line) {
    const std::size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos || first > 3) return "";
    const char c = line[first];
    if (c != '`' && c != '~') return "";
    std::size_t end = first;
    while (end < line.size() && line[end] == c) ++end;
    return end - first >= 3 ? line.substr(first, end - first) : "";
}

// Inline spans on one line: `code`, ``code``, and <code>code</code> (which HTML blocks such as <details> use).
void inline_spans(const std::string& line, int number, std::vector<CodeSpan>& out) {
    for (std::size_t i = 0; i < line.size();) {
        if (line.compare(i, 6, "<code>") == 0) {
            const std::size_t close = line.find("</code>", i + 6);
            if (close == std::string::npos) break;
            out.push_back({number, line.substr(i + 6, close - i - 6)});
            i = close + 7;
            continue;
        }
        if (line[i] != '`') {
            ++i;
            continue;
        }
        std::size_t run = i;
        while (run < line.size() && line[run] == '`') ++run;
        const std::string ticks = line.substr(i, run - i);
        std::size_t close = line.find(ticks, run);
        // The closing run must be exactly as long as the opening one.
        while (close != std::string::npos && close + ticks.size() < line.size() && line[close + ticks.size()] == '`')
            close = line.find(ticks, close + ticks.size() + 1);
        if (close == std::string::npos) {
            i = run;
            continue;
        }
        out.push_back({number, line.substr(run, close - run)});
        i = close + ticks.size();
    }
}

}  // namespace

std::vector<CodeSpan> code_spans(const std::string& markdown) {
    std::vector<CodeSpan> out;
    std::istringstream in(markdown);
    std::string line;
    int number = 0;
    std::string fence;
    CodeSpan block;
    while (std::getline(in, line)) {
        ++number;
        if (!fence.empty()) {
            if (opening_fence(line).rfind(fence, 0) == 0 && line.find_first_not_of(" `~") == std::string::npos) {
                out.push_back(block);
                fence.clear();
            } else {
                block.text += line + "\n";
            }
            continue;
        }
        fence = opening_fence(line);
        if (!fence.empty()) {
            block = {number, ""};
            continue;
        }
        inline_spans(line, number, out);
    }
    if (!fence.empty()) out.push_back(block);  // an unclosed block runs to the end of the page
    return out;
}

}  // namespace tilelab::docs
