#include <tilelab/cpu/cuda_to_cpp.hpp>

#include "source_text.hpp"
#include "struct_twins.hpp"
#include "array_views.hpp"
#include "array_parameters.hpp"
#include "pointer_declarations.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tilelab::cpu {
namespace {

using namespace rewrite;

// kernel<<<config>>>(args)
Edit rewrite_launch(const std::string& s, const Scan& sc, std::size_t chevrons) {
    // The kernel: an id-expression just before "<<<": names, "::", template arguments.
    std::size_t begin = chevrons;
    std::size_t i = chevrons;
    auto skip_space_back = [&] {
        while (i > 0 && std::isspace(static_cast<unsigned char>(s[i - 1]))) --i;
    };
    skip_space_back();
    for (;;) {
        if (i > 0 && s[i - 1] == '>' && sc.code[i - 1]) {  // template arguments
            int depth = 0;
            std::size_t j = i;
            while (j > 0) {
                --j;
                if (!sc.code[j]) continue;
                if (s[j] == '>') ++depth;
                if (s[j] == '<' && --depth == 0) break;
            }
            if (depth != 0) fail(s, chevrons, "cannot find the '<' of the kernel's template arguments");
            i = j;
            skip_space_back();
        }
        const std::size_t name_end = i;
        while (i > 0 && is_word(s[i - 1])) --i;
        if (i == name_end) fail(s, chevrons, "a launch '<<<' must follow the kernel's name");
        begin = i;
        skip_space_back();
        if (i >= 2 && s[i - 1] == ':' && s[i - 2] == ':') {
            i -= 2;
            begin = i;
            skip_space_back();
            if (i == 0 || !(is_word(s[i - 1]) || s[i - 1] == '>')) break;  // "::kernel"
            continue;
        }
        break;
    }
    const std::string kernel = s.substr(begin, chevrons - begin);

    // The configuration, up to the ">>>" outside any bracket.
    int depth = 0;
    std::size_t close = std::string::npos;
    for (std::size_t j = chevrons + 3; j + 2 < s.size(); ++j) {
        if (!sc.code[j]) continue;
        if (s[j] == '(' || s[j] == '[' || s[j] == '{') ++depth;
        if (s[j] == ')' || s[j] == ']' || s[j] == '}') --depth;
        if (depth == 0 && s.compare(j, 3, ">>>") == 0) {
            close = j;
            break;
        }
        if (s[j] == ';') break;
    }
    if (close == std::string::npos) fail(s, chevrons, "cannot find the '>>>' that closes this launch");
    const std::string configuration = s.substr(chevrons + 3, close - chevrons - 3);
    if (trim(configuration).empty()) fail(s, chevrons, "the launch gives no grid and block");

    std::size_t open = close + 3;
    while (open < s.size() && std::isspace(static_cast<unsigned char>(s[open]))) ++open;
    if (open >= s.size() || s[open] != '(') fail(s, close, "a launch needs its arguments in ( ) after '>>>'");
    const std::size_t end = matching_close(s, sc, open);
    if (end == std::string::npos) fail(s, open, "the launch's argument list is not closed");

    // The arguments as written go along too, so that a launch refused for a host pointer can name it.
    std::string written;
    for (char c : one_line(s.substr(open + 1, end - open - 1))) {
        if (c == '"' || c == '\\') written += '\\';
        written += c;
    }
    std::string text = "::tilelab::cpu::launch(" + kernel + ", \"" + one_line(kernel) + "\", __FILE__, __LINE__, " +
                       configuration + ").written_as(\"" + written + "\")" + s.substr(close + 3, open - close - 3) +
                       s.substr(open, end - open + 1);
    return Edit{begin, end + 1, text};
}


// "__shared__ T a[N], b;" -> references into the block's shared memory, elements Shared<T>; a struct type with a twin
// (struct_twins.hpp) is declared with its twin's type, and a struct defined in place gets its twin there.
Edit rewrite_shared(const std::string& s, const Scan& sc, std::size_t at, const StructTwins& twins) {
    // "extern" or "static" just before belongs to the declaration.
    std::size_t begin = at;
    bool is_extern = false;
    for (;;) {
        std::size_t i = begin;
        while (i > 0 && std::isspace(static_cast<unsigned char>(s[i - 1]))) --i;
        std::size_t word = i;
        while (word > 0 && is_word(s[word - 1])) --word;
        const std::string previous = s.substr(word, i - word);
        if (previous == "extern" || previous == "static") {
            is_extern = is_extern || previous == "extern";
            begin = word;
            continue;
        }
        break;
    }
    const std::size_t body = at + std::string("__shared__").size();
    StructDefinition in_place;
    const bool defines = inline_struct_definition(s, sc, at, &in_place);
    std::size_t semicolon = defines ? in_place.semicolon : body;
    while (semicolon < s.size() && !(sc.code[semicolon] && s[semicolon] == ';')) ++semicolon;
    if (semicolon >= s.size()) fail(s, at, "a __shared__ declaration must end with ';'");
    const std::size_t declarators = defines ? in_place.close + 1 : body;
    const std::string declaration = s.substr(declarators, semicolon - declarators);
    const std::vector<std::string> pieces = split_declarators(declaration);

    std::string type;
    std::string text;
    std::string twin;  // the element type when it is a struct's twin
    if (defines) {
        const std::string first = parse_declarator(pieces.front(), false, nullptr).name;
        twin = in_place.name.empty() ? "tilelab_shared_" + first : "tilelab_shared_" + in_place.name;
        const std::string definition = s.substr(in_place.begin, in_place.close + 1 - in_place.begin);
        // A named struct stays declared as written, for the kernel's other uses of its name; its lines are kept.
        text = (in_place.name.empty() ? newlines_in(definition) : definition + ";") + newlines_in(s.substr(body, in_place.begin - body)) +
               " " + twin_definition(s, sc, in_place, twin, twins) + " ";
    }
    for (std::size_t k = 0; k < pieces.size(); ++k) {
        const Declarator d = parse_declarator(pieces[k], k == 0 && !defines, &type);
        if (!defines && k == 0) {
            const auto found = twins.find(without_class_key(type));
            if (found != twins.end()) twin = found->second;
        }
        if (d.name.empty() || (type.empty() && twin.empty())) fail(s, at, "cannot read this __shared__ declaration");
        const std::string element = twin.empty() ? "::tilelab::cpu::Shared<" + type + ">" : twin;
        if (is_extern) {
            text += element + "* " + d.name + " = " +
                    (twin.empty() ? "::tilelab::cpu::dynamic_shared<" + type + ">();"
                                  : "::tilelab::cpu::dynamic_shared_as<" + twin + ">();");
        } else if (d.extents.empty()) {
            text += element + "& " + d.name + " = ::tilelab::cpu::block_shared<" + element + ">([] {}, \"" + d.name +
                    "\");";
        } else {
            text += element + " (&" + d.name + ")" + one_line(d.extents) + " = ::tilelab::cpu::block_shared<" +
                    element + one_line(d.extents) + ">([] {}, \"" + d.name + "\");";
        }
        if (k + 1 < pieces.size()) text += " ";
    }
    return Edit{begin, semicolon + 1, text + newlines_in(declaration)};
}

// "#pragma unroll [n]" lines, blanked: a C++ compiler does not know the pragma (and warns); the line stays.
void blank_unroll_pragmas(const std::string& s, const Scan& sc, std::vector<Edit>& edits) {
    for (std::size_t at = find_code(s, sc, "#", 0); at != std::string::npos; at = find_code(s, sc, "#", at + 1)) {
        const std::size_t line_start = s.rfind('\n', at) == std::string::npos ? 0 : s.rfind('\n', at) + 1;
        if (s.find_first_not_of(" \t", line_start) != at) continue;
        const std::size_t end = std::min(s.find('\n', at), s.size());
        std::string words = one_line(s.substr(at + 1, end - at - 1));
        if (words.rfind("pragma unroll", 0) == 0 && (words.size() == 13 || words[13] == ' ' || words[13] == '('))
            edits.push_back(Edit{at, end, ""});
    }
}


// "reinterpret_cast<const float4*>" -> "::tilelab::cpu::vector_cast<const float4>": a checked vector pointer.
void rewrite_vector_casts(const std::string& s, const Scan& sc, std::vector<Edit>& edits) {
    for (std::size_t at = find_code(s, sc, "reinterpret_cast", 0); at != std::string::npos;
         at = find_code(s, sc, "reinterpret_cast", at + 1)) {
        std::size_t open = at + std::string("reinterpret_cast").size();
        while (open < s.size() && std::isspace(static_cast<unsigned char>(s[open]))) ++open;
        if (open >= s.size() || s[open] != '<') continue;
        const std::size_t close = s.find('>', open);
        if (close == std::string::npos) continue;
        std::string type;  // the target type without spaces: "constfloat4*", "float4const*", "float4*"
        for (char c : s.substr(open + 1, close - open - 1))
            if (!std::isspace(static_cast<unsigned char>(c))) type += c;
        bool is_const = false;
        if (type.rfind("const", 0) == 0) {
            is_const = true;
            type.erase(0, 5);
        }
        if (type.size() < 2 || type.back() != '*') continue;
        type.pop_back();
        if (type.size() > 5 && type.compare(type.size() - 5, 5, "const") == 0) {
            is_const = true;
            type.erase(type.size() - 5);
        }
        if (!is_vector_type(type)) continue;
        edits.push_back(Edit{at, close + 1, "::tilelab::cpu::vector_cast<" + std::string(is_const ? "const " : "") +
                                                type + ">"});
    }
}

// "reinterpret_cast<uintptr_t>" (to a type that is no pointer or reference: an integer, in CUDA) ->
// "::tilelab::cpu::address_cast<uintptr_t>": the address of the operand, whatever kind of pointer the rewrite made
// of it (a __device__ function's DevicePointer, a VectorPointer, a shared array's element), as an alignment test
// reads it (address_cast.hpp). The type is kept as written, line breaks and all.
void rewrite_address_casts(const std::string& s, const Scan& sc, std::vector<Edit>& edits) {
    for (std::size_t at = find_code(s, sc, "reinterpret_cast", 0); at != std::string::npos;
         at = find_code(s, sc, "reinterpret_cast", at + 1)) {
        std::size_t open = at + std::string("reinterpret_cast").size();
        while (open < s.size() && std::isspace(static_cast<unsigned char>(s[open]))) ++open;
        if (open >= s.size() || s[open] != '<') continue;
        const std::size_t close = s.find('>', open);
        if (close == std::string::npos) continue;
        const std::string type = s.substr(open + 1, close - open - 1);
        if (trim(type).empty() || type.find_first_of("*&<([") != std::string::npos) continue;
        edits.push_back(Edit{at, close + 1, "::tilelab::cpu::address_cast<" + type + ">"});
    }
}

// "[const] T [const] *" (T one or more words, "::" allowed), as "const T" or "T"; "" when it is not that, or when T is
// void or a vector type (their casts have rewrites of their own).
std::string pointer_cast_target(const std::string& text) {
    std::string words, word;
    bool is_const = false, star = false;
    auto flush = [&] {
        if (word == "const") is_const = true;
        else if (!word.empty()) words += (words.empty() ? "" : " ") + word;
        word.clear();
    };
    for (char c : text) {
        if (star && !std::isspace(static_cast<unsigned char>(c))) return "";
        if (is_word(c) || c == ':') word += c;
        else if (c == '*') { flush(); star = true; }
        else if (std::isspace(static_cast<unsigned char>(c))) flush();
        else return "";
    }
    flush();
    if (!star || words.empty() || words == "void" || is_vector_type(words) || words.find("::::") != std::string::npos ||
        !(std::isalpha(static_cast<unsigned char>(words[0])) || words[0] == '_' || words[0] == ':'))
        return "";
    return (is_const ? "const " : "") + words;
}

// The words and stars of @p text, spaces dropped: "(const void *)" -> "(constvoid*)".
std::string without_spaces(const std::string& text) {
    std::string out;
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c))) out += c;
    return out;
}

// The checked cast (address_cast.hpp) for a named cast in device code that no other rewrite takes, whose target
// may be a pointer or reference the rewrite cannot read as one (an alias "fptr", decltype(M), a template parameter,
// "volatile float&"); "" where another rewrite takes it (an integer, a vector pointer) or none is needed (void*, a
// scalar value).
std::string unread_cast(const std::string& keyword, const std::string& written) {
    static const std::set<std::string> value_words = {
        "const", "volatile", "unsigned", "signed", "int", "long", "short", "char", "bool", "float", "double", "void",
        "std", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t",
        "uint32_t", "int64_t", "uint64_t"};
    const std::string bare = without_spaces(written);
    if (bare == "void*" || bare == "constvoid*" || bare == "voidconst*" || written.find("float4") != std::string::npos ||
        written.find("float2") != std::string::npos)
        return "";
    if (keyword == std::string("reinterpret_cast"))
        return written.find_first_of("*&<([") == std::string::npos ? "" : "::tilelab::cpu::checked_reinterpret";
    if (keyword == std::string("const_cast")) return "::tilelab::cpu::checked_const";
    bool value = written.find_first_of("*&<([") == std::string::npos;
    std::string word;
    for (char c : written + " ") {
        if (is_word(c)) {
            word += c;
            continue;
        }
        if (!word.empty() && value_words.count(word) == 0) value = false;
        word.clear();
    }
    return value ? "" : "::tilelab::cpu::checked_static";
}

// In device code, "(float*)x", "reinterpret_cast<float*>(x)" and "static_cast<float*>(x)" ->
// "(::tilelab::cpu::CastPointer<float>)x" and "::tilelab::cpu::CastPointer<float>(x)": a checked pointer, so that no
// plain T* reads a shared array past the race checks and the technique check (address_cast.hpp). Casts to array views,
// "(float (*)[T])x", "reinterpret_cast<float (&)[T][T]>(x)", "reinterpret_cast<Tile&>(x)", become CastPointer<float[T]>
// and CastReference<...> (array_views.hpp, shared_view.hpp).
// C-style and functional casts to a name in @p names (type_names) or to decltype(...) ->
// "(::tilelab::cpu::CheckedCast<N>)x" and "::tilelab::cpu::CheckedCast<N>(x)": where N is a pointer type, its result
// may not point into shared memory or P (address_cast.hpp).
void rewrite_pointer_casts(const std::string& s, const Scan& sc, const std::set<std::string>& names,
                           std::vector<Edit>& edits) {
    auto names_a_type = [&](const std::string& written) {
        std::string t = trim(written);
        for (bool stripped = true; stripped;) {
            stripped = false;
            for (const char* qualifier : {"const ", "volatile "})
                if (t.rfind(qualifier, 0) == 0) {
                    t = trim(t.substr(std::string(qualifier).size()));
                    stripped = true;
                }
        }
        return t.rfind("decltype", 0) == 0 || names.count(t) != 0;
    };
    for (const auto& [open_brace, close_brace] : device_bodies(s, sc)) {
        for (std::size_t at = open_brace + 1; at < close_brace; ++at) {
            if (!sc.code[at]) continue;
            if (is_word(s[at]) && !is_word(s[at - 1])) {  // a functional cast "N(x)"
                std::size_t e = at;
                while (e < close_brace && is_word(s[e])) ++e;
                std::size_t before = at;
                while (before > open_brace && std::isspace(static_cast<unsigned char>(s[before - 1]))) --before;
                const char previous = s[before - 1];
                const bool member = previous == '.' || (previous == '>' && s[before - 2] == '-') ||
                                    (previous == ':' && s[before - 2] == ':');
                if (!member && e < close_brace && s[e] == '(' && names.count(s.substr(at, e - at)) != 0) {
                    edits.push_back(Edit{at, e, "::tilelab::cpu::CheckedCast<" + s.substr(at, e - at) + ">"});
                    at = e - 1;
                    continue;
                }
            }
            for (const char* keyword : {"reinterpret_cast", "static_cast", "const_cast"}) {
                const std::size_t n = std::string(keyword).size();
                if (s.compare(at, n, keyword) != 0 || (at > 0 && is_word(s[at - 1]))) continue;
                std::size_t open = at + n;
                while (open < s.size() && std::isspace(static_cast<unsigned char>(s[open]))) ++open;
                if (open >= s.size() || s[open] != '<') continue;
                const std::size_t close = s.find('>', open);
                if (close == std::string::npos) continue;
                const std::string written = s.substr(open + 1, close - open - 1);
                const std::string target = pointer_cast_target(written);
                const std::string view = target.empty() ? array_cast_type(written) : "";
                if (!target.empty() || !view.empty())
                    edits.push_back(Edit{at, close + 1, (view.empty() ? "::tilelab::cpu::CastPointer<" + target + ">" : view) +
                                                            newlines_in(s.substr(at, close + 1 - at))});
                else if (const std::string checked = unread_cast(keyword, written); !checked.empty())
                    edits.push_back(Edit{at, open, checked});
            }
            if (s[at] != '(') continue;
            std::size_t before = at;  // a cast's '(' follows an operator, a bracket or "return"; a call's, a name
            while (before > 0 && std::isspace(static_cast<unsigned char>(s[before - 1]))) --before;
            if (before > 0 && (s[before - 1] == ')' || s[before - 1] == ']' || is_word(s[before - 1]))) {
                std::size_t w = before;
                while (w > 0 && is_word(s[w - 1])) --w;
                if (s.substr(w, before - w) != "return") continue;
            }
            const std::size_t close = matching_close(s, sc, at);  // "(float (*)[T])" holds parentheses of its own
            if (close == std::string::npos || close > close_brace) continue;
            std::size_t next = close + 1;  // an operand follows a cast
            while (next < s.size() && std::isspace(static_cast<unsigned char>(s[next]))) ++next;
            if (next >= s.size() || !(is_word(s[next]) || s[next] == '(' || s[next] == '&' || s[next] == '*')) continue;
            const std::string written = s.substr(at + 1, close - at - 1);
            const std::string target = pointer_cast_target(written);
            const std::string view = target.empty() ? array_cast_type(written) : "";
            if (!target.empty() || !view.empty())
                edits.push_back(Edit{at, close + 1, "(" + (view.empty() ? "::tilelab::cpu::CastPointer<" + target + ">" : view) +
                                                        ")" + newlines_in(s.substr(at, close + 1 - at))});
            else if (names_a_type(written))
                edits.push_back(Edit{at, close + 1, "(::tilelab::cpu::CheckedCast<" + written + ">)"});
        }
    }
}

// In device code, "memcpy(", "std::memcpy(", "::memcpy(" and "__builtin_memcpy(" -> "::tilelab::cpu::device_memcpy(":
// bytes moved into or out of shared memory are the element stores and reads they are (device_memcpy.hpp).
void rewrite_device_memcpy(const std::string& s, const Scan& sc, std::vector<Edit>& edits) {
    for (const auto& [open_brace, close_brace] : device_bodies(s, sc))
        for (const char* name : {"memcpy", "__builtin_memcpy"})
            for (std::size_t at = find_code(s, sc, name, open_brace); at != std::string::npos && at < close_brace;
                 at = find_code(s, sc, name, at + 1)) {
                std::size_t open = at + std::string(name).size();
                while (open < s.size() && std::isspace(static_cast<unsigned char>(s[open]))) ++open;
                if (open >= s.size() || s[open] != '(') continue;
                std::size_t begin = at;  // "std::" or "::" before it goes too
                if (begin >= 2 && s.compare(begin - 2, 2, "::") == 0) {
                    begin -= 2;
                    if (begin >= 3 && s.compare(begin - 3, 3, "std") == 0 && (begin == 3 || !is_word(s[begin - 4])))
                        begin -= 3;
                }
                edits.push_back(Edit{begin, at + std::string(name).size(), "::tilelab::cpu::device_memcpy"});
            }
}

// A pointer type "const float4* __restrict__" -> "::tilelab::cpu::VectorPointer<const float4>".
void rewrite_vector_pointers(const std::string& s, const Scan& sc, std::vector<Edit>& edits) {
    for (const char* name : {"float4", "float2"}) {
        for (std::size_t at = find_code(s, sc, name, 0); at != std::string::npos; at = find_code(s, sc, name, at + 1)) {
            std::size_t begin = at, i = at;
            bool is_const = false;
            // "const" before the type
            while (i > 0 && std::isspace(static_cast<unsigned char>(s[i - 1]))) --i;
            if (i >= 5 && s.compare(i - 5, 5, "const") == 0 && (i == 5 || !is_word(s[i - 6]))) {
                is_const = true;
                begin = i - 5;
            }
            std::size_t j = at + 6;
            auto skip_space = [&] {
                while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
            };
            skip_space();
            if (s.compare(j, 5, "const") == 0 && j + 5 < s.size() && !is_word(s[j + 5])) {  // "float4 const*"
                is_const = true;
                j += 5;
                skip_space();
            }
            if (j >= s.size() || s[j] != '*' || !sc.code[j]) continue;
            if (j + 1 < s.size() && (s[j + 1] == '*' || s[j + 1] == '=')) continue;  // float4** or "*=": leave it
            ++j;
            std::size_t end = j;
            skip_space();
            for (const char* restrict_word : {"__restrict__", "__restrict"}) {
                const std::size_t length = std::string(restrict_word).size();
                if (s.compare(j, length, restrict_word) == 0 && (j + length >= s.size() || !is_word(s[j + length]))) {
                    end = j + length;  // a class-type pointer cannot be restrict-qualified: dropped
                    break;
                }
            }
            edits.push_back(Edit{begin, end, "::tilelab::cpu::VectorPointer<" + std::string(is_const ? "const " : "") +
                                                 name + "> "});
        }
    }
}


// "float* p = init;" in a function body (also in a for-statement's first part) -> "auto p =
// ::tilelab::cpu::as_pointer<float>(init);": the variable takes the initialiser's type, a checked Shared<float>*
// when it points into a __shared__ array, the plain float* otherwise. "float* p;" in device code ->
// "::tilelab::cpu::DevicePointer<float> p;": what is assigned to it later (a tile, P) stays checked.
void rewrite_local_pointers(const std::string& s, const Scan& sc, std::vector<Edit>& edits) {
    const std::vector<std::pair<std::size_t, std::size_t>> bodies = device_bodies(s, sc);
    auto in_device_code = [&](std::size_t at) {
        return std::any_of(bodies.begin(), bodies.end(), [&](const auto& body) { return at > body.first && at < body.second; });
    };
    std::vector<std::size_t> done;  // "unsigned int" is found twice, once by each word
    for (const char* type_word : pointee_types) {
        for (std::size_t at = find_code(s, sc, type_word, 0); at != std::string::npos;
             at = find_code(s, sc, type_word, at + 1)) {
            if (!in_statement_block(s, sc, at)) continue;
            // The statement starts here (after "const"): ';', '{', '}' or "for (" before it.
            std::size_t begin = at;
            std::size_t i = at;
            auto back = [&] {  // over spaces and comments
                while (i > 0 && (std::isspace(static_cast<unsigned char>(s[i - 1])) || !sc.code[i - 1])) --i;
            };
            back();
            for (const char* qualifier : {"const", "unsigned", "signed"}) {
                const std::size_t n = std::string(qualifier).size();
                if (i >= n && s.compare(i - n, n, qualifier) == 0 && (i == n || !is_word(s[i - n - 1]))) {
                    i -= n;
                    begin = i;
                    back();
                }
            }
            if (i == 0) continue;
            const char previous = s[i - 1];
            if (previous == '(') {  // only "for (" opens a declaration with an initialiser
                std::size_t j = i - 1;
                while (j > 0 && std::isspace(static_cast<unsigned char>(s[j - 1]))) --j;
                if (j < 3 || s.compare(j - 3, 3, "for") != 0 || (j > 3 && is_word(s[j - 4]))) continue;
            } else if (previous != ';' && previous != '{' && previous != '}') {
                continue;
            }
            std::string type, name;
            std::size_t end = 0;
            if (!read_pointer_declaration(s, sc, begin, &type, &name, &end)) continue;
            std::size_t j = end;
            while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
            if (j < s.size() && s[j] == ';' && previous != '(' && in_device_code(begin)) {
                if (std::find(done.begin(), done.end(), begin) != done.end()) continue;
                done.push_back(begin);
                edits.push_back(Edit{begin, end, "::tilelab::cpu::DevicePointer<" + type + "> " + name});
                continue;
            }
            if (j >= s.size() || s[j] != '=' || (j + 1 < s.size() && s[j + 1] == '=')) continue;
            // The initialiser ends at the first ';' or ',' outside brackets: a second declarator is left alone.
            int depth = 0;
            std::size_t stop = j + 1;
            for (; stop < s.size(); ++stop) {
                if (!sc.code[stop]) continue;
                const char c = s[stop];
                if (c == '(' || c == '[' || c == '{') ++depth;
                if (c == ')' || c == ']' || c == '}') --depth;
                if (depth < 0 || (depth == 0 && (c == ';' || c == ','))) break;
            }
            if (stop >= s.size() || s[stop] != ';') continue;
            if (std::find(done.begin(), done.end(), begin) != done.end()) continue;
            done.push_back(begin);
            edits.push_back(Edit{begin, j + 1, "auto " + name + " = ::tilelab::cpu::as_pointer<" + type + ">("});
            edits.push_back(Edit{stop, stop, ")"});
        }
    }
}

// Each pointer parameter "[const] T* [__restrict__] name" of the parameter list between @p open and @p close:
// @p visit(begin, end, type, name) of its declaration (read_pointer_declaration).
template <class Visit>
void for_each_pointer_parameter(const std::string& s, const Scan& sc, std::size_t open, std::size_t close,
                                Visit visit) {
    std::size_t piece = open + 1;
    int depth = 0;
    for (std::size_t k = open + 1; k <= close; ++k) {
        if (!sc.code[k]) continue;
        if (s[k] == '(' || s[k] == '[' || s[k] == '<') ++depth;
        if ((s[k] == ')' || s[k] == ']' || s[k] == '>') && k != close) --depth;
        if (k == close || (depth == 0 && s[k] == ',')) {
            std::size_t b = piece;
            while (b < k && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
            std::string type, name;
            std::size_t end = 0;
            if (read_pointer_declaration(s, sc, b, &type, &name, &end) && end <= k) visit(b, end, type, name);
            piece = k + 1;
        }
    }
}

// The parameters "[const] T* [__restrict__] name" of __device__ functions (declarations and definitions) ->
// "::tilelab::cpu::DevicePointer<[const] T> name": a pointer that may point into global or shared memory.
void rewrite_device_parameters(const std::string& s, const Scan& sc, std::vector<Edit>& edits) {
    for (std::size_t at = find_code(s, sc, "__device__", 0); at != std::string::npos;
         at = find_code(s, sc, "__device__", at + 1)) {
        // The function's parameter list: the first '(' before any ';', '{' or '=' (a variable has none).
        std::size_t open = at;
        while (open < s.size() && !(sc.code[open] && (s[open] == '(' || s[open] == ';' || s[open] == '{' || s[open] == '=')))
            ++open;
        if (open >= s.size() || s[open] != '(') continue;
        if (s.substr(at, open - at).find("__global__") != std::string::npos) continue;
        const std::size_t close = matching_close(s, sc, open);
        if (close == std::string::npos) continue;
        for_each_pointer_parameter(s, sc, open, close, [&](std::size_t b, std::size_t end, const std::string& type,
                                                           const std::string& name) {
            edits.push_back(Edit{b, end, "::tilelab::cpu::DevicePointer<" + type + "> " + name});
        });
    }
}

// The parameters "[const] T* [__restrict__] name" of lambdas in device code (`[&](const float* from, ...)`) ->
// "::tilelab::cpu::DevicePointer<[const] T> name", as a __device__ function's: a lambda
// given M, N or P holds their checked pointer (which converts to no plain pointer), or a tile's element.
void rewrite_lambda_parameters(const std::string& s, const Scan& sc, std::vector<Edit>& edits) {
    std::set<std::size_t> done;  // a body inside another is seen twice
    for (const auto& [open_brace, close_brace] : device_bodies(s, sc)) {
        for (std::size_t at = open_brace + 1; at < close_brace; ++at) {
            if (!sc.code[at] || s[at] != '[') continue;
            // A capture list: '[' after no name, ')' or ']' (those make a subscript) and not "[[" (an attribute).
            std::size_t before = at;
            while (before > open_brace && (std::isspace(static_cast<unsigned char>(s[before - 1])) || !sc.code[before - 1]))
                --before;
            const char previous = s[before - 1];
            if (is_word(previous) || previous == ')' || previous == ']' || s[at + 1] == '[') continue;
            const std::size_t capture_end = s.find(']', at);
            if (capture_end == std::string::npos || capture_end >= close_brace) continue;
            // An extended lambda's "[=] __device__ (...)" is a __device__ function's (rewrite_device_parameters).
            std::size_t open = capture_end + 1;
            while (open < close_brace && std::isspace(static_cast<unsigned char>(s[open]))) ++open;
            if (open >= close_brace || s[open] != '(') continue;
            const std::size_t close = matching_close(s, sc, open);
            if (close == std::string::npos || close >= close_brace) continue;
            for_each_pointer_parameter(s, sc, open, close, [&](std::size_t b, std::size_t end, const std::string& type,
                                                               const std::string& name) {
                if (done.insert(b).second)
                    edits.push_back(Edit{b, end, "::tilelab::cpu::DevicePointer<" + type + "> " + name});
            });
        }
    }
}

// The pointer parameters "[const] T* [__restrict__] name" of a __global__ function's definition ->
// "[const] T* tilelab_raw_name", and "::tilelab::cpu::KernelPointer<[const] T> name(tilelab_raw_name);" first in its
// body: every access through it is then seen, P's (tilelab/cpu/output_reads.hpp: a kernel reads only what it
// computed) and M's and N's (the technique check counts the global reads: operand_probe.hpp), while the kernel's
// signature stays the one the launch calls.
void rewrite_kernel_parameters(const std::string& s, const Scan& sc, std::vector<Edit>& edits) {
    for (std::size_t at = find_code(s, sc, "__global__", 0); at != std::string::npos;
         at = find_code(s, sc, "__global__", at + 1)) {
        // The parameter list: the first '(' that is not __launch_bounds__'s, before any ';', '{' or '='.
        std::size_t open = std::string::npos;
        for (std::size_t i = at + 10; i < s.size(); ++i) {
            if (!sc.code[i]) continue;
            if (s[i] == ';' || s[i] == '{' || s[i] == '=') break;
            if (s[i] != '(') continue;
            std::size_t word_end = i;
            while (word_end > at && std::isspace(static_cast<unsigned char>(s[word_end - 1]))) --word_end;
            std::size_t word_begin = word_end;
            while (word_begin > at && is_word(s[word_begin - 1])) --word_begin;
            if (s.compare(word_begin, word_end - word_begin, "__launch_bounds__") != 0) {
                open = i;
                break;
            }
            i = matching_close(s, sc, i);
            if (i == std::string::npos) break;
        }
        if (open == std::string::npos) continue;
        const std::size_t close = matching_close(s, sc, open);
        if (close == std::string::npos) continue;
        std::size_t body = close + 1;
        while (body < s.size() && (!sc.code[body] || std::isspace(static_cast<unsigned char>(s[body])))) ++body;
        if (body >= s.size() || s[body] != '{') continue;  // a declaration: its definition is rewritten
        std::string declarations;
        for_each_pointer_parameter(s, sc, open, close, [&](std::size_t b, std::size_t end, const std::string& type,
                                                           const std::string& name) {
            edits.push_back(Edit{b, end, type + "* tilelab_raw_" + name});
            declarations += " ::tilelab::cpu::KernelPointer<" + type + "> " + name + "(tilelab_raw_" + name + ");";
        });
        if (!declarations.empty()) edits.push_back(Edit{body + 1, body + 1, declarations});
    }
}

// "cudaLaunchKernel((void*)kernel, ...)" -> "cudaLaunchKernel(kernel, ...)": CUDA's cudaLaunchKernel takes the
// kernel as a const void*, and the CUDA Programming Guide writes the cast; the CPU backend's cudaLaunchKernel needs
// the kernel's type to pass the arguments, so the cast to void* (C-style or reinterpret_cast) is dropped.
void strip_launch_kernel_casts(const std::string& s, const Scan& sc, std::vector<Edit>& edits) {
    auto is_void_pointer = [](const std::string& type) {
        return type == "void*" || type == "constvoid*" || type == "voidconst*";
    };
    for (std::size_t at = find_code(s, sc, "cudaLaunchKernel", 0); at != std::string::npos;
         at = find_code(s, sc, "cudaLaunchKernel", at + 1)) {
        std::size_t i = at + std::string("cudaLaunchKernel").size();
        auto skip_space = [&] {
            while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        };
        skip_space();
        if (i >= s.size() || s[i] != '(') continue;
        ++i;
        skip_space();
        if (i >= s.size() || !sc.code[i]) continue;
        const std::size_t cast = i;
        if (s[i] == '(') {  // (void*) or (const void*)
            const std::size_t close = s.find(')', i);
            if (close == std::string::npos) continue;
            const std::string type = without_spaces(s.substr(i + 1, close - i - 1));
            if (is_void_pointer(type)) edits.push_back(Edit{cast, close + 1, ""});
        } else if (s.compare(i, 16, "reinterpret_cast") == 0) {  // reinterpret_cast<const void*>(kernel)
            i += 16;
            skip_space();
            if (i >= s.size() || s[i] != '<') continue;
            const std::size_t close = s.find('>', i);
            if (close == std::string::npos) continue;
            const std::string type = without_spaces(s.substr(i + 1, close - i - 1));
            if (is_void_pointer(type)) edits.push_back(Edit{cast, close + 1, ""});
        }
    }
}

// Each use of an object-like macro whose replacement names __device__ or __global__ ("#define CUTLASS_DEVICE
// __forceinline__ __device__") -> that replacement, on the same line: the rewrites find device code by those words,
// and a function marked by a macro is device code as much as one marked by hand (its pointer parameters become
// checked ones). Other macros stay as they are.
std::string expand_device_macros(const std::string& s) {
    const Scan sc = scan(s);
    std::vector<std::pair<std::string, std::string>> macros;  // name, replacement
    for (std::size_t line = 0; line < s.size();) {
        std::size_t end = s.find('\n', line);
        if (end == std::string::npos) end = s.size();
        std::size_t i = s.find_first_not_of(" \t", line);
        if (i < end && s[i] == '#' && sc.code[i]) {
            i = s.find_first_not_of(" \t", i + 1);
            if (i < end && s.compare(i, 6, "define") == 0 && i + 6 < end && std::isspace(static_cast<unsigned char>(s[i + 6]))) {
                i = s.find_first_not_of(" \t", i + 6);
                std::size_t name_end = i;
                while (name_end < end && is_word(s[name_end])) ++name_end;
                // Object-like only (no '(' right after the name), on one line, with the words in its code.
                if (name_end > i && name_end < end && s[name_end] != '(' && s[end - 1] != '\\') {
                    std::string replacement;
                    for (std::size_t k = name_end; k < end; ++k) replacement += sc.code[k] ? s[k] : ' ';
                    replacement = trim(replacement);
                    const Scan rs = scan(replacement);
                    if (find_code(replacement, rs, "__device__", 0) != std::string::npos ||
                        find_code(replacement, rs, "__global__", 0) != std::string::npos)
                        macros.emplace_back(s.substr(i, name_end - i), replacement);
                }
            }
        }
        line = end + 1;
    }
    if (macros.empty()) return s;
    std::vector<Edit> edits;
    for (const auto& [name, replacement] : macros)
        for (std::size_t at = find_code(s, sc, name, 0); at != std::string::npos; at = find_code(s, sc, name, at + 1)) {
            const std::size_t newline = s.rfind('\n', at);
            const std::size_t first = s.find_first_not_of(" \t", newline == std::string::npos ? 0 : newline + 1);
            if (first != std::string::npos && s[first] == '#') continue;  // its #define, an #ifdef
            edits.push_back(Edit{at, at + name.size(), replacement});
        }
    std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
    std::string out;
    std::size_t copied = 0;
    for (const Edit& edit : edits) {
        if (edit.begin < copied) continue;
        out.append(s, copied, edit.begin - copied);
        out += edit.text;
        copied = edit.end;
    }
    out.append(s, copied, std::string::npos);
    return out;
}

}  // namespace

std::string cuda_to_cpp(const std::string& written) {
    const std::string source = expand_device_macros(written);
    const Scan sc = scan(source);
    std::vector<Edit> edits;
    for (std::size_t at = find_code(source, sc, "<<<", 0); at != std::string::npos;
         at = find_code(source, sc, "<<<", at + 3))
        edits.push_back(rewrite_launch(source, sc, at));
    // Struct types of __shared__ declarations get their twins after their definitions (struct_twins.hpp).
    const StructTwins twins = add_struct_twins(source, sc, edits);
    for (std::size_t at = find_code(source, sc, "__shared__", 0); at != std::string::npos;
         at = find_code(source, sc, "__shared__", at + 1)) {
        // At file scope a declaration cannot become a per-block reference; the fallback macro keeps it compiling.
        if (sc.brace_depth[at] == 0) continue;
        // Nor can one inside a #define (the rewrite sees the macro's text, not its uses): the fallback macro
        // keeps that compiling too.
        const std::size_t newline = source.rfind('\n', at);
        const std::size_t line_start = newline == std::string::npos ? 0 : newline + 1;
        const std::size_t first = source.find_first_not_of(" \t", line_start);
        if (first != std::string::npos && source[first] == '#') continue;
        edits.push_back(rewrite_shared(source, sc, at, twins));
    }
    // Vector pointers and pragmas, except inside a launch or a __shared__ declaration (rewritten as a whole).
    std::vector<Edit> small;
    rewrite_vector_casts(source, sc, small);
    std::vector<std::pair<std::size_t, std::size_t>> casts;
    for (const Edit& edit : small) casts.emplace_back(edit.begin, edit.end);
    rewrite_address_casts(source, sc, small);
    rewrite_pointer_casts(source, sc, type_names(source, sc), small);
    rewrite_device_memcpy(source, sc, small);
    rewrite_vector_pointers(source, sc, small);
    rewrite_local_pointers(source, sc, small);
    rewrite_pointer_members(source, sc, small);
    const std::set<std::string> aliases = array_aliases(source, sc);
    rewrite_view_declarations(source, sc, aliases, small);
    rewrite_device_parameters(source, sc, small);
    rewrite_lambda_parameters(source, sc, small);
    rewrite_kernel_parameters(source, sc, small);
    rewrite_array_parameters(source, sc, aliases, twins, small);
    blank_unroll_pragmas(source, sc, small);
    strip_launch_kernel_casts(source, sc, small);
    const std::size_t large = edits.size();
    for (const Edit& edit : small) {
        auto inside = [&](std::size_t b, std::size_t e) { return edit.begin >= b && edit.begin < e; };
        bool keep = std::none_of(edits.begin(), edits.begin() + static_cast<std::ptrdiff_t>(large),
                                 [&](const Edit& big) { return inside(big.begin, big.end); });
        // A type inside a rewritten cast is the cast's business.
        for (const auto& [b, e] : casts)
            if (!(edit.begin == b && edit.end == e) && inside(b, e)) keep = false;
        if (keep) edits.push_back(edit);
    }
    // An insertion (a twin after its struct's ';', a view's closing parenthesis) goes before an edit starting there.
    std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
        return a.begin != b.begin ? a.begin < b.begin : (a.end == a.begin && b.end != b.begin);
    });
    std::string out;
    std::size_t copied = 0;
    for (const Edit& edit : edits) {
        if (edit.begin < copied) fail(source, edit.begin, "overlapping launch and __shared__ declaration");
        out.append(source, copied, edit.begin - copied);
        out += edit.text;
        copied = edit.end;
    }
    out.append(source, copied, std::string::npos);
    return out;
}

}  // namespace tilelab::cpu
