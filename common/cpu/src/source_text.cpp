// The text tools of the CPU backend's source rewrite (see source_text.hpp).
#include "source_text.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace tilelab::cpu::rewrite {

bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

Scan scan(const std::string& s) {
    Scan result{std::vector<bool>(s.size(), false), std::vector<int>(s.size(), 0)};
    int depth = 0;
    std::size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        const char next = i + 1 < s.size() ? s[i + 1] : '\0';
        if (c == '/' && next == '/') {
            while (i < s.size() && s[i] != '\n') result.brace_depth[i++] = depth;
            continue;
        }
        if (c == '/' && next == '*') {
            const std::size_t end = s.find("*/", i + 2);
            const std::size_t stop = end == std::string::npos ? s.size() : end + 2;
            while (i < stop) result.brace_depth[i++] = depth;
            continue;
        }
        if (c == 'R' && next == '"' && (i == 0 || !is_word(s[i - 1]))) {  // raw string R"delim( ... )delim"
            const std::size_t open = s.find('(', i + 2);
            if (open != std::string::npos) {
                const std::string closing = ")" + s.substr(i + 2, open - i - 2) + "\"";
                const std::size_t end = s.find(closing, open);
                const std::size_t stop = end == std::string::npos ? s.size() : end + closing.size();
                while (i < stop) result.brace_depth[i++] = depth;
                continue;
            }
        }
        // A quote after a digit or letter is a digit separator (1'000) or a literal's prefix (u8"", L'').
        const bool separator = c == '\'' && i > 0 && std::isalnum(static_cast<unsigned char>(s[i - 1])) &&
                               !(s[i - 1] == 'L' || s[i - 1] == 'u' || s[i - 1] == 'U' || s[i - 1] == '8');
        if ((c == '"' || c == '\'') && !separator) {
            result.brace_depth[i++] = depth;
            while (i < s.size() && s[i] != c && s[i] != '\n') {
                if (s[i] == '\\' && i + 1 < s.size()) result.brace_depth[i++] = depth;
                result.brace_depth[i++] = depth;
            }
            if (i < s.size()) result.brace_depth[i++] = depth;
            continue;
        }
        if (c == '{') ++depth;
        result.code[i] = true;
        result.brace_depth[i] = depth;
        if (c == '}') depth = std::max(0, depth - 1);
        ++i;
    }
    return result;
}

int line_of(const std::string& s, std::size_t position) {
    return 1 + static_cast<int>(std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(position), '\n'));
}

[[noreturn]] void fail(const std::string& s, std::size_t position, const std::string& what) {
    throw std::runtime_error("line " + std::to_string(line_of(s, position)) + ": " + what);
}

std::string trim(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return "";
    const auto last = text.find_last_not_of(" \t\r\n");
    return text.substr(first, last - first + 1);
}

std::string newlines_in(const std::string& text) {
    return std::string(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')), '\n');
}

// Whitespace folded to single spaces, for a name shown in messages.
std::string one_line(const std::string& text) {
    std::string out;
    for (char c : trim(text)) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            if (!out.empty() && out.back() != ' ') out += ' ';
        } else {
            out += c;
        }
    }
    return out;
}

// Finds the next code occurrence of @p token at or after @p from, as a whole word where it starts or ends
// with a word character; npos when there is none.
std::size_t find_code(const std::string& s, const Scan& sc, const std::string& token, std::size_t from) {
    for (std::size_t at = s.find(token, from); at != std::string::npos; at = s.find(token, at + 1)) {
        if (!sc.code[at]) continue;
        if (is_word(token.front()) && at > 0 && is_word(s[at - 1])) continue;
        const std::size_t end = at + token.size();
        if (is_word(token.back()) && end < s.size() && is_word(s[end])) continue;
        return at;
    }
    return std::string::npos;
}

// The position of the code character that closes the bracket opened at @p open (one of "([{").
std::size_t matching_close(const std::string& s, const Scan& sc, std::size_t open) {
    int depth = 0;
    for (std::size_t i = open; i < s.size(); ++i) {
        if (!sc.code[i]) continue;
        if (s[i] == '(' || s[i] == '[' || s[i] == '{') ++depth;
        if (s[i] == ')' || s[i] == ']' || s[i] == '}') {
            if (--depth == 0) return i;
        }
    }
    return std::string::npos;
}


// The declarators of "__shared__ T a[N][M], b[K];" (the text between __shared__ and ';').
std::vector<std::string> split_declarators(const std::string& text) {
    std::vector<std::string> pieces;
    int depth = 0;
    std::string piece;
    for (char c : text) {
        if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
        if (c == ')' || c == ']' || c == '}' || c == '>') --depth;
        if (c == ',' && depth == 0) {
            pieces.push_back(piece);
            piece.clear();
        } else {
            piece += c;
        }
    }
    pieces.push_back(piece);
    return pieces;
}

// Splits "T name[A][B]" (or "name[A]" when @p has_type is false) into type, name and extents.
Declarator parse_declarator(const std::string& piece, bool has_type, std::string* type) {
    const std::string text = trim(piece);
    std::size_t bracket = 0;
    int depth = 0;
    for (bracket = 0; bracket < text.size(); ++bracket) {
        if (text[bracket] == '<' || text[bracket] == '(') ++depth;
        if (text[bracket] == '>' || text[bracket] == ')') --depth;
        if (text[bracket] == '[' && depth == 0) break;
    }
    std::size_t name_end = bracket;
    while (name_end > 0 && std::isspace(static_cast<unsigned char>(text[name_end - 1]))) --name_end;
    std::size_t name_begin = name_end;
    while (name_begin > 0 && is_word(text[name_begin - 1])) --name_begin;
    Declarator d{text.substr(name_begin, name_end - name_begin), trim(text.substr(bracket))};
    if (has_type) {
        std::string t = trim(text.substr(0, name_begin));
        for (const char* drop : {"volatile ", "static "}) {
            for (std::size_t at = t.find(drop); at != std::string::npos; at = t.find(drop)) t.erase(at, std::string(drop).size());
        }
        // An alignment belongs to the storage, which the CPU backend aligns to 16 bytes anyway, not to the element.
        for (const char* drop : {"__align__(", "alignas("}) {
            for (std::size_t at = t.find(drop); at != std::string::npos; at = t.find(drop)) {
                const std::size_t close = t.find(')', at);
                t.erase(at, close == std::string::npos ? std::string::npos : close + 1 - at);
            }
        }
        *type = trim(t);
    }
    return d;
}

bool is_vector_type(const std::string& name) { return name == "float4" || name == "float2"; }

// The bodies of __global__ and __device__ functions, as [open brace, close brace] ranges.
std::vector<std::pair<std::size_t, std::size_t>> device_bodies(const std::string& s, const Scan& sc) {
    std::vector<std::pair<std::size_t, std::size_t>> bodies;
    for (const char* word : {"__global__", "__device__"})
        for (std::size_t at = find_code(s, sc, word, 0); at != std::string::npos; at = find_code(s, sc, word, at + 1)) {
            int parens = 0;  // the body: the first '{' outside parentheses, unless a ';' or '=' (a declaration) is first
            std::size_t i = at;
            for (; i < s.size(); ++i) {
                if (!sc.code[i]) continue;
                if (s[i] == '(') ++parens;
                if (s[i] == ')') --parens;
                if (parens == 0 && (s[i] == '{' || s[i] == ';' || s[i] == '=')) break;
            }
            if (i >= s.size() || s[i] != '{') continue;
            const std::size_t close = matching_close(s, sc, i);
            if (close != std::string::npos) bodies.emplace_back(i, close);
        }
    std::sort(bodies.begin(), bodies.end());
    std::vector<std::pair<std::size_t, std::size_t>> outermost;  // "__device__" inside a body names no second one
    for (const auto& body : bodies)
        if (outermost.empty() || body.first > outermost.back().second) outermost.push_back(body);
    return outermost;
}


bool in_statement_block(const std::string& s, const Scan& sc, std::size_t at) {
    const int depth = sc.brace_depth[at];
    if (depth == 0) return false;
    std::size_t open = at;
    while (open > 0) {
        --open;
        if (sc.code[open] && s[open] == '{' && sc.brace_depth[open] == depth) break;
    }
    std::size_t i = open;
    while (i > 0 && std::isspace(static_cast<unsigned char>(s[i - 1]))) --i;
    if (i == 0) return false;
    const char previous = s[i - 1];
    if (previous == ')' || previous == ']' || previous == '{' || previous == ';' || previous == '}' || previous == ':')
        return previous != ':' || (i >= 2 && s[i - 2] != ':');
    std::size_t w = i;
    while (w > 0 && is_word(s[w - 1])) --w;
    const std::string word = s.substr(w, i - w);
    return word == "else" || word == "do" || word == "try" || word == "const" || word == "noexcept" || word == "mutable";
}

}  // namespace tilelab::cpu::rewrite
