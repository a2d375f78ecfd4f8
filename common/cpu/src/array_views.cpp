// Casts to array views and variables declared as views (see array_views.hpp).
#include "array_views.hpp"

#include <cctype>

namespace tilelab::cpu::rewrite {
namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// The element types a view may have that the rewrite knows by name (an alias is known from the source).
bool is_builtin_word(const std::string& word) {
    for (const char* type : {"float", "double", "int", "unsigned", "signed", "short", "char", "long", "bool",
                             "float4", "float2"})
        if (word == type) return true;
    return false;
}

// The type words at @p i of @p text ("const unsigned int", "ns::Tile"), spaces skipped: the words without cv, whether
// "const" was among them, and the last word; false at "volatile" (a volatile view is not followed).
bool read_type_words(const std::string& text, std::size_t& i, std::string* words, bool* is_const, std::string* last) {
    for (;;) {
        while (i < text.size() && is_space(text[i])) ++i;
        std::size_t end = i;
        while (end < text.size() && (is_word(text[end]) || text[end] == ':')) ++end;
        if (end == i) return true;
        const std::string word = text.substr(i, end - i);
        if (word == "volatile") return false;
        if (word == "const") {
            *is_const = true;
        } else {
            *words += (words->empty() ? "" : " ") + word;
            *last = word;
        }
        i = end;
    }
}

// The extents "[A][B]" at @p i of @p text (brackets matched, spaces between them skipped); "" when none.
std::string read_extents(const std::string& text, std::size_t& i) {
    std::string extents;
    while (i < text.size() && text[i] == '[') {
        int depth = 0;
        std::size_t j = i;
        for (; j < text.size(); ++j) {
            if (text[j] == '[') ++depth;
            if (text[j] == ']' && --depth == 0) break;
        }
        if (j >= text.size()) return "";
        extents += one_line(text.substr(i, j + 1 - i));
        i = j + 1;
        while (i < text.size() && is_space(text[i])) ++i;
    }
    return extents;
}

}  // namespace

std::set<std::string> array_aliases(const std::string& s, const Scan& sc) {
    std::set<std::string> aliases;
    for (const char* key : {"using", "typedef"})
        for (std::size_t at = find_code(s, sc, key, 0); at != std::string::npos; at = find_code(s, sc, key, at + 1)) {
            std::size_t end = at;
            while (end < s.size() && !(sc.code[end] && (s[end] == ';' || s[end] == '{'))) ++end;
            if (end >= s.size() || s[end] != ';') continue;
            const std::string text = s.substr(at, end - at);
            const std::size_t bracket = text.find('[');
            if (bracket == std::string::npos || text.find('(') < bracket) continue;  // no array, or a function's
            std::size_t name_begin = 0, name_end = 0;
            if (text[0] == 'u') {  // using N = T[..]
                const std::size_t equals = text.find('=');
                if (equals == std::string::npos || equals > bracket) continue;
                name_end = equals;
                while (name_end > 0 && is_space(text[name_end - 1])) --name_end;
            } else {  // typedef T N[..]
                name_end = bracket;
                while (name_end > 0 && is_space(text[name_end - 1])) --name_end;
            }
            name_begin = name_end;
            while (name_begin > 0 && is_word(text[name_begin - 1])) --name_begin;
            if (name_end > name_begin) aliases.insert(text.substr(name_begin, name_end - name_begin));
        }
    return aliases;
}

std::string array_cast_type(const std::string& text) {
    std::size_t i = 0;
    std::string words, last;
    bool is_const = false;
    if (!read_type_words(text, i, &words, &is_const, &last) || words.empty()) return "";
    const std::string element = (is_const ? "const " : "") + words;
    if (i < text.size() && text[i] == '(') {  // T (*)[A] or T (&)[A]
        ++i;
        while (i < text.size() && is_space(text[i])) ++i;
        if (i >= text.size() || (text[i] != '*' && text[i] != '&')) return "";
        const char kind = text[i++];
        while (i < text.size() && is_space(text[i])) ++i;
        if (i >= text.size() || text[i] != ')') return "";
        ++i;
        while (i < text.size() && is_space(text[i])) ++i;
        const std::string extents = read_extents(text, i);
        if (extents.empty() || i != text.size()) return "";
        return std::string(kind == '*' ? "::tilelab::cpu::CastPointer<" : "::tilelab::cpu::CastReference<") + element +
               extents + ">";
    }
    if (i < text.size() && text[i] == '&' && !is_builtin_word(last)) {  // N&: N may be an alias of an array type
        ++i;
        while (i < text.size() && is_space(text[i])) ++i;
        if (i != text.size()) return "";
        return "::tilelab::cpu::CastReference<" + element + ">";
    }
    return "";
}

void rewrite_view_declarations(const std::string& s, const Scan& sc, const std::set<std::string>& aliases,
                               std::vector<Edit>& edits) {
    for (const auto& [open_brace, close_brace] : device_bodies(s, sc)) {
        for (std::size_t after = open_brace; after < close_brace; ++after) {
            if (!sc.code[after] || (s[after] != ';' && s[after] != '{' && s[after] != '}')) continue;
            std::size_t start = after + 1;  // a statement starts here, after spaces and comments
            while (start < close_brace && (is_space(s[start]) || !sc.code[start])) ++start;
            if (start >= close_brace || !in_statement_block(s, sc, start)) continue;
            std::size_t i = start;
            std::string words, last;
            bool is_const = false;
            if (!read_type_words(s, i, &words, &is_const, &last) || words.empty()) continue;
            const bool alias = aliases.count(last) != 0 && words == last;
            if (!alias && !is_builtin_word(last)) continue;  // only types known to be element types or arrays
            std::size_t name_begin = 0, name_end = 0;
            auto skip_space = [&] {
                while (i < close_brace && is_space(s[i])) ++i;
            };
            auto read_name = [&] {
                skip_space();
                name_begin = i;
                while (i < close_brace && is_word(s[i])) ++i;
                name_end = i;
                return name_end > name_begin && !std::isdigit(static_cast<unsigned char>(s[name_begin]));
            };
            if (s[i] == '(') {  // T (*v)[A] or T (&v)[A]
                ++i;
                skip_space();
                if (s[i] != '*' && s[i] != '&') continue;
                ++i;
                if (!read_name()) continue;
                skip_space();
                if (s[i] != ')') continue;
                ++i;
                skip_space();
                if (read_extents(s, i).empty()) continue;
            } else if (alias && (s[i] == '*' || s[i] == '&')) {  // N* v or N& v
                ++i;
                if (s[i] == '&' || s[i] == '*') continue;
                if (!read_name()) continue;
            } else {
                continue;
            }
            skip_space();
            if (s[i] != '=' || s[i + 1] == '=') continue;
            const std::size_t equals = i;
            int depth = 0;  // the initialiser ends at the ';' outside brackets; a second declarator is left alone
            std::size_t stop = equals + 1;
            for (; stop < close_brace; ++stop) {
                if (!sc.code[stop]) continue;
                const char c = s[stop];
                if (c == '(' || c == '[' || c == '{') ++depth;
                if (c == ')' || c == ']' || c == '}') --depth;
                if (depth < 0 || (depth == 0 && (c == ';' || c == ','))) break;
            }
            if (stop >= close_brace || s[stop] != ';') continue;
            const std::string declared = s.substr(start, name_begin - start) + s.substr(name_end, equals - name_end);
            edits.push_back(Edit{start, equals + 1,
                                 "decltype(auto) " + s.substr(name_begin, name_end - name_begin) +
                                     " = ::tilelab::cpu::as_view<" + one_line(declared) + ">(" +
                                     newlines_in(s.substr(start, equals - start))});
            edits.push_back(Edit{stop, stop, ")"});
        }
    }
}

}  // namespace tilelab::cpu::rewrite
