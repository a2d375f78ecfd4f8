// __device__ functions' array, alias and struct parameters as deduced types (see array_parameters.hpp).
#include "array_parameters.hpp"

#include <cctype>

namespace tilelab::cpu::rewrite {
namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// The element types an array parameter may have that the rewrite knows by name (an alias is known from the source).
bool is_element_word(const std::string& word) {
    for (const char* type : {"float", "double", "int", "unsigned", "signed", "short", "char", "long", "bool",
                             "float4", "float2"})
        if (word == type) return true;
    return false;
}

// True when the line holding @p at is a preprocessor directive.
bool on_directive_line(const std::string& s, std::size_t at) {
    const std::size_t newline = at == 0 ? std::string::npos : s.rfind('\n', at - 1);
    const std::size_t first = s.find_first_not_of(" \t", newline == std::string::npos ? 0 : newline + 1);
    return first != std::string::npos && first <= at && s[first] == '#';
}

// What one parameter becomes: the bytes [begin, end) replaced by text; whether the replacement names a template
// parameter the function must declare.
struct ParameterEdit {
    Edit edit;
    bool deduced = false;
};

// Reads the parameter [b, e) of @p s: "[const] T (&name)[A][B]", "[const] T (*name)[B]", "[const] T name[A][B]",
// "[const] T name[]" (T an element type or an alias), "[const] N& name" / "N* name" (N an alias or a struct with a
// twin); the name may be left out. On success sets @p out: the type's words replaced by @p deduced_name (or, for a
// 1-D array of scalars, the whole parameter by a DevicePointer).
bool read_parameter(const std::string& s, const Scan& sc, std::size_t b, std::size_t e,
                    const std::set<std::string>& aliases, const StructTwins& twins, const std::string& deduced_name,
                    ParameterEdit* out) {
    std::size_t i = b;
    auto skip_space = [&] {
        while (i < e && (is_space(s[i]) || !sc.code[i])) ++i;
    };
    skip_space();
    const std::size_t start = i;
    struct Word {
        std::size_t begin, end;
    };
    std::vector<Word> type;  // the words that are not cv-qualifiers; a class key joins the word after it
    bool is_const = false, class_key = false;
    for (;;) {
        skip_space();
        std::size_t w = i;
        while (w < e && (is_word(s[w]) || s[w] == ':')) ++w;
        if (w == i) break;
        const std::string word = s.substr(i, w - i);
        if (word == "volatile" || word == "__restrict__" || word == "__restrict") return false;
        if (word == "const") {
            is_const = true;
        } else if (word == "struct" || word == "class") {
            class_key = true;
            type.push_back(Word{i, w});
        } else if (class_key) {
            type.back().end = w;
            class_key = false;
        } else {
            type.push_back(Word{i, w});
        }
        i = w;
    }
    if (type.empty() || class_key || i >= e) return false;
    auto text_of = [&](const Word& w) { return s.substr(w.begin, w.end - w.begin); };
    auto bare = [&](const Word& w) { return without_class_key(one_line(text_of(w))); };
    // "T name[...]": the last word is the name, unless it is the only one ("float[8]", no name).
    std::string name;
    if (s[i] == '[' && type.size() >= 2) {
        name = text_of(type.back());
        type.pop_back();
    }
    for (std::size_t k = 1; k < type.size(); ++k)  // "unsigned int": the type's words must follow one another
        if (trim(s.substr(type[k - 1].end, type[k].begin - type[k - 1].end)).size() != 0) return false;
    std::string words;
    for (const Word& w : type) words += (words.empty() ? "" : " ") + bare(w);
    const std::string last = bare(type.back());
    const bool alias = type.size() == 1 && aliases.count(last) != 0;
    const bool twin = type.size() == 1 && twins.count(last) != 0;
    const bool element = is_element_word(last) || alias;
    auto replaced = [&] {
        out->edit = Edit{type.front().begin, type.back().end, deduced_name};
        out->deduced = true;
        return true;
    };
    if (s[i] == '(') {  // T (&name)[A]..., T (*name)[A]...
        if (!element) return false;
        ++i;
        skip_space();
        if (i >= e || (s[i] != '&' && s[i] != '*')) return false;
        ++i;
        skip_space();
        while (i < e && is_word(s[i])) ++i;
        skip_space();
        if (i >= e || s[i] != ')') return false;
        ++i;
        skip_space();
        if (i >= e || s[i] != '[') return false;
        return replaced();
    }
    if (s[i] == '&' || s[i] == '*') {  // N& name, N* name
        if (i + 1 < e && (s[i + 1] == '&' || s[i + 1] == '*')) return false;
        if (!alias && !twin) return false;
        ++i;
        skip_space();
        while (i < e && is_word(s[i])) ++i;
        skip_space();
        if (i != e) return false;  // a default argument, or more than a name
        return replaced();
    }
    if (s[i] != '[' || !element) return false;  // T name[A][B], T name[]
    int extents = 0;
    while (i < e && s[i] == '[') {
        const std::size_t close = matching_close(s, sc, i);
        if (close == std::string::npos || close >= e) return false;
        ++extents;
        i = close + 1;
        skip_space();
    }
    if (i != e) return false;
    if (extents >= 2 || is_vector_type(last) || alias) return replaced();
    // float tile[] or float tile[N]: the float* it is, rewritten as a pointer parameter is.
    out->edit = Edit{start, e, "::tilelab::cpu::DevicePointer<" + std::string(is_const ? "const " : "") + words +
                                   "> " + name + newlines_in(s.substr(start, e - start))};
    out->deduced = false;
    return true;
}

// The parameters of the list whose '(' is at @p open, up to its ')' at @p close, as [begin, end) ranges.
std::vector<std::pair<std::size_t, std::size_t>> parameters(const std::string& s, const Scan& sc, std::size_t open,
                                                            std::size_t close) {
    std::vector<std::pair<std::size_t, std::size_t>> pieces;
    std::size_t piece = open + 1;
    int depth = 0;
    for (std::size_t k = open + 1; k <= close; ++k) {
        if (!sc.code[k]) continue;
        if (s[k] == '(' || s[k] == '[' || s[k] == '<' || s[k] == '{') ++depth;
        if ((s[k] == ')' || s[k] == ']' || s[k] == '>' || s[k] == '}') && k != close) --depth;
        if (k == close || (depth == 0 && s[k] == ',')) {
            pieces.emplace_back(piece, k);
            piece = k + 1;
        }
    }
    return pieces;
}

// Where the template header of the function whose "__device__" is at @p at goes: sets @p header_close to the '>'
// of its `template <...>` when it has one, else @p start to where the declaration starts (before "static",
// "inline", "__host__" and the return type). False when neither can be found, or for `template <>`.
bool template_site(const std::string& s, const Scan& sc, std::size_t at, std::size_t* header_close, std::size_t* start) {
    std::size_t i = at;
    for (;;) {
        while (i > 0 && (is_space(s[i - 1]) || !sc.code[i - 1])) --i;
        if (i == 0) break;
        if (is_word(s[i - 1])) {
            std::size_t w = i;
            while (w > 0 && is_word(s[w - 1])) --w;
            if (on_directive_line(s, w)) break;
            i = w;
            continue;
        }
        if (i >= 2 && s[i - 1] == ':' && s[i - 2] == ':') {
            i -= 2;
            continue;
        }
        if (s[i - 1] == '*' || s[i - 1] == '&') {
            --i;
            continue;
        }
        break;
    }
    *header_close = std::string::npos;
    *start = i;
    if (i == 0 || s[i - 1] != '>') {
        // The first word of the declaration: after the directive line the walk stopped at, past spaces.
        std::size_t first = i;
        while (first < at && (is_space(s[first]) || !sc.code[first])) ++first;
        *start = first;
        return true;
    }
    // template <...>: its '<', brackets and parentheses matched backwards.
    int depth = 0;
    std::size_t j = i - 1;
    for (;; --j) {
        if (sc.code[j]) {
            if (s[j] == '>' || s[j] == ')') ++depth;
            if ((s[j] == '<' || s[j] == '(') && --depth == 0) break;
        }
        if (j == 0) return false;
    }
    if (s[j] != '<') return false;
    std::size_t w = j;
    while (w > 0 && is_space(s[w - 1])) --w;
    if (w < 8 || s.compare(w - 8, 8, "template") != 0 || (w > 8 && is_word(s[w - 9]))) return false;
    if (trim(s.substr(j + 1, i - 1 - (j + 1))).empty()) return false;  // template <>: an explicit specialisation
    *header_close = i - 1;
    return true;
}

// The lambdas in device bodies, `[...](float (&t)[R][C]) {...}`: their parameters of those types become `auto`.
void rewrite_lambda_parameters(const std::string& s, const Scan& sc, const std::set<std::string>& aliases,
                               const StructTwins& twins, std::vector<Edit>& edits) {
    for (const auto& [open_brace, close_brace] : device_bodies(s, sc))
        for (std::size_t at = open_brace + 1; at < close_brace; ++at) {
            if (!sc.code[at] || s[at] != '[') continue;
            std::size_t before = at;  // a subscript follows a name or a bracket; a lambda's '[' does not
            while (before > open_brace && is_space(s[before - 1])) --before;
            if (is_word(s[before - 1]) || s[before - 1] == ')' || s[before - 1] == ']') continue;
            const std::size_t introducer = matching_close(s, sc, at);
            if (introducer == std::string::npos || introducer >= close_brace) continue;
            std::size_t open = introducer + 1;
            while (open < close_brace && is_space(s[open])) ++open;
            if (open >= close_brace || s[open] != '(') continue;
            const std::size_t close = matching_close(s, sc, open);
            if (close == std::string::npos || close >= close_brace) continue;
            for (const auto& [b, e] : parameters(s, sc, open, close)) {
                ParameterEdit p;
                if (read_parameter(s, sc, b, e, aliases, twins, "auto", &p)) edits.push_back(p.edit);
            }
        }
}

}  // namespace

void rewrite_array_parameters(const std::string& s, const Scan& sc, const std::set<std::string>& aliases,
                              const StructTwins& twins, std::vector<Edit>& edits) {
    for (std::size_t at = find_code(s, sc, "__device__", 0); at != std::string::npos;
         at = find_code(s, sc, "__device__", at + 1)) {
        if (on_directive_line(s, at)) continue;
        // The function's parameter list: the first '(' before any ';', '{' or '=' (a variable has none).
        std::size_t open = at;
        while (open < s.size() && !(sc.code[open] && (s[open] == '(' || s[open] == ';' || s[open] == '{' || s[open] == '=')))
            ++open;
        if (open >= s.size() || s[open] != '(') continue;
        if (s.substr(at, open - at).find("__global__") != std::string::npos) continue;
        const std::size_t close = matching_close(s, sc, open);
        if (close == std::string::npos) continue;
        std::vector<ParameterEdit> found;
        std::string added;
        int index = 0;
        for (const auto& [b, e] : parameters(s, sc, open, close)) {
            const std::string deduced = "tilelab_E" + std::to_string(index++);
            ParameterEdit p;
            if (!read_parameter(s, sc, b, e, aliases, twins, deduced, &p)) continue;
            found.push_back(p);
            if (p.deduced) added += std::string(added.empty() ? "" : ", ") + "class " + deduced;
        }
        if (found.empty()) continue;
        if (!added.empty()) {
            std::size_t header_close = 0, start = 0;
            if (!template_site(s, sc, at, &header_close, &start)) continue;  // left as written: the build check says why
            if (header_close != std::string::npos)
                edits.push_back(Edit{header_close, header_close, ", " + added});
            else
                edits.push_back(Edit{start, start, "template <" + added + "> "});
        }
        for (const ParameterEdit& p : found) edits.push_back(p.edit);
    }
    rewrite_lambda_parameters(s, sc, aliases, twins, edits);
}

}  // namespace tilelab::cpu::rewrite
