#include "markdown_code.hpp"

#include <fstream>
#include <sstream>
#include <utility>

namespace tilelab::docs {

std::vector<InlineCode> inline_code(const std::string& text) {
    std::vector<InlineCode> out;
    for (std::size_t i = 0; i < text.size();) {
        if (text.compare(i, 6, "<code>") == 0) {
            const std::size_t close = text.find("</code>", i + 6);
            if (close != std::string::npos) {
                out.push_back({i, close + 7, text.substr(i + 6, close - i - 6)});
                i = close + 7;
                continue;
            }
        }
        if (text[i] != '`') {
            ++i;
            continue;
        }
        std::size_t run = i;
        while (run < text.size() && text[run] == '`') ++run;
        const std::string ticks = text.substr(i, run - i);
        std::size_t close = text.find(ticks, run);
        // The closing run must be exactly as long as the opening one.
        while (close != std::string::npos && close + ticks.size() < text.size() && text[close + ticks.size()] == '`')
            close = text.find(ticks, close + ticks.size() + 1);
        if (close == std::string::npos) {
            i = run;
            continue;
        }
        out.push_back({i, close + ticks.size(), text.substr(run, close - run)});
        i = close + ticks.size();
    }
    return out;
}

std::string opening_fence(const std::string& line) {
    const std::size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos || first > 3) return "";
    const char c = line[first];
    if (c != '`' && c != '~') return "";
    std::size_t end = first;
    while (end < line.size() && line[end] == c) ++end;
    return end - first >= 3 ? line.substr(first, end - first) : "";
}

bool closes_fence(const std::string& line, const std::string& fence) {
    return opening_fence(line).rfind(fence, 0) == 0 && line.find_first_not_of(" `~") == std::string::npos;
}

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

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
            if (closes_fence(line, fence)) {
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
        for (InlineCode& span : inline_code(line)) out.push_back({number, std::move(span.text)});
    }
    if (!fence.empty()) out.push_back(block);  // an unclosed block runs to the end of the page
    return out;
}

}  // namespace tilelab::docs
