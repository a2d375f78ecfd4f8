#include "code_text.hpp"

#include <cctype>
#include <map>
#include <set>

namespace tilelab::docs {
namespace {

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// Code without comments and preprocessor lines; string literals are kept as they are.
std::string strip_comments(const std::string& code) {
    std::string out;
    bool line_start = true;
    for (std::size_t i = 0; i < code.size(); ++i) {
        const char c = code[i];
        if (line_start && c == '#') {  // a preprocessor line: #include says nothing about the answer
            while (i < code.size() && code[i] != '\n') ++i;
            out += '\n';
            continue;
        }
        if (c == '/' && i + 1 < code.size() && code[i + 1] == '/') {
            while (i < code.size() && code[i] != '\n') ++i;
            out += '\n';
            line_start = true;
            continue;
        }
        if (c == '/' && i + 1 < code.size() && code[i + 1] == '*') {
            const std::size_t end = code.find("*/", i + 2);
            i = end == std::string::npos ? code.size() : end + 1;
            out += ' ';
            continue;
        }
        out += c;
        if (c == '\n') line_start = true;
        else if (!std::isspace(static_cast<unsigned char>(c))) line_start = false;
    }
    return out;
}

std::vector<std::string> tokens(const std::string& code) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < code.size();) {
        const char c = code[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (is_word_char(c)) {  // a name, or a number such as 0.0f
            std::size_t end = i;
            const bool number = std::isdigit(static_cast<unsigned char>(c)) != 0;
            while (end < code.size() && (is_word_char(code[end]) || (number && code[end] == '.'))) ++end;
            out.push_back(code.substr(i, end - i));
            i = end;
        } else {
            out.push_back(std::string(1, c));
            ++i;
        }
    }
    return out;
}

// Spellings that mean the same thing in these labs, where blocks are TILE_WIDTH × TILE_WIDTH threads.
std::vector<std::string> with_synonyms(const std::vector<std::string>& in) {
    static const std::map<std::string, std::string> member_synonyms = {
        {"threadIdx.x", "tx"}, {"threadIdx.y", "ty"}, {"blockDim.x", "T"}, {"blockDim.y", "T"}};
    static const std::map<std::string, std::string> name_synonyms = {{"TILE_WIDTH", "T"}, {"phase", "p"}, {"ph", "p"}};
    std::vector<std::string> out;
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (i + 2 < in.size() && in[i + 1] == ".") {
            const auto member = member_synonyms.find(in[i] + "." + in[i + 2]);
            if (member != member_synonyms.end()) {
                out.push_back(member->second);
                i += 2;
                continue;
            }
        }
        const auto name = name_synonyms.find(in[i]);
        out.push_back(name != name_synonyms.end() ? name->second : in[i]);
    }
    return out;
}

// The index of the bracket that closes the one at @p open, or npos.
std::size_t matching(const std::string& s, std::size_t open) {
    const char opening = s[open];
    const char closing = opening == '(' ? ')' : opening == '[' ? ']' : '}';
    int depth = 0;
    for (std::size_t i = open; i < s.size(); ++i) {
        if (s[i] == opening) ++depth;
        else if (s[i] == closing && --depth == 0) return i;
    }
    return std::string::npos;
}

// The parts of @p s separated by @p separator outside any bracket.
std::vector<std::string> split_top_level(const std::string& s, char separator) {
    std::vector<std::string> parts;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '(' || s[i] == '[' || s[i] == '{') ++depth;
        else if (s[i] == ')' || s[i] == ']' || s[i] == '}') --depth;
        else if (s[i] == separator && depth == 0) {
            parts.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    }
    parts.push_back(s.substr(start));
    return parts;
}

std::string trimmed(const std::string& s) {
    const std::size_t first = s.find_first_not_of(' ');
    if (first == std::string::npos) return "";
    return s.substr(first, s.find_last_not_of(' ') - first + 1);
}

bool has_operator(const std::string& s) { return s.find_first_of("+-*/%<>&|?") != std::string::npos; }

bool is_bare_call(const std::string& s) {
    if (s.size() < 3 || s.compare(s.size() - 2, 2, "()") != 0) return false;
    for (std::size_t i = 0; i + 2 < s.size(); ++i)
        if (!is_word_char(s[i]) && s[i] != '.' && s[i] != ':') return false;
    return true;
}

constexpr std::size_t shortest_answer = 6;

// The expressions inside one statement or condition that would give the answer away on their own.
void add_expressions(const std::string& s, std::set<std::string>& out) {
    auto add = [&](const std::string& candidate) {
        const std::string e = trimmed(candidate);
        if (e.size() >= shortest_answer && has_operator(e)) out.insert(e);
    };
    // The right-hand side of the first assignment (=, +=, ... but not ==, <=, >=, !=).
    int depth = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '(' || s[i] == '[') ++depth;
        else if (s[i] == ')' || s[i] == ']') --depth;
        else if (depth == 0 && s[i] == '=' && (i + 1 >= s.size() || s[i + 1] != '=') &&
                 (i == 0 || std::string("=!<>").find(s[i - 1]) == std::string::npos)) {
            add(s.substr(i + 1));
            break;
        }
    }
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '(' && s[i] != '[') continue;
        const std::size_t close = matching(s, i);
        if (close == std::string::npos) continue;
        const std::string inside = s.substr(i + 1, close - i - 1);
        add(inside);
        if (s[i] == '(') {
            for (const std::string& argument : split_top_level(inside, ',')) add(argument);
        } else if (i > 0 && is_word_char(s[i - 1])) {
            // A subscripted access with every subscript: M_tile[ty][k], M[row*inner+k].
            std::size_t name = i;
            while (name > 0 && is_word_char(s[name - 1])) --name;
            std::size_t end = close;
            while (end + 1 < s.size() && s[end + 1] == '[') {
                const std::size_t next = matching(s, end + 1);
                if (next == std::string::npos) break;
                end = next;
            }
            if (s.substr(name, end + 1 - name).find_first_of("+-*/%") != std::string::npos)
                out.insert(s.substr(name, end + 1 - name));
        }
    }
}

bool starts_control_header(const std::string& s, std::size_t i, std::size_t& open) {
    if (i > 0 && is_word_char(s[i - 1])) return false;
    for (const char* keyword : {"for", "if", "while", "switch"}) {
        const std::string k = keyword;
        std::size_t at = i + k.size();
        if (s.compare(i, k.size(), k) != 0) continue;
        if (at < s.size() && s[at] == ' ') ++at;
        if (at < s.size() && s[at] == '(') {
            open = at;
            return true;
        }
    }
    return false;
}

}  // namespace

std::string normalize_code(const std::string& code) {
    std::string out;
    for (const std::string& token : with_synonyms(tokens(strip_comments(code)))) {
        // One space between two names or numbers keeps them apart; no other whitespace survives.
        if (!out.empty() && is_word_char(out.back()) && is_word_char(token.front())) out += ' ';
        out += token;
    }
    return out;
}

std::vector<std::string> answer_fragments(const std::string& s) {
    std::set<std::string> statements;
    std::set<std::string> expressions;
    std::size_t start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        std::size_t open = 0;
        if (starts_control_header(s, i, open)) {
            const std::size_t close = matching(s, open);
            if (close == std::string::npos) break;
            for (const std::string& part : split_top_level(s.substr(open + 1, close - open - 1), ';'))
                add_expressions("(" + part + ")", expressions);
            start = close + 1;
            i = close;
            continue;
        }
        if (s[i] == ';' || s[i] == '{' || s[i] == '}') {
            const std::string statement = trimmed(s.substr(start, i - start));
            start = i + 1;
            if (statement.empty()) continue;
            if (statement.size() >= shortest_answer && !is_bare_call(statement)) statements.insert(statement);
            add_expressions(statement, expressions);
        }
    }
    std::vector<std::string> out(statements.begin(), statements.end());
    out.insert(out.end(), expressions.begin(), expressions.end());
    return out;
}

bool contains_fragment(const std::string& text, const std::string& fragment) {
    if (fragment.empty()) return false;
    for (std::size_t at = text.find(fragment); at != std::string::npos; at = text.find(fragment, at + 1)) {
        const bool clean_start = at == 0 || !is_word_char(fragment.front()) || !is_word_char(text[at - 1]);
        const std::size_t end = at + fragment.size();
        const bool clean_end = end == text.size() || !is_word_char(fragment.back()) || !is_word_char(text[end]);
        if (clean_start && clean_end) return true;
    }
    return false;
}

}  // namespace tilelab::docs
