// Translation phases 1-3, as far as the source check's rules need them (source_lexer.hpp).
#include "source_lexer.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tilelab::grader::lexing {

bool is_identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || (c & 0x80); }
bool is_identifier_char(char c) { return is_identifier_start(c) || std::isdigit(static_cast<unsigned char>(c)); }

namespace {

/// The text with line splices (a backslash, optional blanks, a newline) removed, and for each character kept its
/// offset in the original text, so that raw string literals (where splices do not apply) and line numbers can go
/// back to the original.
struct Spliced {
    std::string text;
    std::vector<std::size_t> origin;  // one per character of text, and one past the end
};

Spliced splice(const std::string& s) {
    Spliced out;
    out.text.reserve(s.size());
    out.origin.reserve(s.size() + 1);
    std::size_t i = 0;
    while (i < s.size()) {
        if (s[i] == '\\') {
            std::size_t j = i + 1;
            while (j < s.size() && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r' || s[j] == '\f' || s[j] == '\v')) ++j;
            if (j < s.size() && s[j] == '\n') {
                i = j + 1;
                continue;
            }
        }
        out.text += s[i];
        out.origin.push_back(i);
        ++i;
    }
    out.origin.push_back(s.size());
    return out;
}

class Lexer {
public:
    explicit Lexer(const std::string& original) : original_(original), s_(splice(original)) {
        lines_.push_back(0);
        for (std::size_t i = 0; i < original.size(); ++i)
            if (original[i] == '\n') lines_.push_back(i + 1);
    }

    std::vector<Token> tokens;
    std::vector<SourceFinding> findings;

    void run() {
        const std::string& t = s_.text;
        bool line_start = true;
        std::size_t i = 0;
        while (i < t.size()) {
            const char c = t[i];
            const char next = i + 1 < t.size() ? t[i + 1] : '\0';
            if (c == '\n') {
                line_start = true;
                ++logical_;
                ++i;
                continue;
            }
            if (std::isspace(static_cast<unsigned char>(c))) {
                ++i;
                continue;
            }
            if (c == '/' && next == '/') {
                while (i < t.size() && t[i] != '\n') ++i;
                continue;
            }
            if (c == '/' && next == '*') {
                const std::size_t end = t.find("*/", i + 2);
                i = end == std::string::npos ? t.size() : end + 2;
                continue;
            }
            const std::size_t begin = i;
            // A header name, right after `#include` (and its kin) only.
            if ((c == '<' || c == '"') && after_include()) {
                const char close = c == '<' ? '>' : '"';
                std::size_t end = i + 1;
                while (end < t.size() && t[end] != close && t[end] != '\n') ++end;
                if (end < t.size() && t[end] == close) {
                    push(Kind::header_name, t.substr(i, end + 1 - i), begin, line_start);
                    line_start = false;
                    i = end + 1;
                    continue;
                }
            }
            if (is_identifier_start(c)) {
                std::size_t end = i;
                while (end < t.size() && is_identifier_char(t[end])) ++end;
                const std::string word = t.substr(i, end - i);
                if (end < t.size() && (t[end] == '"' || t[end] == '\'') && is_literal_prefix(word, t[end])) {
                    i = literal(word.back() == 'R' && t[end] == '"', end, begin, line_start);
                    line_start = false;
                    continue;
                }
                push(Kind::identifier, word, begin, line_start);
                line_start = false;
                i = end;
                continue;
            }
            if (c == '\\' && (next == 'u' || next == 'U')) {
                add(begin, "a universal character name (\\" + std::string(1, next) +
                               "...) outside a literal: write names in plain letters, so that the check reads them "
                               "as the compiler does");
                i += 2;
                continue;
            }
            if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(next)))) {
                std::size_t end = i + 1;
                while (end < t.size()) {
                    const char d = t[end];
                    if ((d == '+' || d == '-') && std::strchr("eEpP", t[end - 1]) != nullptr) {
                        ++end;
                    } else if (d == '\'' && end + 1 < t.size() && is_identifier_char(t[end + 1])) {
                        end += 2;
                    } else if (is_identifier_char(d) || d == '.') {
                        ++end;
                    } else {
                        break;
                    }
                }
                push(Kind::number, t.substr(i, end - i), begin, line_start);
                line_start = false;
                i = end;
                continue;
            }
            if (c == '"' || c == '\'') {
                i = literal(false, i, begin, line_start);
                line_start = false;
                continue;
            }
            i = punctuator(i, line_start);
            line_start = false;
        }
    }

    int line_at(std::size_t spliced_offset) const {
        const std::size_t original = s_.origin[std::min(spliced_offset, s_.origin.size() - 1)];
        return static_cast<int>(std::upper_bound(lines_.begin(), lines_.end(), original) - lines_.begin());
    }

private:
    const std::string& original_;
    Spliced s_;
    std::vector<std::size_t> lines_;  // offset of each line's start in the original
    int logical_ = 0;

    void push(Kind kind, std::string text, std::size_t at, bool line_start) {
        tokens.push_back(Token{kind, std::move(text), line_at(at), logical_, line_start});
    }
    void add(std::size_t at, std::string message) { findings.push_back(SourceFinding{"", line_at(at), std::move(message)}); }

    // True when the tokens so far end with `#` `include` (or include_next, import, embed) at a line's start.
    bool after_include() const {
        const std::size_t n = tokens.size();
        if (n < 2) return false;
        const Token& hash = tokens[n - 2];
        const Token& name = tokens[n - 1];
        return hash.line_start && hash.kind == Kind::punctuator && hash.text == "#" && hash.logical == name.logical &&
               (name.text == "include" || name.text == "include_next" || name.text == "import" || name.text == "embed");
    }

    static bool is_literal_prefix(const std::string& word, char quote) {
        if (quote == '"') {
            static const std::set<std::string> prefixes = {"R", "u8", "u", "U", "L", "u8R", "uR", "UR", "LR"};
            return prefixes.count(word) != 0;
        }
        return word == "u8" || word == "u" || word == "U" || word == "L";
    }

    // A string or character literal starting at the quote @p quote; returns the offset after it (and its suffix).
    std::size_t literal(bool raw, std::size_t quote, std::size_t begin, bool line_start) {
        const std::string& t = s_.text;
        std::size_t end;
        if (raw) {
            // Splices do not apply inside a raw string: find its end in the original text, then map it back.
            const std::size_t open = s_.origin[quote];
            const std::size_t paren = original_.find('(', open + 1);
            if (paren == std::string::npos || paren - open - 1 > 16) {
                add(begin, "a raw string literal without its opening R\"delimiter(");
                return t.size();
            }
            const std::string closing = ")" + original_.substr(open + 1, paren - open - 1) + "\"";
            const std::size_t close = original_.find(closing, paren + 1);
            const std::size_t stop = close == std::string::npos ? original_.size() : close + closing.size();
            end = static_cast<std::size_t>(std::lower_bound(s_.origin.begin(), s_.origin.end(), stop) - s_.origin.begin());
        } else {
            const char q = t[quote];
            end = quote + 1;
            while (end < t.size() && t[end] != q && t[end] != '\n') end += t[end] == '\\' ? 2 : 1;
            end = std::min(end, t.size());
            if (end < t.size() && t[end] == q) ++end;  // an unterminated literal ends at its line's end
        }
        while (end < t.size() && is_identifier_char(t[end])) ++end;  // a user-defined literal's suffix
        push(Kind::string, t.substr(begin, end - begin), begin, line_start);
        return end;
    }

    // One punctuator (digraphs spelled as what they stand for); returns the offset after it.
    std::size_t punctuator(std::size_t i, bool line_start) {
        const std::string& t = s_.text;
        auto at = [&](std::size_t k) { return i + k < t.size() ? t[i + k] : '\0'; };
        std::string text;
        std::size_t length = 1;
        if (at(0) == '%' && at(1) == ':' && at(2) == '%' && at(3) == ':') {
            text = "##", length = 4;
        } else if (at(0) == '%' && at(1) == ':') {
            text = "#", length = 2;
        } else if (at(0) == '#' && at(1) == '#') {
            text = "##", length = 2;
        } else if (at(0) == '<' && at(1) == ':' && !(at(2) == ':' && at(3) != ':' && at(3) != '>')) {
            text = "[", length = 2;
        } else if (at(0) == ':' && at(1) == '>') {
            text = "]", length = 2;
        } else if (at(0) == '<' && at(1) == '%') {
            text = "{", length = 2;
        } else if (at(0) == '%' && at(1) == '>') {
            text = "}", length = 2;
        } else if (at(0) == ':' && at(1) == ':') {
            text = "::", length = 2;
        } else {
            text = std::string(1, at(0));
        }
        push(Kind::punctuator, text, i, line_start);
        return i + length;
    }
};

}  // namespace

Lexed lex(const std::string& text) {
    Lexer lexer(text);
    lexer.run();
    return Lexed{std::move(lexer.tokens), std::move(lexer.findings)};
}

}  // namespace tilelab::grader::lexing
