// Twins of the struct types that __shared__ declarations use (see struct_twins.hpp).
#include "struct_twins.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace tilelab::cpu::rewrite {
namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// The word that ends just before @p at (spaces skipped), and where it starts.
std::string word_before(const std::string& s, std::size_t at, std::size_t* start) {
    std::size_t i = at;
    while (i > 0 && is_space(s[i - 1])) --i;
    std::size_t b = i;
    while (b > 0 && is_word(s[b - 1])) --b;
    *start = b;
    return s.substr(b, i - b);
}

// One data member of a struct: "float m[T][T]" is {"float", "m", "[T][T]"}; a pointer's stars are in its type.
struct Member {
    std::string type;
    std::string name;
    std::string extents;
};

// "public: float a" -> "float a": access labels before a member (not "::").
std::string without_access_labels(std::string text) {
    for (bool again = true; again;) {
        again = false;
        for (const char* label : {"public", "private", "protected"}) {
            const std::size_t n = std::string(label).size();
            if (text.compare(0, n, label) != 0 || (text.size() > n && is_word(text[n]))) continue;
            const std::size_t colon = text.find_first_not_of(" \t\r\n", n);
            if (colon == std::string::npos || text[colon] != ':' || text.compare(colon, 2, "::") == 0) continue;
            text = trim(text.substr(colon + 1));
            again = true;
        }
    }
    return text;
}

// The data members of one member declaration @p piece ("float a[4], *b"); none for a function, a static member, a
// type, a bit-field or a member with an initialiser, which a twin does not need (or cannot have in shared memory).
void read_members(const std::string& piece, std::vector<Member>* members) {
    const std::string text = without_access_labels(trim(piece));
    if (text.empty()) return;
    std::size_t first_end = 0;
    while (first_end < text.size() && is_word(text[first_end])) ++first_end;
    const std::string first = text.substr(0, first_end);
    for (const char* other : {"static", "using", "typedef", "friend", "enum", "template", "constexpr", "struct",
                              "class", "union", "virtual", "explicit", "operator", "inline"})
        if (first == other) return;
    std::string bare = text;  // an alignment's parentheses are no function's
    for (const char* drop : {"__align__(", "alignas("})
        for (std::size_t at = bare.find(drop); at != std::string::npos; at = bare.find(drop)) {
            const std::size_t close = bare.find(')', at);
            bare.erase(at, close == std::string::npos ? std::string::npos : close + 1 - at);
        }
    if (bare.find_first_of("(=&{:") != std::string::npos) return;
    const std::vector<std::string> pieces = split_declarators(text);
    std::string base;
    for (std::size_t k = 0; k < pieces.size(); ++k) {
        std::string type;
        const Declarator d = parse_declarator(pieces[k], k == 0, &type);
        if (d.name.empty()) return;
        std::size_t stars = 0;
        if (k == 0) {
            stars = static_cast<std::size_t>(std::count(type.begin(), type.end(), '*'));
            type.erase(std::remove(type.begin(), type.end(), '*'), type.end());
            base = trim(type);
            if (base.empty()) return;
        } else {
            const std::string before_name = pieces[k].substr(0, pieces[k].find(d.name));
            stars = static_cast<std::size_t>(std::count(before_name.begin(), before_name.end(), '*'));
        }
        members->push_back(Member{base + std::string(stars, '*'), d.name, one_line(d.extents)});
    }
}

// The data members of @p definition, in order.
std::vector<Member> data_members(const std::string& s, const Scan& sc, const StructDefinition& definition) {
    std::vector<Member> members;
    std::string piece;
    int depth = 0;
    for (std::size_t i = definition.open + 1; i < definition.close; ++i) {
        if (!sc.code[i]) {  // a comment: a space
            piece += ' ';
            continue;
        }
        const char c = s[i];
        if (c == '(' || c == '[') ++depth;
        if (c == ')' || c == ']') --depth;
        if (c == '{' && depth == 0) {  // a member function's body or a nested type: no data member of the twin
            const std::size_t close = matching_close(s, sc, i);
            if (close == std::string::npos || close > definition.close) break;
            i = close;
            std::size_t next = close + 1;
            while (next < definition.close && is_space(s[next])) ++next;
            if (next < definition.close && s[next] == ';') i = next;
            piece.clear();
            continue;
        }
        if (c == ';' && depth == 0) {
            read_members(piece, &members);
            piece.clear();
            continue;
        }
        piece += c;
    }
    return members;
}

// The type a __shared__ declaration at @p at names (without its class key), or "" when the declaration defines a
// struct in place (its members are read from the definition) or cannot be read.
std::string shared_type_at(const std::string& s, const Scan& sc, std::size_t at) {
    const std::size_t body = at + std::string("__shared__").size();
    std::size_t semicolon = body;
    while (semicolon < s.size() && !(sc.code[semicolon] && (s[semicolon] == ';' || s[semicolon] == '{'))) ++semicolon;
    if (semicolon >= s.size() || s[semicolon] != ';') return "";
    std::string type;
    parse_declarator(split_declarators(s.substr(body, semicolon - body)).front(), true, &type);
    return without_class_key(type);
}

}  // namespace

bool inline_struct_definition(const std::string& s, const Scan& sc, std::size_t at, StructDefinition* definition) {
    std::size_t i = at + std::string("__shared__").size();
    for (;;) {
        while (i < s.size() && is_space(s[i])) ++i;
        std::size_t w = i;
        while (w < s.size() && is_word(s[w])) ++w;
        const std::string word = s.substr(i, w - i);
        if (word == "volatile" || word == "static") {
            i = w;
        } else if ((word == "alignas" || word == "__align__") && w < s.size() && s[w] == '(') {
            const std::size_t close = matching_close(s, sc, w);
            if (close == std::string::npos) return false;
            i = close + 1;
        } else {
            break;
        }
    }
    return read_struct_definition(s, sc, i, definition);
}

std::string without_class_key(const std::string& type) {
    std::string t = trim(type);
    for (const char* key : {"struct ", "class ", "union "})
        if (t.rfind(key, 0) == 0) t = trim(t.substr(std::string(key).size()));
    return t;
}

bool read_struct_definition(const std::string& s, const Scan& sc, std::size_t keyword, StructDefinition* definition) {
    if (keyword >= s.size() || !sc.code[keyword]) return false;
    std::size_t i = keyword;
    while (i < s.size() && is_word(s[i])) ++i;
    const std::string key = s.substr(keyword, i - keyword);
    if (key != "struct" && key != "class" && key != "union") return false;
    std::size_t start = 0;
    const std::string before = word_before(s, keyword, &start);
    if (before == "enum") return false;
    StructDefinition d;
    d.keyword = key;
    d.begin = before == "typedef" ? start : keyword;
    auto skip_space = [&] {
        while (i < s.size() && is_space(s[i])) ++i;
    };
    skip_space();
    for (const char* attribute : {"alignas", "__align__"}) {  // struct alignas(16) Tiles
        const std::size_t n = std::string(attribute).size();
        if (s.compare(i, n, attribute) == 0 && i + n < s.size() && s[i + n] == '(') {
            const std::size_t close = matching_close(s, sc, i + n);
            if (close == std::string::npos) return false;
            i = close + 1;
            skip_space();
        }
    }
    std::size_t name_end = i;
    while (name_end < s.size() && is_word(s[name_end])) ++name_end;
    if (name_end > i && s.compare(i, name_end - i, "final") != 0) {
        d.name = s.substr(i, name_end - i);
        i = name_end;
        skip_space();
    }
    if (s.compare(i, 5, "final") == 0 && (i + 5 >= s.size() || !is_word(s[i + 5]))) {
        i += 5;
        skip_space();
    }
    if (i >= s.size() || s[i] != '{' || !sc.code[i]) return false;
    d.open = i;
    d.close = matching_close(s, sc, i);
    if (d.close == std::string::npos) return false;
    std::size_t semicolon = d.close + 1;
    while (semicolon < s.size() && !(sc.code[semicolon] && (s[semicolon] == ';' || s[semicolon] == '{'))) ++semicolon;
    if (semicolon >= s.size() || s[semicolon] != ';') return false;
    d.semicolon = semicolon;
    if (before == "typedef") {  // typedef struct { ... } Name;
        std::size_t n = d.close + 1;
        while (n < semicolon && !is_word(s[n])) ++n;
        std::size_t e = n;
        while (e < semicolon && is_word(s[e])) ++e;
        d.name = s.substr(n, e - n);
    }
    *definition = d;
    return true;
}

std::string twin_definition(const std::string& s, const Scan& sc, const StructDefinition& definition,
                            const std::string& twin, const StructTwins& twins) {
    const std::vector<Member> members = data_members(s, sc, definition);
    std::string text = (definition.keyword == "union" ? "union " : "struct ") + twin + " {";
    std::string table;
    for (const Member& m : members) {
        const auto nested = twins.find(without_class_key(m.type));
        const std::string type =
            nested != twins.end() ? nested->second : "::tilelab::cpu::Shared<" + m.type + ">";
        text += " " + type + " " + m.name + m.extents + ";";
        table += std::string(table.empty() ? "" : ", ") + "::tilelab::cpu::shared_member<decltype(" + m.name +
                 ")>(\"" + m.name + "\", offsetof(" + twin + ", " + m.name + "))";
    }
    // The members named for messages: an element of shared memory is "tiles.m[3][4]".
    text += " static const ::tilelab::cpu::SharedMember* tilelab_members(std::size_t& count) noexcept {";
    if (members.empty())
        text += " count = 0; return nullptr; }";
    else
        text += " static const ::tilelab::cpu::SharedMember members[] = {" + table + "}; count = " +
                std::to_string(members.size()) + "; return members; }";
    // A copy of the whole struct out of shared memory (a parameter by value, `Tiles t = tiles;`) would read its
    // members unseen: the build says so, naming it, rather than failing to convert the twin.
    if (!definition.name.empty())
        text += " template <class tilelab_T, ::std::enable_if_t<::std::is_same_v<tilelab_T, " + definition.name +
                ">, int> = 0> operator tilelab_T() const { return ::tilelab::cpu::detail::copied_shared_struct<tilelab_T>(); }";
    return text + " };";
}

StructTwins add_struct_twins(const std::string& s, const Scan& sc, std::vector<Edit>& edits) {
    // Every named definition; those in place in a __shared__ declaration are rewritten with it (rewrite_shared).
    std::map<std::string, StructDefinition> definitions;
    std::set<std::string> in_place;
    std::vector<std::string> wanted;
    for (const char* key : {"struct", "class", "union"})
        for (std::size_t at = find_code(s, sc, key, 0); at != std::string::npos; at = find_code(s, sc, key, at + 1)) {
            StructDefinition d;
            if (read_struct_definition(s, sc, at, &d) && !d.name.empty()) definitions.emplace(d.name, d);
        }
    for (std::size_t at = find_code(s, sc, "__shared__", 0); at != std::string::npos;
         at = find_code(s, sc, "__shared__", at + 1)) {
        if (sc.brace_depth[at] == 0) continue;  // as cuda_to_cpp: only declarations in function bodies are rewritten
        StructDefinition d;
        if (inline_struct_definition(s, sc, at, &d)) {
            if (!d.name.empty()) in_place.insert(d.name);
            for (const Member& m : data_members(s, sc, d)) wanted.push_back(without_class_key(m.type));
        } else {
            wanted.push_back(shared_type_at(s, sc, at));
        }
    }
    for (const std::string& name : in_place) wanted.push_back(name);
    StructTwins twins;
    while (!wanted.empty()) {  // the closure: a twin's members of struct type are twins too
        const std::string name = wanted.back();
        wanted.pop_back();
        const auto found = definitions.find(name);
        if (found == definitions.end() || twins.count(name) != 0) continue;
        twins.emplace(name, "tilelab_shared_" + name);
        for (const Member& m : data_members(s, sc, found->second)) wanted.push_back(without_class_key(m.type));
    }
    for (const auto& [name, twin] : twins) {
        if (in_place.count(name) != 0) continue;
        const StructDefinition& d = definitions.at(name);
        edits.push_back(Edit{d.semicolon + 1, d.semicolon + 1, " " + twin_definition(s, sc, d, twin, twins)});
    }
    return twins;
}

}  // namespace tilelab::cpu::rewrite
