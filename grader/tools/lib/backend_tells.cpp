// The source check's rules on the tells of the CPU backend: correct CUDA whose result differs from a GPU's.
#include "source_rules.hpp"

#include "source_names.hpp"

#include <algorithm>
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tilelab::grader {

namespace source_rules {

using namespace source_names;  // the tables (source_names.hpp)

// ---------------------------------------------------------------------------------------------------------------
// Tells: code whose result differs between a GPU and the CPU backend although it is correct CUDA on both.

const std::string& Rules::why_tell() {
    static const std::string text =
        "the kit grades the same kernel on a GPU and on the CPU backend (an emulator that runs device code as "
        "x86 C++), and a kernel whose path depended on it would earn the CPU backend's points with another "
        "kernel";
    return text;
}

// A floating literal with the suffix l or L (1.0L, 1e-19l, 0x1p-60L): a long double.
void Rules::number(const Token& token) {
    const std::string& text = token.text;
    if (text.empty() || (text.back() != 'l' && text.back() != 'L')) return;
    const bool hex = text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const bool floating = hex ? text.find_first_of("pP") != std::string::npos
                              : text.find_first_of(".eE") != std::string::npos;
    if (floating) refuse_long_double(token, text);
}

void Rules::refuse_long_double(const Token& at, const std::string& what) {
    if (at.line == long_double_line_) return;
    long_double_line_ = at.line;
    add(at, "a lab may not use long double (" + what + "): on the CPU backend it is x86's 80-bit type, in a "
            "GPU's device code nvcc makes it a double, so that the same sums round differently on each ("
            "1.0L + 1e-19L == 1.0L is false on one and true on the other); " + why_tell() +
            ". Use float (double where a lab asks for it), without the suffix L");
}

// The identifiers of the logical line from @p i on (a directive's).
std::vector<std::size_t> Rules::line_identifiers(std::size_t i) const {
    std::vector<std::size_t> out;
    for (std::size_t k = i; k < t_.size() && t_[k].logical == t_[i].logical; ++k)
        if (t_[k].kind == Kind::identifier) out.push_back(k);
    return out;
}

// Whether another rule refuses the name wherever it appears (so that a conditional on it is not reported twice).
bool Rules::refused_by_name(const std::string& name) {
    return name == "TILELAB_CPU_BACKEND" || tests_backend(name) || name.find("tilelab") != std::string::npos ||
           name.rfind("TILELAB", 0) == 0 || name == "__has_include" || name == "__has_include_next" ||
           toolkit_version_macros.count(name) != 0;
}

// `#define NAME body` and `#define NAME(params) body`: the body's identifiers for the conditionals' rule;
// `#if`, `#ifdef`, `#ifndef`, `#elif` (and C++23's `#elifdef`, `#elifndef`): the names they test.
void Rules::macro_directive(std::size_t i, const std::string& directive_name) {
    if (directive_name == "define") {
        const Token* macro = next(i, 2);
        if (macro == nullptr || macro->kind != Kind::identifier) return;
        std::size_t body = i + 3;
        std::set<std::string> parameters;
        // A function-like macro's '(' follows its name with no space: the lexer's tokens keep no spacing, so a
        // '(' right after the name is read as a parameter list (an object-like macro's body starting with '('
        // then lists its identifiers as parameters, which only lets more through: its names are then plain).
        if (body < t_.size() && t_[body].logical == t_[i].logical && t_[body].text == "(") {
            const std::size_t close = closing_parenthesis(body);
            for (std::size_t k = body + 1; k < close; ++k)
                if (t_[k].kind == Kind::identifier) parameters.insert(t_[k].text);
            body = close + 1;
        }
        std::vector<std::string>& names = out_.defines[macro->text];
        for (std::size_t k = body; k < t_.size() && t_[k].logical == t_[i].logical; ++k)
            if (t_[k].kind == Kind::identifier && parameters.count(t_[k].text) == 0) names.push_back(t_[k].text);
        return;
    }
    static const std::set<std::string> conditionals = {"if", "ifdef", "ifndef", "elif", "elifdef", "elifndef"};
    if (conditionals.count(directive_name) == 0) return;
    for (std::size_t k : line_identifiers(i + 2)) {
        const std::string& name = t_[k].text;
        if (name == "defined" || name == "true" || name == "false" || refused_by_name(name)) continue;
        out_.macro_tests.push_back(MacroTest{name, t_[k].line});
    }
}

// --- printf's value. CUDA's device printf returns the number of arguments it parsed, the C library's (which the
// CPU backend's device code calls) the number of characters printed.

// The first token of the expression the name at @p i begins: back over `std::` and `::`.
std::size_t Rules::qualified_start(std::size_t i) const {
    std::size_t start = i;
    while (start >= 1 && t_[start - 1].text == "::") {
        start -= 1;
        if (start >= 1 && t_[start - 1].kind == Kind::identifier && t_[start - 1].text == "std") start -= 1;
    }
    return start;
}

// Whether the call at @p i (a printf name) begins a statement: after `;`, a brace, `else`, `do`, or the `)` of an
// `if`, `for` or `while`, or (when @p body_start) first in a macro's body.
bool Rules::begins_statement(std::size_t i, std::size_t body_start) const {
    const std::size_t start = qualified_start(i);
    if (start == body_start) return true;
    if (start == 0) return true;
    const Token& before = t_[start - 1];
    if (before.text == ";" || before.text == "{" || before.text == "}" || before.text == "else" ||
        before.text == "do")
        return true;
    if (before.text == ")") {
        int depth = 0;
        for (std::size_t k = start; k-- > 0;) {  // to the matching '('
            if (t_[k].text == ")") ++depth;
            if (t_[k].text == "(" && --depth == 0)
                return k > 0 && (t_[k - 1].text == "if" || t_[k - 1].text == "for" || t_[k - 1].text == "while");
        }
    }
    return false;
}

// The token after the call at @p i (a printf name followed by its arguments), or t_.size().
std::size_t Rules::after_call(std::size_t i) const {
    if (i + 1 >= t_.size() || t_[i + 1].text != "(") return i + 1;
    return closing_parenthesis(i + 1) + 1;
}

// The body's first token of the #define at @p hash, or t_.size() when it has none.
std::size_t Rules::define_body(std::size_t hash) const {
    std::size_t body = hash + 3;
    if (body < t_.size() && t_[body].logical == t_[hash].logical && t_[body].text == "(")
        body = closing_parenthesis(body) + 1;
    return body < t_.size() && t_[body].logical == t_[hash].logical ? body : t_.size();
}

// Macros whose body is a call of printf (or of such a macro), `#define DEBUG(...) printf(__VA_ARGS__)`: their
// uses in device code follow printf's rule. A body that uses printf's value otherwise is refused here.
void Rules::collect_printf_macros() {
    for (bool grew = true; grew;) {
        grew = false;
        for (std::size_t h = 0; h + 2 < t_.size(); ++h) {
            if (!(t_[h].line_start && t_[h].text == "#" && t_[h + 1].text == "define" &&
                  t_[h + 2].kind == Kind::identifier && t_[h + 2].logical == t_[h].logical))
                continue;
            const std::string& macro = t_[h + 2].text;
            if (printf_names_.count(macro) != 0) continue;
            const std::size_t body = define_body(h);
            for (std::size_t k = body; k < t_.size() && t_[k].logical == t_[h].logical; ++k) {
                if (t_[k].kind != Kind::identifier || printf_names_.count(t_[k].text) == 0) continue;
                const std::size_t after = after_call(k);
                const bool ends = after >= t_.size() || t_[after].logical != t_[h].logical ||
                                  (t_[after].text == ";" &&
                                   (after + 1 >= t_.size() || t_[after + 1].logical != t_[h].logical));
                if (qualified_start(k) == body && ends) {
                    printf_names_.insert(macro);
                    grew = true;
                    break;
                }
            }
        }
    }
}

// A printf name at @p i in device code, or in a macro's body: its value may not be used.
void Rules::printf_value(std::size_t i) {
    const Token& token = t_[i];
    std::size_t body_start = t_.size();
    if (token.logical == directive_line_) {
        std::size_t hash = i;
        while (hash > 0 && !(t_[hash].line_start && t_[hash].text == "#")) --hash;
        if (!(t_[hash + 1].text == "define")) return;
        if (t_[hash + 2].kind == Kind::identifier && printf_names_.count(t_[hash + 2].text) != 0 &&
            define_body(hash) == qualified_start(i))
            return;  // the macro is a call of printf: its uses are checked
        body_start = define_body(hash);
        if (i > 0 && t_[i - 1].text == "define") return;  // the macro's own name
    } else if (device_body_depth_ == 0) {
        return;
    }
    const std::size_t after = after_call(i);
    const bool called = i + 1 < t_.size() && t_[i + 1].text == "(";
    const bool statement = called && begins_statement(i, body_start) && after < t_.size() &&
                           (t_[after].text == ";" ||
                            (token.logical == directive_line_ && t_[after].logical != token.logical));
    if (statement) return;
    add(token, "device code may call " + token.text + " only as a statement of its own (" + token.text +
                   "(\"...\", x);), not use its value: CUDA's device printf returns the number of arguments "
                   "it parsed, the CPU backend's (the C library's) the number of characters printed; " +
                   why_tell() + ". Print what you need and use no result of it");
}

// --- Overload sets of device functions that mix a template with a plain function.

// The functions declared __device__ or __global__: the name before the first '(' of the declaration (outside
// template arguments), and whether `template` begins it.
void Rules::collect_device_functions() {
    std::size_t last_statement = t_.size();
    for (std::size_t i = 0; i < t_.size(); ++i) {
        const std::string& text = t_[i].text;
        if (text != "__device__" && text != "__global__") continue;
        // The declaration's start: after ';', a brace, or a directive.
        std::size_t start = i;
        while (start > 0) {
            const Token& before = t_[start - 1];
            if (before.text == ";" || before.text == "{" || before.text == "}" ||
                (before.logical != t_[start].logical && is_directive_line(start - 1)))
                break;
            --start;
        }
        if (start == last_statement) continue;  // `__host__ __device__`: one declaration
        last_statement = start;
        bool is_template = false;
        int angles = 0;
        for (std::size_t k = start; k < t_.size(); ++k) {
            const std::string& word = t_[k].text;
            if (word == "template" && k == start) is_template = true;
            if (word == "<") ++angles;
            if (word == ">" && angles > 0) --angles;
            if (word == ";" || word == "{" || word == "=") break;
            if (word == "(" && angles == 0) {
                if (k > 0 && t_[k - 1].kind == Kind::identifier && t_[k - 1].text != "__launch_bounds__" &&
                    t_[k - 1].text != "__align__" && t_[k - 1].text != "alignas" &&
                    t_[k - 1].text != "__attribute__" && t_[k - 1].text != "operator" &&
                    !(k >= 2 && t_[k - 2].text == "operator"))
                    out_.device_functions.push_back(DeviceFunction{t_[k - 1].text, is_template, t_[k - 1].line});
                if (k > 0 && (t_[k - 1].text == "__launch_bounds__" || t_[k - 1].text == "__align__" ||
                              t_[k - 1].text == "alignas" || t_[k - 1].text == "__attribute__")) {
                    k = closing_parenthesis(k);
                    continue;
                }
                break;
            }
        }
    }
}

bool Rules::is_directive_line(std::size_t k) const {
    std::size_t first = k;
    while (first > 0 && t_[first - 1].logical == t_[k].logical) --first;
    return t_[first].text == "#";
}

// --- The address of a local variable. On a GPU, local memory is per thread behind one window, so that the
// same variable has the same (generic) address in every thread; on the CPU backend each thread has a stack of
// its own.

// Whether the tokens [from, to) hold a local's address: `&name`, a local array's name (not indexed), a
// pointer holding one.
bool Rules::holds_local_address(std::size_t from, std::size_t to) const {
    for (std::size_t k = from; k < to && k < t_.size(); ++k) {
        if (t_[k].kind != Kind::identifier) continue;
        const std::string& name = t_[k].text;
        const bool member = k > 0 && (t_[k - 1].text == "." || t_[k - 1].text == "->" || t_[k - 1].text == "::");
        if (member) continue;
        const bool indexed = k + 1 < t_.size() && (t_[k + 1].text == "[" || t_[k + 1].text == "." ||
                                                   t_[k + 1].text == "->");
        const bool address = k > 0 && t_[k - 1].text == "&" && !indexed &&
                             (k - 1 == from || k < 2 ||
                              ((!ends_operand(k - 2) || is_expression_word(t_[k - 2].text)) &&
                               t_[k - 2].text != "&"));
        if (address && locals_.count(name) != 0) return true;
        const bool dereferenced = k > 0 && t_[k - 1].text == "*";
        if (!indexed && !dereferenced && (local_arrays_.count(name) != 0 || local_pointers_.count(name) != 0))
            return true;
    }
    return false;
}

// The end of the operand that begins at @p k: a parenthesis to its match, else one (unary &, *) prefixed name.
std::size_t Rules::operand_end(std::size_t k) const {
    while (k < t_.size() && (t_[k].text == "&" || t_[k].text == "*")) ++k;
    if (k < t_.size() && t_[k].text == "(") return closing_parenthesis(k) + 1;
    return k + 1;
}
// The start of the operand that ends at @p k (its last token).
std::size_t Rules::operand_start(std::size_t k) const {
    if (t_[k].text == ")") {
        int depth = 0;
        for (std::size_t j = k + 1; j-- > 0;) {
            if (t_[j].text == ")") ++depth;
            if (t_[j].text == "(" && --depth == 0) return j;
        }
        return 0;
    }
    std::size_t start = k;
    while (start > 0 && (t_[start - 1].text == "&" || t_[start - 1].text == "*") &&
           (start < 2 || !(ends_operand(start - 2) || t_[start - 2].text == "&")))
        --start;
    return start;
}

void Rules::refuse_local_address(const Token& at, const std::string& what) {
    add(at, "device code may not " + what + " a local variable's address: on a GPU each thread's local memory "
            "sits behind one window, so that a local variable has the same address in every thread, where on "
            "the CPU backend each thread has a stack of its own; " + why_tell() + ". Use a local's address only "
            "to read and write through it (an alignment test on a pointer into M, N, P or shared memory is "
            "fine)");
}

// Whether the token at @p k ends an operand (so that the punctuator after it is a binary operator).
bool Rules::ends_operand(std::size_t k) const {
    return t_[k].kind == Kind::identifier || t_[k].kind == Kind::number || t_[k].text == ")" ||
           t_[k].text == "]";
}

// Declarations of locals, and the uses of a local's address that tell the backends apart: a comparison, a
// subtraction, a store into shared memory. (Casts to integers: local_address_cast.) The lexer gives operators as
// single characters: `==` is `=` `=`, `->` is `-` `>`.
void Rules::local_address_use(std::size_t i) {
    const std::string& text = t_[i].text;
    if (i == 0 || i + 1 >= t_.size()) return;
    const std::string& after = t_[i + 1].text;
    const std::string& before = t_[i - 1].text;
    std::string what;
    std::size_t left_end = i - 1, right_start = i + 1;
    if ((text == "=" || text == "!") && after == "=" && ends_operand(i - 1)) {
        what = "compare";
        right_start = i + 2;
    } else if ((text == "<" || text == ">") && ends_operand(i - 1) && after != "<" && after != ">" &&
               before != "<" && before != ">" && before != "-") {
        // Not a template's brackets: `name<` of a name that is no local, `>(` or `>::`.
        if (text == "<" && t_[i - 1].kind == Kind::identifier && locals_.count(before) == 0) return;
        if (text == ">" && (after == "(" || after == "::" || after == "{")) return;
        what = "compare";
        if (after == "=") right_start = i + 2;
    } else if (text == "-" && ends_operand(i - 1) && after != ">" && after != "-" && after != "=" &&
               before != "-") {
        if (t_[i + 1].kind == Kind::number) return;  // an offset back from a pointer
        if (t_[i + 1].kind == Kind::identifier && locals_.count(after) != 0 && local_arrays_.count(after) == 0 &&
            local_pointers_.count(after) == 0)
            return;  // a pointer less a local count
        what = "subtract";
    } else if (text == "=" && after != "=" && before != "=" && before != "!" && before != "<" && before != ">") {
        // `tile_slot = &x;`, `slots[t] = where;`: a local's address stored into shared memory.
        std::size_t target = i - 1;
        while (target > 0 && t_[target].text == "]") {  // back over the indices
            int depth = 0;
            for (std::size_t k = target + 1; k-- > 0;) {
                if (t_[k].text == "]") ++depth;
                if (t_[k].text == "[" && --depth == 0) {
                    target = k - 1;
                    break;
                }
                if (k == 0) return;
            }
        }
        if (shared_names_.count(t_[target].text) == 0) return;
        std::size_t end = i + 1;
        while (end < t_.size() && t_[end].text != ";") ++end;
        if (holds_local_address(i + 1, end)) refuse_local_address(t_[i], "store in shared memory");
        return;
    } else {
        return;
    }
    if (right_start >= t_.size()) return;
    if (holds_local_address(operand_start(left_end), left_end + 1) ||
        holds_local_address(right_start, operand_end(right_start)))
        refuse_local_address(t_[i], what);
}

// A declaration of a local at @p i (an identifier) in a device body: `float a;`, `int b[4] = {};`,
// `int* p = &a;`.
void Rules::local_declaration(std::size_t i) {
    static const std::set<std::string> ends = {"=", ";", ",", "[", "{"};
    const Token& before = t_[i - 1];
    const bool after_type = (before.kind == Kind::identifier && !is_expression_word(before.text) &&
                             before.text != "goto") ||
                            ((before.text == "*" || before.text == "&") && i >= 2 &&
                             (t_[i - 2].kind == Kind::identifier || t_[i - 2].text == ">")) ||
                            before.text == ">";
    if (!after_type || i + 1 >= t_.size() || ends.count(t_[i + 1].text) == 0) return;
    // Not __shared__, not a parameter of a lambda (a '(' before it in the statement is a call's or a for's).
    for (std::size_t k = i; k-- > 0;) {
        const std::string& word = t_[k].text;
        if (word == ";" || word == "{" || word == "}" || word == "(") break;
        if (word == "__shared__" || word == "extern" || word == "return" || word == "case") return;
    }
    const std::string& name = t_[i].text;
    locals_.insert(name);
    if (t_[i + 1].text == "[") local_arrays_.insert(name);
    if (t_[i + 1].text == "=" && (before.text == "*" || (before.text == "const" && i >= 2 && t_[i - 2].text == "*"))) {
        std::size_t end = i + 2;
        while (end < t_.size() && t_[end].text != ";" && t_[end].text != ",") ++end;
        if (holds_local_address(i + 2, end)) local_pointers_.insert(name);
    }
}

// `reinterpret_cast<T>(e)` and C-style `(T)e`, `T(e)` for an integer type T, or an integer pointer type, of a
// local's address: its address as a number (or its bits read as an integer).
void Rules::local_address_cast(std::size_t i) {
    const std::string& name = t_[i].text;
    if (name == "reinterpret_cast" && i + 1 < t_.size() && t_[i + 1].text == "<") {
        std::size_t k = i + 2;
        int angles = 1;
        bool floating = false;
        for (; k < t_.size() && angles > 0; ++k) {
            if (t_[k].text == "<") ++angles;
            if (t_[k].text == ">") --angles;
            if (t_[k].text == "float" || t_[k].text == "float2" || t_[k].text == "float4" ||
                t_[k].text == "double" || t_[k].text == "void")
                floating = true;
        }
        if (floating || k >= t_.size() || t_[k].text != "(") return;
        if (holds_local_address(k + 1, closing_parenthesis(k)))
            refuse_local_address(t_[i], "cast to an integer (or read as one)");
        return;
    }
    static const std::set<std::string> integer_words = {
        "int", "unsigned", "long", "short", "char", "size_t", "uintptr_t", "intptr_t", "ptrdiff_t", "uint64_t",
        "int64_t", "uint32_t", "int32_t", "uint16_t", "int16_t", "uint8_t", "int8_t", "signed"};
    if (integer_words.count(name) == 0 || i == 0) return;
    // (T) e or (T*) e: the parenthesis around the type, read from the type's first word.
    std::size_t open = i;
    if (t_[i - 1].text == "::" && i >= 2 && t_[i - 2].text == "std") open = i - 2;
    if (open == 0 || t_[open - 1].text != "(") return;
    std::size_t close = open;
    while (close < t_.size() && (t_[close].kind == Kind::identifier || t_[close].text == "::" ||
                                 t_[close].text == "*"))
        ++close;
    if (close >= t_.size() || t_[close].text != ")" || close + 1 >= t_.size()) return;
    // `(int) x` is a cast where `sizeof (int)` and `f(int)` are not: an operand follows.
    const Token& first = t_[close + 1];
    if (!(first.kind == Kind::identifier || first.text == "&" || first.text == "(")) return;
    if (open >= 2 && (t_[open - 2].text == "sizeof" || t_[open - 2].text == "alignof")) return;
    if (holds_local_address(close + 1, operand_end(close + 1)))
        refuse_local_address(t_[i], "cast to an integer (or read as one)");
}

// The rules on tells (see above) for the identifier at @p i; true when one was reported.
bool Rules::tells(std::size_t i) {
    const Token& token = t_[i];
    const std::string& name = token.text;
    const bool in_code = token.logical != directive_line_;
    if (name == "long" || name == "double") {
        // `long double`, `double long`, `long const double`: in any order, with cv-qualifiers between.
        static const std::set<std::string> between = {"const", "volatile", "static", "constexpr", "inline",
                                                      "unsigned", "signed"};
        const std::string other = name == "long" ? "double" : "long";
        for (std::size_t k = i + 1; k < t_.size() && t_[k].logical == token.logical; ++k) {
            if (t_[k].text == other) {
                refuse_long_double(token, name == "long" ? "long double" : "double long");
                return true;
            }
            if (between.count(t_[k].text) == 0) break;
        }
        return false;
    }
    if (extended_floating_types.count(name) != 0) {
        add(token, "a lab may not use " + name + ": the CPU backend's compiler has wider floating types than a "
                   "GPU's device code, so that the same sums round differently on each; " + why_tell() +
                   ". Use float");
        return true;
    }
    if (toolkit_version_macros.count(name) != 0) {
        if (token.line == toolkit_line_) return true;
        toolkit_line_ = token.line;
        add(token, "a lab may not test the CUDA toolkit's version (" + name + "): the CPU backend stands in for "
                   "one toolkit's headers and a GPU's machine has its own, so that a kernel that changed with the "
                   "version would be one kernel on a GPU and another on the CPU backend; " + why_tell() +
                   ". Write for one toolkit's API (the CPU backend accepts both forms of the calls CUDA 13 "
                   "changed, cudaMemPrefetchAsync's among them)");
        return true;
    }
    if (printf_names_.count(name) != 0 && qualifier(i) != ".") {
        const std::size_t before = out_.findings.size();
        printf_value(i);
        return out_.findings.size() != before;
    }
    if (device_body_depth_ > 0 && in_code) {
        if (float_sign_functions.count(name) != 0 && qualifier(i) != "." && following(i) != nullptr &&
            (following(i)->text == "(" || following(i)->text == "<")) {
            add(token, name + " is not allowed in device code in a lab: it reads a float's sign bit or bits, "
                       "which differ between a GPU and the CPU backend for a NaN the kernel computes (a GPU's "
                       "is 0x7FFFFFFF, x86's 0xFFC00000, sign bit set); " + why_tell() + ". A matrix product "
                       "needs no float's bits: compare values (x < 0.0f, isnan(x))");
            return true;
        }
        if (name == "union") {
            add(token, "a union is not allowed in device code in a lab: it reads one member's bits as another's, "
                       "and a float's bits differ between a GPU and the CPU backend for a NaN the kernel "
                       "computes; " + why_tell() + ". Keep values in their own types");
            return true;
        }
        if (i + 1 < t_.size() && t_[i - 1].text != "." && t_[i - 1].text != "->")
            local_declaration(i);
        local_address_cast(i);
    }
    return false;
}

}  // namespace source_rules

// ---------------------------------------------------------------------------------------------------------------
// The rules that need every file of the lab: macros tested but defined nowhere, mixed overload sets.

namespace {

using namespace source_names;

// The first name that @p name reaches through the lab's macros (@p defines) which is neither one of them nor one
// the kit gives labs; "" when there is none.
std::string unknown_macro(const std::string& name, const std::map<std::string, std::vector<std::string>>& defines,
                          std::set<std::string>& seen) {
    if (!seen.insert(name).second || lab_macros.count(name) != 0) return "";
    const auto found = defines.find(name);
    if (found == defines.end()) return name;
    for (const std::string& inner : found->second) {
        if (inner == "defined" || inner == "true" || inner == "false") continue;
        const std::string unknown = unknown_macro(inner, defines, seen);
        if (!unknown.empty()) return unknown;
    }
    return "";
}

}  // namespace

void resolve_lab_scans(std::vector<SourceScan*>& scans) {
    std::map<std::string, std::vector<std::string>> defines;
    std::map<std::string, std::pair<bool, bool>> kinds;  // name -> (plain function, template)
    for (const SourceScan* scan : scans) {
        for (const auto& [name, body] : scan->defines) {
            std::vector<std::string>& all = defines[name];
            all.insert(all.end(), body.begin(), body.end());
        }
        for (const DeviceFunction& function : scan->device_functions)
            (function.is_template ? kinds[function.name].second : kinds[function.name].first) = true;
    }
    for (SourceScan* scan : scans) {
        const std::size_t before = scan->findings.size();
        for (const MacroTest& test : scan->macro_tests) {
            std::set<std::string> seen;
            const std::string unknown = unknown_macro(test.name, defines, seen);
            if (unknown.empty()) continue;
            scan->findings.push_back(SourceFinding{
                "", test.line,
                "a lab's #if, #ifdef, #ifndef and #elif may test only TILE_WIDTH and macros the lab's own files "
                "#define, not " + unknown + (unknown == test.name ? std::string() : " (through " + test.name + ")") +
                    ": which other macros exist, and their values, differ between CUDA's headers and the CPU "
                    "backend's stand-ins for them (CUDA's cuda_runtime_api.h defines CUDART_VERSION, say), so that "
                    "the kernel would be one kernel on a GPU and another on the CPU backend, which grades the same "
                    "kernel as a GPU; write the code without the test"});
        }
        std::set<std::string> reported;
        for (const DeviceFunction& function : scan->device_functions) {
            const auto& kind = kinds[function.name];
            if (!function.is_template || !kind.first || !kind.second || !reported.insert(function.name).second)
                continue;
            scan->findings.push_back(SourceFinding{
                "", function.line,
                "device code may not overload " + function.name + " with both a template and a plain function: "
                "which one a call picks depends on its argument's exact type, and the CPU backend gives a "
                "__shared__ array's elements a type of its own (so that it can follow every access), so that a "
                "call with a tile element would pick the plain function on a GPU and the template on the CPU "
                "backend (the kit grades the same kernel on both); give the template or the function another "
                "name"});
        }
        std::stable_sort(scan->findings.begin() + static_cast<std::ptrdiff_t>(before), scan->findings.end(),
                         [](const SourceFinding& a, const SourceFinding& b) { return a.line < b.line; });
        std::inplace_merge(scan->findings.begin(), scan->findings.begin() + static_cast<std::ptrdiff_t>(before),
                           scan->findings.end(),
                           [](const SourceFinding& a, const SourceFinding& b) { return a.line < b.line; });
    }
}

}  // namespace tilelab::grader
