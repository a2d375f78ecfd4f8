// Pointer declarations on the CPU backend's source rewrite (pointer_declarations.hpp).
#include "pointer_declarations.hpp"

#include <cctype>
#include <utility>

namespace tilelab::cpu::rewrite {

const char* const pointee_types[] = {"float", "double", "int", "unsigned", "short", "char", "long", "bool"};

bool is_pointee_word(const std::string& word) {
    for (const char* type : pointee_types)
        if (word == type) return true;
    return false;
}

bool read_pointer_declaration(const std::string& s, const Scan& sc, std::size_t at, std::string* type,
                              std::string* name, std::size_t* end) {
    std::size_t i = at;
    auto skip_space = [&] {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    };
    auto word = [&] {
        std::size_t b = i;
        while (i < s.size() && is_word(s[i])) ++i;
        return s.substr(b, i - b);
    };
    bool is_const = false;
    std::string base;
    for (;;) {
        skip_space();
        if (i >= s.size() || !sc.code[i]) return false;
        const std::size_t before = i;
        const std::string w = word();
        if (w.empty()) break;
        if (w == "const") {
            is_const = true;
        } else if (is_pointee_word(w) || (w == "unsigned" || w == "signed")) {
            base += (base.empty() ? "" : " ") + w;
        } else {
            i = before;
            break;
        }
    }
    if (base.empty() || i >= s.size() || s[i] != '*') return false;
    ++i;
    if (i < s.size() && (s[i] == '*' || s[i] == '=' || s[i] == '&')) return false;  // T**, "*=", *&
    skip_space();
    std::string w = word();
    if (w == "__restrict__" || w == "__restrict" || w == "const") {
        skip_space();
        w = word();
    }
    if (w.empty() || !(std::isalpha(static_cast<unsigned char>(w[0])) || w[0] == '_')) return false;
    *type = (is_const ? "const " : "") + base;
    *name = w;
    *end = i;
    return true;
}


namespace {

// The spans of device code: each __global__ or __device__ function from that word to its body's '}' (its return
// and parameter types too), or to the ';' of a declaration.
std::vector<std::pair<std::size_t, std::size_t>> device_spans(const std::string& s, const Scan& sc) {
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    for (const char* word : {"__global__", "__device__"})
        for (std::size_t at = find_code(s, sc, word, 0); at != std::string::npos; at = find_code(s, sc, word, at + 1)) {
            int parens = 0;
            std::size_t i = at;
            for (; i < s.size(); ++i) {
                if (!sc.code[i]) continue;
                if (s[i] == '(') ++parens;
                if (s[i] == ')') --parens;
                if (parens == 0 && (s[i] == '{' || s[i] == ';')) break;
            }
            const std::size_t end = i < s.size() && s[i] == '{' ? matching_close(s, sc, i) : i;
            spans.emplace_back(at, end == std::string::npos ? s.size() : end);
        }
    return spans;
}

// The name of the class whose key word is at @p at and whose body opens at @p open: the one after the key word, or,
// for "typedef struct { ... } Name;", the one after the body.
std::string class_name(const std::string& s, const Scan& sc, std::size_t at, std::size_t open, std::size_t close) {
    std::size_t i = at;
    while (i < open && is_word(s[i])) ++i;  // the key word
    while (i < open && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    std::size_t e = i;
    while (e < open && is_word(s[e])) ++e;
    if (e > i) return s.substr(i, e - i);
    i = close + 1;
    while (i < s.size() && (!sc.code[i] || std::isspace(static_cast<unsigned char>(s[i])))) ++i;
    e = i;
    while (e < s.size() && is_word(s[e])) ++e;
    return s.substr(i, e - i);
}

}  // namespace

void rewrite_pointer_members(const std::string& s, const Scan& sc, std::vector<Edit>& edits) {
    const std::vector<std::pair<std::size_t, std::size_t>> spans = device_spans(s, sc);
    auto named_in_device_code = [&](const std::string& name) {  // host code's own structs keep plain pointers
        if (name.empty()) return true;
        for (std::size_t at = find_code(s, sc, name, 0); at != std::string::npos; at = find_code(s, sc, name, at + 1))
            for (const auto& [begin, end] : spans)
                if (at > begin && at < end) return true;
        return false;
    };
    for (const char* keyword : {"struct", "class", "union"}) {
        const std::size_t length = std::string(keyword).size();
        for (std::size_t at = find_code(s, sc, keyword, 0); at != std::string::npos;
             at = find_code(s, sc, keyword, at + 1)) {
            // The definition's '{', after the name and any base clause ("enum class" and "template <class T>"
            // reach a ';', '>' or ',' first; a declaration "struct S* p" a ';' or ')').
            std::size_t open = at + length;
            int angles = 0;
            for (; open < s.size(); ++open) {
                if (!sc.code[open]) continue;
                const char c = s[open];
                if (c == '{' || c == ';' || c == '(' || c == ')' || c == '=' || (angles == 0 && (c == '>' || c == ',')))
                    break;
                if (c == '<') ++angles;
                if (c == '>') --angles;
            }
            if (open >= s.size() || s[open] != '{') continue;
            const std::size_t close = matching_close(s, sc, open);
            if (close == std::string::npos) continue;
            const int depth = sc.brace_depth[open];
            if (!named_in_device_code(class_name(s, sc, at, open, close))) continue;
            for (std::size_t k = open + 1; k < close; ++k) {
                if (!sc.code[k] || sc.brace_depth[k] != depth || !is_word(s[k]) || is_word(s[k - 1])) continue;
                // A member's declaration starts after '{', ';', '}' or an access specifier's ':'.
                std::size_t before = k;
                while (before > open && (!sc.code[before - 1] || std::isspace(static_cast<unsigned char>(s[before - 1]))))
                    --before;
                const char previous = s[before - 1];
                if (!(previous == '{' || previous == ';' || previous == '}' ||
                      (previous == ':' && s[before - 2] != ':')))
                    continue;
                std::string type, name;
                std::size_t end = 0;
                // Const members too: a copy of M or N is a checked pointer (its reads are counted), and a union
                // with a DevicePointer member has no default constructor, so that it cannot reread an integer's bits
                // as a plain pointer.
                if (!read_pointer_declaration(s, sc, k, &type, &name, &end)) continue;
                std::size_t next = end;
                while (next < close && std::isspace(static_cast<unsigned char>(s[next]))) ++next;
                if (!(s[next] == ';' || s[next] == '=' || s[next] == '{')) continue;  // a member function
                edits.push_back(Edit{k, end, "::tilelab::cpu::DevicePointer<" + type + "> " + name});
                k = end;
            }
        }
    }
}

std::set<std::string> type_names(const std::string& s, const Scan& sc) {
    std::set<std::string> names;
    auto last_word = [&](std::size_t begin, std::size_t end) {  // the last identifier in [begin, end)
        while (end > begin && !is_word(s[end - 1])) --end;
        std::size_t start = end;
        while (start > begin && is_word(s[start - 1])) --start;
        return start < end && !std::isdigit(static_cast<unsigned char>(s[start])) ? s.substr(start, end - start) : "";
    };
    for (std::size_t at = find_code(s, sc, "typedef", 0); at != std::string::npos; at = find_code(s, sc, "typedef", at + 1)) {
        std::size_t end = at;  // the ';' after any struct's braces
        int depth = 0;
        for (; end < s.size(); ++end) {
            if (!sc.code[end]) continue;
            if (s[end] == '{') ++depth;
            if (s[end] == '}') --depth;
            if (depth == 0 && s[end] == ';') break;
        }
        if (end < s.size()) names.insert(last_word(at, end));
    }
    for (std::size_t at = find_code(s, sc, "using", 0); at != std::string::npos; at = find_code(s, sc, "using", at + 1)) {
        std::size_t equals = at;
        while (equals < s.size() && !(sc.code[equals] && (s[equals] == '=' || s[equals] == ';'))) ++equals;
        if (equals < s.size() && s[equals] == '=') names.insert(last_word(at + 5, equals));
    }
    for (std::size_t at = find_code(s, sc, "template", 0); at != std::string::npos; at = find_code(s, sc, "template", at + 1)) {
        std::size_t i = at + 8;
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        if (i >= s.size() || s[i] != '<') continue;
        int depth = 0;
        std::size_t close = i;
        for (; close < s.size(); ++close) {
            if (!sc.code[close]) continue;
            if (s[close] == '<') ++depth;
            if (s[close] == '>' && --depth == 0) break;
        }
        for (const char* key : {"class", "typename"})
            for (std::size_t k = find_code(s, sc, key, i); k != std::string::npos && k < close; k = find_code(s, sc, key, k + 1)) {
                std::size_t b = k + std::string(key).size();
                while (b < close && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
                std::size_t e = b;
                while (e < close && is_word(s[e])) ++e;
                if (e > b) names.insert(s.substr(b, e - b));
            }
    }
    names.erase("");
    return names;
}

}  // namespace tilelab::cpu::rewrite
