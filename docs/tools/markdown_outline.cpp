#include "markdown_outline.hpp"

#include "markdown_code.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <sstream>
#include <utility>

namespace tilelab::docs {
namespace {

// What replaces code and formulas in a line once they are recorded, so that nothing inside them is taken for a
// link, a command or a tag.
constexpr char kCode = '\x01';
constexpr char kFormula = '\x02';

// Records the inline code of a paragraph (`code`, ``code``, <code>code</code>), whose lines start at line @p number,
// and returns the paragraph with each replaced by kCode. A span may go on over a line break, which it reads as a
// space (as Markdown does), so that a translation may break its lines elsewhere.
std::string take_code_spans(const std::string& line, int number, std::vector<Kept>& out) {
    std::string rest;
    auto kept = [&](std::size_t at, std::string text) {
        const int line_number = number + static_cast<int>(std::count(line.begin(), line.begin() + at, '\n'));
        std::replace(text.begin(), text.end(), '\n', ' ');
        out.push_back({line_number, text});
    };
    std::size_t at = 0;
    for (InlineCode& span : inline_code(line)) {
        rest += line.substr(at, span.begin - at);
        kept(span.begin, std::move(span.text));
        rest += kCode;
        at = span.end;
    }
    rest += line.substr(at);
    return rest;
}

// Records the formulas of a line, as docs/markdown_filter.sh finds them ($$...$$; $...$ with no space just inside
// either $), and returns the line with each replaced by kFormula.
std::string take_formulas(const std::string& line, int number, std::vector<Kept>& out) {
    std::string rest;
    for (std::size_t i = 0; i < line.size();) {
        if (line.compare(i, 2, "$$") == 0) {
            const std::size_t close = line.find("$$", i + 2);
            if (close != std::string::npos) {
                out.push_back({number, line.substr(i, close + 2 - i)});
                rest += kFormula;
                i = close + 2;
                continue;
            }
        }
        if (line[i] == '$' && i + 1 < line.size() && line[i + 1] != ' ') {
            const std::size_t close = line.find('$', i + 1);
            if (close != std::string::npos && close > i + 1 && line[close - 1] != ' ') {
                out.push_back({number, line.substr(i, close + 1 - i)});
                rest += kFormula;
                i = close + 1;
                continue;
            }
        }
        rest += line[i++];
    }
    return rest;
}

void take_all(const std::string& text, const std::regex& pattern, int group, int number, std::vector<Kept>& out) {
    for (std::sregex_iterator it(text.begin(), text.end(), pattern), end; it != end; ++it)
        out.push_back({number, (*it)[group].str()});
}

// The prose of one line (code and formulas already taken out): headings, links, images, commands, tags, markers.
void take_structure(const std::string& text, int number, Outline& page) {
    static const std::regex heading(R"(^(#{1,6})[ \t]+.*?(\{#([A-Za-z0-9_-]+)\})?[ \t]*$)");
    static const std::regex image(R"(!\[[^\]]*\]\(([^()\s]+)\))");
    static const std::regex link(R"(\]\(([^()\s]+)\))");
    static const std::regex attribute(R"re(\b(?:href|src)="([^"]*)")re");
    static const std::regex command(R"(([@\\](?:ref|subpage|anchor|page|section|subsection)[ \t]+[A-Za-z0-9_.-]+|[@\\](?:htmlonly|endhtmlonly|include|image|snippet|tableofcontents)\b))");
    static const std::regex marker(R"(<!--[ \t]*site:.*?-->)");
    static const std::regex tag(R"(<(/?)(details|summary|div|p|input|script|span|br|sub|sup|kbd|em|strong|b|i|a|img|ul|ol|li|table|tr|td|th|pre|blockquote|hr)\b[^>]*>)");
    std::smatch match;
    if (std::regex_match(text, match, heading)) {
        std::string kept = "level " + std::to_string(match[1].length());
        if (match[3].matched) kept += " {#" + match[3].str() + "}";
        page.headings.push_back({number, kept});
    }
    take_all(text, image, 1, number, page.images);
    take_all(text, link, 1, number, page.links);
    take_all(text, attribute, 1, number, page.links);
    take_all(text, command, 1, number, page.commands);
    take_all(text, marker, 0, number, page.site_markers);
    for (std::sregex_iterator it(text.begin(), text.end(), tag), end; it != end; ++it)
        page.html_tags.push_back({number, "<" + (*it)[1].str() + (*it)[2].str() + ">"});
}

// A table: its lines starting with "|"; its columns, counted on the line under its header ("| --- | --- |").
void take_table(const std::vector<std::string>& rows, int first_line, std::vector<Kept>& out) {
    std::size_t columns = 0;
    if (rows.size() > 1) {
        const std::string& rule = rows[1];
        columns = static_cast<std::size_t>(std::count(rule.begin(), rule.end(), '|'));
        const std::size_t last = rule.find_last_not_of(" \t");
        if (last != std::string::npos && rule[last] == '|' && columns > 0) --columns;
    }
    out.push_back({first_line, std::to_string(rows.size()) + " rows, " + std::to_string(columns) + " columns"});
}

std::string quoted(const std::string& text) {
    std::string shown = text;
    if (!shown.empty() && shown.back() == '\n') shown.pop_back();
    std::replace(shown.begin(), shown.end(), '\n', ' ');
    if (shown.size() > 100) shown = shown.substr(0, 97) + "...";
    return "\"" + shown + "\"";
}

std::string lines_of(const Kept& english, const Kept& translation) {
    return "(English line " + std::to_string(english.line) + ", translation line " + std::to_string(translation.line) +
           ")";
}

// A part whose order is the page's structure: the same parts in the same order.
void compare_in_order(const std::string& what, const std::vector<Kept>& english, const std::vector<Kept>& translation,
                      std::vector<std::string>& out) {
    const std::size_t common = std::min(english.size(), translation.size());
    for (std::size_t i = 0; i < common; ++i) {
        if (english[i].text == translation[i].text) continue;
        out.push_back(what + " " + std::to_string(i + 1) + " " + lines_of(english[i], translation[i]) +
                      " differs: English " + quoted(english[i].text) + ", translation " + quoted(translation[i].text));
        break;  // the ones after it are likely shifted: one message says where the two part ways
    }
    if (english.size() != translation.size())
        out.push_back(what + "s: " + std::to_string(english.size()) + " in English, " +
                      std::to_string(translation.size()) + " in the translation");
}

// A part a sentence may move: the same parts, each as many times, in any order.
void compare_as_multiset(const std::string& what, const std::vector<Kept>& english,
                         const std::vector<Kept>& translation, std::vector<std::string>& out) {
    std::map<std::string, std::pair<int, int>> counts;  // text -> (times in English, times in the translation)
    std::map<std::string, int> first_line;
    for (const Kept& kept : english) {
        ++counts[kept.text].first;
        first_line.emplace(kept.text, kept.line);
    }
    for (const Kept& kept : translation) ++counts[kept.text].second;
    for (const auto& [text, times] : counts) {
        if (times.first == times.second) continue;
        std::string where = first_line.count(text) ? " (English line " + std::to_string(first_line[text]) + ")" : "";
        out.push_back(what + " " + quoted(text) + where + ": " + std::to_string(times.first) + " in English, " +
                      std::to_string(times.second) + " in the translation");
    }
}

// The first line where two code blocks differ, for a message that shows what changed.
std::string first_difference(const std::string& english, const std::string& translation) {
    std::istringstream a(english), b(translation);
    std::string line_a, line_b;
    for (int number = 1;; ++number) {
        const bool more_a = static_cast<bool>(std::getline(a, line_a));
        const bool more_b = static_cast<bool>(std::getline(b, line_b));
        if (!more_a && !more_b) return "";
        if (!more_a) line_a = "(end of block)";
        if (!more_b) line_b = "(end of block)";
        if (line_a != line_b)
            return "its line " + std::to_string(number) + " is " + quoted(line_a) + " in English, " + quoted(line_b) +
                   " in the translation";
    }
}

}  // namespace

Outline outline(const std::string& markdown) {
    Outline page;
    std::istringstream in(markdown);
    std::string line;
    int number = 0;
    std::string fence;
    Kept block;
    std::vector<std::string> table;
    int table_line = 0;
    auto end_table = [&] {
        if (!table.empty()) take_table(table, table_line, page.tables);
        table.clear();
    };
    // The paragraph so far: lines up to a blank line, a fence, a heading or a table row (each of which is its own).
    std::string paragraph;
    int paragraph_line = 0;
    auto end_paragraph = [&] {
        if (paragraph_line == 0) return;
        std::istringstream prose(take_code_spans(paragraph, paragraph_line, page.code_spans));
        std::string piece;
        for (int at = paragraph_line; std::getline(prose, piece); ++at)
            take_structure(take_formulas(piece, at, page.formulas), at, page);
        paragraph.clear();
        paragraph_line = 0;
    };
    while (std::getline(in, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!fence.empty()) {
            block.text += line + "\n";
            if (closes_fence(line, fence)) {
                page.code_blocks.push_back(block);
                fence.clear();
            }
            continue;
        }
        fence = opening_fence(line);
        if (!fence.empty()) {
            end_table();
            end_paragraph();
            block = {number, line + "\n"};
            continue;
        }
        const std::size_t first = line.find_first_not_of(" \t");
        const bool table_row = first != std::string::npos && line[first] == '|';
        if (table_row) {
            if (table.empty()) table_line = number;
            table.push_back(line);
        } else {
            end_table();
        }
        if (first == std::string::npos || table_row || line[first] == '#') end_paragraph();
        if (first == std::string::npos) continue;
        if (paragraph_line == 0) paragraph_line = number;
        paragraph += line + "\n";
        if (table_row || line[first] == '#') end_paragraph();
    }
    end_table();
    end_paragraph();
    if (!fence.empty()) page.code_blocks.push_back(block);  // an unclosed block runs to the end of the page
    return page;
}

std::vector<std::string> differences(const Outline& english, const Outline& translation) {
    std::vector<std::string> out;
    compare_in_order("heading", english.headings, translation.headings, out);
    // Code blocks: each pair, byte for byte, with the line where they part.
    const std::size_t common = std::min(english.code_blocks.size(), translation.code_blocks.size());
    for (std::size_t i = 0; i < common; ++i) {
        const Kept& a = english.code_blocks[i];
        const Kept& b = translation.code_blocks[i];
        if (a.text != b.text)
            out.push_back("code block " + std::to_string(i + 1) + " " + lines_of(a, b) + " differs: " +
                          first_difference(a.text, b.text));
    }
    if (english.code_blocks.size() != translation.code_blocks.size())
        out.push_back("code blocks: " + std::to_string(english.code_blocks.size()) + " in English, " +
                      std::to_string(translation.code_blocks.size()) + " in the translation");
    compare_as_multiset("inline code", english.code_spans, translation.code_spans, out);
    compare_in_order("figure", english.images, translation.images, out);
    compare_as_multiset("link to", english.links, translation.links, out);
    compare_in_order("site marker", english.site_markers, translation.site_markers, out);
    compare_as_multiset("Doxygen command", english.commands, translation.commands, out);
    compare_as_multiset("formula", english.formulas, translation.formulas, out);
    compare_in_order("table", english.tables, translation.tables, out);
    compare_in_order("HTML tag", english.html_tags, translation.html_tags, out);
    return out;
}

}  // namespace tilelab::docs
