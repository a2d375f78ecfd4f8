#include "source_policy.hpp"

#include "device_calls.hpp"
#include "source_names.hpp"
#include "source_lexer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace tilelab::grader {
namespace {

using lexing::is_identifier_char;
using lexing::Kind;
using lexing::Token;

// ---------------------------------------------------------------------------------------------------------------
// What a lab may name and include. One place: the grading page (docs/grading.md#check_build) lists the same.

using namespace source_names;  // the tables (source_names.hpp)

const std::string why_os =
    "a lab needs only CUDA and the C++ standard library; lab code runs in the runner's process, next to the "
    "channel that carries its results to the checker, so it may not reach files, descriptors, processes, threads, "
    "signals or the environment";

const std::string why_kit_names =
    "the grader's measurements must come from the kit, not from the lab. A lab may use tilelab::DeviceBuffer, "
    "tilelab::CudaEvent, tilelab::elapsed_ms, tilelab::CudaError and TILELAB_CUDA_CHECK, and tilelab/mma.hpp's "
    "tilelab::mma_m16n8k8_tf32, tilelab::to_tf32, tilelab::ldmatrix_x4 and tilelab::ldmatrix_x2, nothing else of the "
    "kit";
const std::string allowed_includes =
    "a lab may include <tilelab/labs.hpp>, <tilelab/cuda_check.hpp>, <tilelab/cuda_event.hpp>, "
    "<tilelab/device_buffer.hpp>, <tilelab/mma.hpp>, CUDA's runtime and device headers (<cuda_runtime.h>, <cuda_pipeline.h>, "
    "<cooperative_groups.h>, ...), the C++ standard library's computing headers (<vector>, <cmath>, <cstdio>, ...) "
    "and files of its own folder (\"name.cuh\")";

// ---------------------------------------------------------------------------------------------------------------
// The rules on the tokens.

bool has_component(const std::string& path, const std::string& component) {
    std::size_t start = 0;
    while (true) {
        const std::size_t slash = path.find('/', start);
        if (path.substr(start, slash == std::string::npos ? std::string::npos : slash - start) == component) return true;
        if (slash == std::string::npos) return false;
        start = slash + 1;
    }
}

// Why the header name @p header (with its brackets or quotes) may not be included, or "" when it may.
std::string include_problem(const std::string& header) {
    const bool angle = header.front() == '<';
    const std::string name = header.substr(1, header.size() - 2);
    if (name.empty()) return "an empty header name";
    if (name.front() == '/') return "an absolute path";
    if (name.find('\\') != std::string::npos) return "a backslash in the path";
    if (has_component(name, "..")) return "`..`, which leaves the folder it names";
    if (has_component(name, ".") || has_component(name, "")) return "`.` or an empty step in the path";
    if (angle && name.rfind("tilelab/", 0) == 0 && public_headers.count(name) == 0)
        return "a header of the kit's own (the grader's or the emulator's), not one written for labs";
    if (!angle || public_headers.count(name) != 0 || cuda_headers.count(name) != 0 || library_headers.count(name) != 0)
        return "";
    for (const std::string& folder : cuda_header_folders)
        if (name.rfind(folder, 0) == 0) return "";
    if (name == "cuda.h" || name == "cudaTypedefs.h")
        return "CUDA's driver API, which loads modules and finds functions by name; a lab needs only the runtime "
               "(<cuda_runtime.h>, which nvcc includes anyway)";
    return "a header that is neither CUDA's nor the C++ standard library's (" + why_os + ")";
}

class Rules {
public:
    Rules(const std::vector<Token>& tokens, SourceScan& out) : t_(tokens), out_(out) {}

    void run() {
        collect_declared();
        collect_shared_names();
        collect_printf_macros();
        collect_device_functions();
        for (std::size_t i = 0; i < t_.size(); ++i) {
            const Token& token = t_[i];
            if (token.kind == Kind::punctuator && token.text == "{" && token.logical != directive_line_) {
                ++depth_;
                const BraceHeader header = header_of(i);
                if (device_body_depth_ == 0 && header.parameters && header.device) device_body_depth_ = depth_;
                if (host_body_depth_ == 0 && device_body_depth_ == 0 && at_file_scope() && header.parameters &&
                    !header.device && !header.lambda)
                    host_body_depth_ = depth_;
                namespace_braces_.push_back(opens_namespace(i));
                class_braces_.push_back(opens_class(i));
            }
            if (token.kind == Kind::punctuator && token.text == "}" && depth_ > 0 && token.logical != directive_line_) {
                if (depth_ == device_body_depth_) device_body_depth_ = 0;
                if (depth_ == host_body_depth_) host_body_depth_ = 0;
                --depth_;
                if (!namespace_braces_.empty()) namespace_braces_.pop_back();
                if (!class_braces_.empty()) class_braces_.pop_back();
            }
            if (token.kind == Kind::identifier && token.logical != directive_line_ && at_file_scope() &&
                starts_statement(i))
                file_scope_declaration(i);
            if (token.kind == Kind::punctuator && token.text == "#" && token.line_start) {
                directive_line_ = token.logical;
                directive(i);
            } else if (token.kind == Kind::punctuator && token.text == "[" && i + 1 < t_.size() && t_[i + 1].text == "[") {
                attribute(i + 1, "]");
            } else if (token.kind == Kind::punctuator && token.text == "##") {
                add(token, "token pasting (##) is not allowed in a lab: it builds names the build check cannot read "
                           "(the kit's own, say); write each name out in full");
            } else if (token.kind == Kind::identifier) {
                identifier(i);
            } else if (token.kind == Kind::number) {
                number(token);
            } else if (device_body_depth_ > 0 && token.logical != directive_line_) {
                local_address_use(i);
            }
            if (device_body_depth_ == 0) {
                locals_.clear();
                local_arrays_.clear();
                local_pointers_.clear();
            }
        }
    }

private:
    const std::vector<Token>& t_;
    SourceScan& out_;
    std::set<std::string> declared_;  // names of the OS's functions the file declares as variables of its own
    int depth_ = 0;                   // braces open at the token being read
    int device_body_depth_ = 0;       // the depth of the __global__ or __device__ function's body being read, or 0
    int host_body_depth_ = 0;         // the depth of a named host function's body at file scope, or 0
    int directive_line_ = -1;         // the logical line of the last directive

    // What the declaration before a brace says of it, back to the statement before: a function's body follows a
    // parameter list, a device function's names __global__ or __device__, and a lambda's (or an initialiser's)
    // holds `=` or brackets.
    struct BraceHeader {
        bool parameters = false;
        bool device = false;
        bool lambda = false;
    };
    BraceHeader header_of(std::size_t open) const {
        BraceHeader header;
        for (std::size_t k = open; k-- > 0;) {
            const std::string& text = t_[k].text;
            if (text == ";" || text == "}" || text == "{" || (t_[k].line_start && text == "#")) break;
            if (text == ")") header.parameters = true;
            if (text == "__global__" || text == "__device__") header.device = true;
            if (text == "=" || text == "[" || text == "]") header.lambda = true;
        }
        return header;
    }

    // The token closing the parenthesis at @p open, or the last token.
    std::size_t closing_parenthesis(std::size_t open) const {
        int depth = 0;
        for (std::size_t k = open; k < t_.size(); ++k) {
            if (t_[k].text == "(") ++depth;
            if (t_[k].text == ")" && --depth == 0) return k;
        }
        return t_.size() - 1;
    }

    std::vector<bool> namespace_braces_;  // for each brace open: whether it is a namespace's
    std::vector<bool> class_braces_;      // for each brace open: whether it is a class's (struct, class, union)
    std::set<std::string> shared_names_;  // the names the file declares __shared__

    // Whether the brace at @p open begins a class's body: `struct Name {`, `template <...> class Name : Base {`.
    bool opens_class(std::size_t open) const {
        for (std::size_t k = open; k-- > 0;) {
            const std::string& text = t_[k].text;
            if (text == ";" || text == "{" || text == "}" || text == "(" || text == ")" || text == "=") return false;
            if (text == "struct" || text == "class" || text == "union") return true;
        }
        return false;
    }

    // The names declared __shared__ (`__shared__ float tile[16][16];`, `extern __shared__ float smem[];`): the
    // identifier before the declarator's first `[`, `;`, `=` or `,`.
    void collect_shared_names() {
        for (std::size_t i = 0; i < t_.size(); ++i) {
            if (t_[i].text != "__shared__") continue;
            for (std::size_t k = i + 1; k < t_.size(); ++k) {
                const std::string& text = t_[k].text;
                if (text == "(") {  // an alignment or attribute: past its parentheses
                    k = closing_parenthesis(k);
                    continue;
                }
                if (text == "[" || text == ";" || text == "=" || text == "," || text == "{") {
                    if (t_[k - 1].kind == Kind::identifier) shared_names_.insert(t_[k - 1].text);
                    break;
                }
            }
        }
    }

    bool at_file_scope() const {
        return std::all_of(namespace_braces_.begin(), namespace_braces_.end(), [](bool b) { return b; });
    }

    // Whether the brace at @p open is a namespace's: `namespace {`, `namespace name {`, `namespace a::b {`.
    bool opens_namespace(std::size_t open) const {
        for (std::size_t k = open; k-- > 0;) {
            const std::string& text = t_[k].text;
            if (text == "namespace") return true;
            if (!(t_[k].kind == Kind::identifier || text == "::" || text == "inline")) return false;
        }
        return false;
    }

    // Whether the token at @p i begins a statement at file scope (after `;`, a brace, or a directive).
    bool starts_statement(std::size_t i) const {
        if (i == 0) return true;
        const Token& before = t_[i - 1];
        const bool after_attribute = before.text == "]" && i >= 2 && t_[i - 2].text == "]";  // [[maybe_unused]]
        return before.text == ";" || before.text == "{" || before.text == "}" || before.logical == directive_line_ ||
               after_attribute ||
               (t_[i].line_start && before.logical != t_[i].logical && before.kind == Kind::punctuator &&
                before.text == ">");  // the end of a template's parameter list on the line before
    }

    // A declaration at file scope starting at @p i: a variable that is neither const nor constexpr (nor in device
    // memory, which the __device__ rule refuses) is host memory that a kernel's CPU-backend build can reach, where a
    // GPU's cannot, and that outlasts every block: blocks could count themselves through it.
    void file_scope_declaration(std::size_t i) {
        static const std::set<std::string> not_a_variable = {
            "const", "constexpr", "typedef", "using", "template", "struct", "class", "enum", "union", "namespace",
            "extern", "static_assert", "__shared__", "__device__", "__managed__", "__constant__", "__global__",
            "__host__", "friend", "operator", "asm", "__asm__", "__asm", "public",
            "private", "protected", "return", "if", "for", "while", "do", "switch", "case", "default", "else"};
        int angles = 0;
        for (std::size_t k = i; k < t_.size(); ++k) {
            const Token& token = t_[k];
            if (token.logical == directive_line_ && k != i) return;
            if (not_a_variable.count(token.text) != 0) return;
            // An attribute or alignment is part of the declaration: past its parentheses.
            static const std::set<std::string> specifiers = {"__attribute__", "__attribute", "alignas", "__align__",
                                                             "__declspec"};
            if (specifiers.count(token.text) != 0 && k + 1 < t_.size() && t_[k + 1].text == "(") {
                k = closing_parenthesis(k + 1);
                continue;
            }
            if (token.text == "<") ++angles;
            if (token.text == ">" && angles > 0) --angles;
            if (angles > 0) continue;
            if (token.text == "(" || token.text == "}" || token.text == ":") return;  // a function, or no declaration
            if (token.text == ";" || token.text == "=" || token.text == "[" || token.text == "{") {
                if (k < i + 2) return;  // a type and a name at least
                add(t_[i], "a lab may not declare a variable at file scope that is neither const nor constexpr (" +
                               t_[k - 1].text + "): a kernel keeps its values in registers and shared memory, and "
                               "a variable outside every function outlasts the blocks, so that they could pass each "
                               "other state (a GPU cannot reach it from device code at all); declare it inside the "
                               "function that uses it, or const or constexpr");
                return;
            }
            if (!(token.kind == Kind::identifier || token.text == "*" || token.text == "&" || token.text == "::" ||
                  token.text == ">"))
                return;
        }
    }

    // A static variable declared inside a device function (at @p i, `static`): unless const, constexpr or
    // __shared__, device memory beside M, N and P that outlasts the block.
    void static_in_device_code(std::size_t i, bool in_class) {
        for (std::size_t k = 1;; ++k) {
            const Token* next = following(i, k);
            if (in_class && next != nullptr && next->text == "(") return;  // a static member function
            if (next == nullptr || next->text == ";" || next->text == "=" || next->text == "(" || next->text == "{" ||
                next->text == "[")
                break;
            if (next->text == "const" || next->text == "constexpr" || next->text == "__shared__" ||
                next->text == "__constant__")
                return;
        }
        add(t_[i], "a lab may not keep a static variable in a __global__ or __device__ function or a class: it lives "
                   "in memory beside M, N and P and outlasts the block, so that blocks could pass each other state (a "
                   "count of the blocks that ran, say), and a kernel's blocks are independent of each other; keep a "
                   "value in a register, or in __shared__ memory for the block's own (static const and constexpr "
                   "tables are fine)");
    }


    // -----------------------------------------------------------------------------------------------------------
    // Tells: code whose result differs between a GPU and the CPU backend although it is correct CUDA on both.

    static const std::string& why_tell() {
        static const std::string text =
            "the kit grades the same kernel on a GPU and on the CPU backend (an emulator that runs device code as "
            "x86 C++), and a kernel whose path depended on it would earn the CPU backend's points with another "
            "kernel";
        return text;
    }

    // A floating literal with the suffix l or L (1.0L, 1e-19l, 0x1p-60L): a long double.
    void number(const Token& token) {
        const std::string& text = token.text;
        if (text.empty() || (text.back() != 'l' && text.back() != 'L')) return;
        const bool hex = text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
        const bool floating = hex ? text.find_first_of("pP") != std::string::npos
                                  : text.find_first_of(".eE") != std::string::npos;
        if (floating) refuse_long_double(token, text);
    }

    int long_double_line_ = 0;  // the last line a long double was reported on: one finding a line
    void refuse_long_double(const Token& at, const std::string& what) {
        if (at.line == long_double_line_) return;
        long_double_line_ = at.line;
        add(at, "a lab may not use long double (" + what + "): on the CPU backend it is x86's 80-bit type, in a "
                "GPU's device code nvcc makes it a double, so that the same sums round differently on each ("
                "1.0L + 1e-19L == 1.0L is false on one and true on the other); " + why_tell() +
                ". Use float (double where a lab asks for it), without the suffix L");
    }

    // The identifiers of the logical line from @p i on (a directive's).
    std::vector<std::size_t> line_identifiers(std::size_t i) const {
        std::vector<std::size_t> out;
        for (std::size_t k = i; k < t_.size() && t_[k].logical == t_[i].logical; ++k)
            if (t_[k].kind == Kind::identifier) out.push_back(k);
        return out;
    }

    // Whether another rule refuses the name wherever it appears (so that a conditional on it is not reported twice).
    static bool refused_by_name(const std::string& name) {
        return name == "TILELAB_CPU_BACKEND" || tests_backend(name) || name.find("tilelab") != std::string::npos ||
               name.rfind("TILELAB", 0) == 0 || name == "__has_include" || name == "__has_include_next" ||
               toolkit_version_macros.count(name) != 0;
    }

    // `#define NAME body` and `#define NAME(params) body`: the body's identifiers for the conditionals' rule;
    // `#if`, `#ifdef`, `#ifndef`, `#elif` (and C++23's `#elifdef`, `#elifndef`): the names they test.
    void macro_directive(std::size_t i, const std::string& directive_name) {
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

    std::set<std::string> printf_names_ = {"printf"};  // printf, and macros that expand to a call of it

    // The first token of the expression the name at @p i begins: back over `std::` and `::`.
    std::size_t qualified_start(std::size_t i) const {
        std::size_t start = i;
        while (start >= 1 && t_[start - 1].text == "::") {
            start -= 1;
            if (start >= 1 && t_[start - 1].kind == Kind::identifier && t_[start - 1].text == "std") start -= 1;
        }
        return start;
    }

    // Whether the call at @p i (a printf name) begins a statement: after `;`, a brace, `else`, `do`, or the `)` of an
    // `if`, `for` or `while`, or (when @p body_start) first in a macro's body.
    bool begins_statement(std::size_t i, std::size_t body_start) const {
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
    std::size_t after_call(std::size_t i) const {
        if (i + 1 >= t_.size() || t_[i + 1].text != "(") return i + 1;
        return closing_parenthesis(i + 1) + 1;
    }

    // The body's first token of the #define at @p hash, or t_.size() when it has none.
    std::size_t define_body(std::size_t hash) const {
        std::size_t body = hash + 3;
        if (body < t_.size() && t_[body].logical == t_[hash].logical && t_[body].text == "(")
            body = closing_parenthesis(body) + 1;
        return body < t_.size() && t_[body].logical == t_[hash].logical ? body : t_.size();
    }

    // Macros whose body is a call of printf (or of such a macro), `#define DEBUG(...) printf(__VA_ARGS__)`: their
    // uses in device code follow printf's rule. A body that uses printf's value otherwise is refused here.
    void collect_printf_macros() {
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
    void printf_value(std::size_t i) {
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
    void collect_device_functions() {
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

    bool is_directive_line(std::size_t k) const {
        std::size_t first = k;
        while (first > 0 && t_[first - 1].logical == t_[k].logical) --first;
        return t_[first].text == "#";
    }

    // --- The address of a local variable. On a GPU, local memory is per thread behind one window, so that the
    // same variable has the same (generic) address in every thread; on the CPU backend each thread has a stack of
    // its own.

    std::set<std::string> locals_;          // names declared in the device body being read (not __shared__)
    std::set<std::string> local_arrays_;    // those declared as arrays
    std::set<std::string> local_pointers_;  // pointers declared with a local's address

    // Whether the tokens [from, to) hold a local's address: `&name`, a local array's name (not indexed), a
    // pointer holding one.
    bool holds_local_address(std::size_t from, std::size_t to) const {
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
    std::size_t operand_end(std::size_t k) const {
        while (k < t_.size() && (t_[k].text == "&" || t_[k].text == "*")) ++k;
        if (k < t_.size() && t_[k].text == "(") return closing_parenthesis(k) + 1;
        return k + 1;
    }
    // The start of the operand that ends at @p k (its last token).
    std::size_t operand_start(std::size_t k) const {
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

    void refuse_local_address(const Token& at, const std::string& what) {
        add(at, "device code may not " + what + " a local variable's address: on a GPU each thread's local memory "
                "sits behind one window, so that a local variable has the same address in every thread, where on "
                "the CPU backend each thread has a stack of its own; " + why_tell() + ". Use a local's address only "
                "to read and write through it (an alignment test on a pointer into M, N, P or shared memory is "
                "fine)");
    }

    // Whether the token at @p k ends an operand (so that the punctuator after it is a binary operator).
    bool ends_operand(std::size_t k) const {
        return t_[k].kind == Kind::identifier || t_[k].kind == Kind::number || t_[k].text == ")" ||
               t_[k].text == "]";
    }

    // Declarations of locals, and the uses of a local's address that tell the backends apart: a comparison, a
    // subtraction, a store into shared memory. (Casts to integers: local_address_cast.) The lexer gives operators as
    // single characters: `==` is `=` `=`, `->` is `-` `>`.
    void local_address_use(std::size_t i) {
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
    void local_declaration(std::size_t i) {
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
    void local_address_cast(std::size_t i) {
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

    // The names of os_functions that the file declares as a variable, parameter or member of its own (`int read
    // = 0;`, `bool write)`, a macro's parameter): their uses that are not calls are the student's, not libc's.
    void collect_declared() {
        static const std::set<std::string> ends = {"=", ";", ",", ")", "[", "{", ":"};
        for (std::size_t i = 1; i + 1 < t_.size(); ++i) {
            const Token& token = t_[i];
            if (token.kind != Kind::identifier || os_functions.count(token.text) == 0) continue;
            const Token& before = t_[i - 1];
            const bool after_type = (before.kind == Kind::identifier && !is_expression_word(before.text)) ||
                                    ((before.text == "*" || before.text == "&") && i >= 2 &&
                                     (t_[i - 2].kind == Kind::identifier || t_[i - 2].text == ">"));
            const bool next_declarator = before.text == "," && t_[i + 1].text == "=";  // int a = 0, read = 1;
            // A template type's variable, initialised (`cuda::pipeline<cuda::thread_scope_thread> pipe = ...`, as the
            // CUDA Samples name it): `a > pipe = ` or `a > pipe{` is no expression, a comparison would be.
            const bool template_variable = before.text == ">" && (t_[i + 1].text == "=" || t_[i + 1].text == "{");
            if ((after_type && ends.count(t_[i + 1].text) != 0) || next_declarator || template_variable)
                declared_.insert(token.text);
        }
        // A macro's parameters: `#define NAME(a, write)`.
        for (std::size_t i = 0; i + 3 < t_.size(); ++i) {
            if (!(t_[i].line_start && t_[i].text == "#" && t_[i + 1].text == "define" && t_[i + 3].text == "(")) continue;
            for (std::size_t k = i + 4; k < t_.size() && t_[k].logical == t_[i].logical && t_[k].text != ")"; ++k)
                if (os_functions.count(t_[k].text) != 0) declared_.insert(t_[k].text);
        }
    }

    static bool is_expression_word(const std::string& word) {
        static const std::set<std::string> words = {
            "return", "throw", "else", "do", "case", "co_return", "co_yield", "co_await", "sizeof", "decltype",
            "noexcept", "typeid", "alignof", "new", "delete", "not", "and", "or", "xor", "bitand", "bitor", "compl"};
        return words.count(word) != 0;
    }

    // What qualifies the name at @p i: "." for a member (a.f, p->f), "std" or "::" (the global namespace) or the
    // name of another namespace or class, "" when unqualified.
    std::string qualifier(std::size_t i) const {
        if (i == 0) return "";
        const Token& before = t_[i - 1];
        if (before.text == "." || before.text == "->") return ".";
        if (before.text != "::") return "";
        if (i >= 2 && t_[i - 2].kind == Kind::identifier) return t_[i - 2].text;
        return "::";
    }

    // An attribute's list, from the bracket or parenthesis at @p open to its match: startup attributes refused.
    void attribute(std::size_t open, const std::string& close) {
        const std::string opening = t_[open].text;
        int depth = 0;
        for (std::size_t k = open; k < t_.size(); ++k) {
            if (t_[k].text == opening) ++depth;
            if (t_[k].text == close && --depth == 0) return;
            if (t_[k].kind == Kind::identifier && startup_attributes.count(t_[k].text) != 0) {
                add(t_[k], "the attribute `" + t_[k].text + "` is not allowed in a lab: it runs a lab's code before "
                           "or after main, or places or exports it where the runner does not expect it; a lab's code "
                           "runs when the kit calls its launcher");
                return;
            }
        }
    }

    void add(const Token& token, std::string message) {
        out_.findings.push_back(SourceFinding{"", token.line, std::move(message)});
    }
    const Token* next(std::size_t i, std::size_t k = 1) const {
        return i + k < t_.size() && t_[i + k].logical == t_[i].logical ? &t_[i + k] : nullptr;
    }
    const Token* following(std::size_t i, std::size_t k = 1) const { return i + k < t_.size() ? &t_[i + k] : nullptr; }

    // True when the name at @p i is a member (a.f, p->f), qualified (ns::f: no argument-dependent lookup), or
    // declared (after a type: `int f(`), not called unqualified.
    bool declared_or_qualified(std::size_t i) const {
        if (i == 0) return false;
        const Token& before = t_[i - 1];
        if (before.text == "." || before.text == "->" || before.text == "::") return true;
        static const std::set<std::string> expression_words = {
            "return", "throw", "else", "do", "case", "co_return", "co_yield", "co_await", "sizeof", "decltype",
            "noexcept", "typeid", "alignof", "new", "delete", "not", "and", "or", "xor", "bitand", "bitor", "compl"};
        return before.kind == Kind::identifier && expression_words.count(before.text) == 0;
    }

    void directive(std::size_t i) {
        const Token* name = next(i);
        if (name == nullptr) return;
        macro_directive(i, name->text);
        if (name->text == "include") {
            const Token* header = next(i, 2);
            if (header == nullptr || header->kind != Kind::header_name) {
                add(*name, "#include must name a header as <name> or \"name\": an include computed from a macro "
                           "hides from the build check which file it reads; " + allowed_includes);
                return;
            }
            for (const std::string& prefix : library_prefixes) {
                if (header->text.front() == '<' && header->text.compare(1, prefix.size(), prefix) == 0) {
                    std::string library = prefix;
                    if (library.back() == '/') library.pop_back();
                    add(*name, "the lab calls a library (" + library + "...) instead of computing the product itself: "
                               "write the kernel (it has #include " + header->text + ")");
                    return;
                }
            }
            const std::string problem = include_problem(header->text);
            if (!problem.empty()) {
                add(*name, "#include " + header->text + " has " + problem + ": " + allowed_includes);
            } else if (header->text.front() == '"') {
                out_.quoted.push_back(QuotedInclude{header->text.substr(1, header->text.size() - 2), name->line});
            }
        } else if (name->text == "pragma") {
            std::vector<std::string> words;
            for (std::size_t k = 2; next(i, k) != nullptr; ++k)
                if (next(i, k)->kind == Kind::identifier) words.push_back(next(i, k)->text);
            if (!allowed_pragma(words)) refuse_pragma(*name, words);
        } else if (name->text == "line" || std::isdigit(static_cast<unsigned char>(name->text[0]))) {
            // The emulator and the messages name a barrier by its file and line: a #line could give two barriers of
            // divergent branches one name, and a message the student's wrong line.
            add(*name, "#line is not allowed in a lab: the kit names every barrier and every message by its real file "
                       "and line");
        } else if (name->text == "include_next" || name->text == "import" || name->text == "embed") {
            add(*name, "#" + name->text + " is not allowed in a lab (it reads files the build check does not see); " +
                           allowed_includes);
        }
    }

    void refuse_pragma(const Token& at, const std::vector<std::string>& words) {
        add(at, "#pragma " + (words.empty() ? std::string() : words[0] + " ") +
                    "is not allowed in a lab: a lab may use #pragma unroll (and nounroll, once, GCC unroll and the "
                    "diagnostic pragmas); other pragmas change how the lab's symbols are named, exported or built");
    }

    // The rules on the names of the OS's functions and of the C++ library's files and threads (see os_functions).
    // True when the name at @p i broke one (and was reported).
    bool os_name(std::size_t i) {
        const Token& token = t_[i];
        const std::string& name = token.text;
        const std::string scope = qualifier(i);
        if (name.rfind("pthread_", 0) == 0 && scope != ".") {
            add(token, "a lab may not use threads of its own (" + name + "): " + why_os);
            return true;
        }
        if (frame_builtins.count(name) != 0) {
            add(token, name + " is not allowed in a lab: it hands code the addresses of the stack's frames, which "
                       "hold the runner's own state; " + why_os);
            return true;
        }
        if (os_library_names.count(name) != 0 && scope == "std") {
            add(token, "a lab may not use std::" + name + " (files, threads): " + why_os);
            return true;
        }
        if (os_functions.count(name) == 0 || scope == "." || (!scope.empty() && scope != "std" && scope != "::"))
            return false;
        const Token* after = following(i);
        const bool called = after != nullptr && after->text == "(";
        if (!scope.empty() || called || declared_.count(name) == 0) {
            add(token, "a lab may not call " + (scope.empty() || scope == "::" ? scope : scope + "::") + name +
                           " (a function of the C library or the system): " + why_os +
                           (called && scope.empty() ? "; a function of your own needs another name" : ""));
            return true;
        }
        return false;
    }


    int toolkit_line_ = 0;  // the last line a toolkit version macro was reported on
    // The rules on tells (see above) for the identifier at @p i; true when one was reported.
    bool tells(std::size_t i) {
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

    void identifier(std::size_t i) {
        const Token& token = t_[i];
        const std::string& name = token.text;
        if (name == "__attribute__" || name == "__attribute") {
            if (following(i) != nullptr && following(i)->text == "(") attribute(i + 1, ")");
            return;
        }
        if (name == "extern" && following(i) != nullptr && following(i)->kind == Kind::string &&
            following(i)->text == "\"C\"") {
            add(token, "extern \"C\" is not allowed in a lab: it declares the C library's (or the kit's) functions "
                       "without their headers; a lab's functions are C++ and use only what CUDA's and the C++ "
                       "library's headers declare");
            return;
        }
        if (os_name(i)) return;
        if (tells(i)) return;
        if (name == "tilelab") {
            const Token* scope = following(i);
            const Token* member = following(i, 2);
            const bool after_namespace = i > 0 && t_[i - 1].text == "namespace";
            if (!after_namespace && scope != nullptr && scope->text == "::" && member != nullptr &&
                public_names.count(member->text) != 0)
                return;
            std::string what = "tilelab";
            if (scope != nullptr && scope->text == "::" && member != nullptr && member->kind == Kind::identifier) {
                what += "::" + member->text;
                const Token* scope2 = following(i, 3);
                const Token* member2 = following(i, 4);
                if (scope2 != nullptr && scope2->text == "::" && member2 != nullptr && member2->kind == Kind::identifier)
                    what += "::" + member2->text;
            }
            if (after_namespace) what = "namespace " + what;
            add(token, "student code may not name the kit's own functions (" + what + "): " + why_kit_names);
            return;
        }
        if (name == "TILELAB_CPU_BACKEND" || tests_backend(name)) {
            add(token, "a lab may not test which backend or compiler pass compiles it (" + name +
                           "): the kit grades the same kernel on a GPU and on the CPU backend, and a kernel that "
                           "changes with the backend would earn one backend's points with another kernel");
            return;
        }
        if (public_macros.count(name) != 0) return;
        if (name.find("tilelab") != std::string::npos || name.rfind("TILELAB", 0) == 0) {
            add(token, "student code may not name the kit's own functions or macros (" + name + "): " + why_kit_names);
            return;
        }
        const Token* after = following(i);
        const bool called = after != nullptr && (after->text == "(" || after->text == "<");
        if (called && emulator_functions.count(name) != 0 && !declared_or_qualified(i)) {
            add(token, "student code may not call " + name + ", a function of the CPU backend's emulator (tilelab::cpu::" +
                           name + "), which it finds through a shared array's type: " + why_kit_names +
                           "; give a function of your own another name");
            return;
        }
        if (name == "static" && token.logical == directive_line_) {
            add(token, "a macro may not hold `static`: the kit reads a lab's declarations as written, and a static "
                       "variable in device code or a class is refused (it outlasts the block); write the declaration "
                       "out in full");
            return;
        }
        // Anywhere but at file scope (the file-scope rule's) and in a host function's own body: device code, a
        // class, a lambda.
        if (name == "static" && depth_ > 0 && host_body_depth_ == 0 && !at_file_scope()) {
            static_in_device_code(i, !class_braces_.empty() && class_braces_.back());
            return;
        }
        if (name == "thread_local" || name == "mutable") {
            add(token, "`" + name + "` is not allowed in a lab: it keeps state that outlasts a block (or changes an "
                       "object declared const), and a kernel's blocks are independent of each other; keep values in "
                       "registers, or in __shared__ memory for the block's own");
            return;
        }
        if (name == "__activemask") {
            add(token, "__activemask() is not allowed in a lab: it tells which lanes the hardware happens to be "
                       "running together at that moment, which no rule of the code fixes (and which the CPU "
                       "backend's emulator cannot know); name the lanes yourself, 0xffffffff for the whole warp, or "
                       "take them from __ballot_sync");
            return;
        }
        if (name == "decltype" && following(i) != nullptr && following(i)->text == "(") {
            const Token* named = following(i, 2);
            if (named != nullptr && named->text == "(") named = following(i, 3);
            if (named != nullptr && shared_names_.count(named->text) != 0) {
                add(token, "a lab may not take the type of a __shared__ variable (decltype(" + named->text +
                               ")): the CPU backend's build gives shared memory a type of its own so that it can "
                               "follow every access, and a kernel that looked would be another kernel on each "
                               "backend; write the type out (float[16][16])");
                return;
            }
        }
        if (approximate_intrinsics.count(name) != 0) {
            add(token, name + " is not allowed in a lab: a fast-math intrinsic gives the GPU's approximation, whose "
                              "bits the CPU backend does not reproduce, and a matrix product needs none; use the "
                              "exact operation (a / b, expf, ...)");
            return;
        }
        if (device_body_depth_ > 0 && inexact_device_math.count(name) != 0 && following(i) != nullptr &&
            following(i)->text == "(" && (qualifier(i).empty() || qualifier(i) == "std" || qualifier(i) == "::")) {
            add(token, name + " is not allowed in device code in a lab: a GPU computes it within a few units in the "
                              "last place, where the CPU backend's library gives other last bits, and a matrix "
                              "product needs no such function (multiply-adds, and sqrtf or division where exact)");
            return;
        }
        if (hidden_state_functions.count(name) != 0 && qualifier(i) != ".") {
            add(token, "a lab may not use " + name + ": it keeps hidden state of the C library's that outlasts a "
                       "block (and device code cannot call it on a GPU); a kernel's values depend only on M, N and "
                       "the shape");
            return;
        }
        if (name == "__device__" || name == "__managed__" || name == "__constant__") {
            // A variable in device memory (a declaration that reaches ';', '=' or '[' before any '('): memory
            // beside M, N and P that a kernel could write, and route its operands through out of the kit's sight.
            for (std::size_t k = 1;; ++k) {
                const Token* next = following(i, k);
                if (next == nullptr || next->text == "(" || next->text == "{") break;
                if (next->text == ";" || next->text == "=" || next->text == "[") {
                    add(token, "a lab may not declare a variable in device memory (" + name + " ... " +
                                   (following(i, k - 1) != nullptr ? following(i, k - 1)->text : std::string()) +
                                   "): a kernel reads M and N and writes P, and keeps anything else in registers or "
                                   "shared memory (a __device__ function is fine)");
                    return;
                }
            }
        }
        if (name == "__shared__" && (depth_ == 0 || token.logical == directive_line_)) {
            // The CPU backend gives each block its own copy of a declaration it rewrites, inside a function; one at
            // file scope or in a macro it cannot reach, and a kernel could pass the block's values through it past
            // the race checks and the technique checks.
            add(token, std::string("declare __shared__ memory inside the kernel (or a __device__ function), not ") +
                           (token.logical == directive_line_ ? "in a macro" : "at file scope") + ": the CPU backend follows every access "
                           "to a __shared__ array declared there (its race checks, the technique checks) and cannot "
                           "follow one declared elsewhere, so the kit refuses it on every backend (extern __shared__ "
                           "float smem[]; inside the kernel works the same as at file scope)");
            return;
        }
        if (name == "asm" || name == "__asm__" || name == "__asm") {
            add(token, "asm is not allowed in a lab: an asm label or asm statement can reach any of the program's "
                       "symbols (the kit's included) or files (.incbin) by a name the build check cannot read; write "
                       "the kernel in CUDA C++");
            return;
        }
        if (symbol_attributes.count(name) != 0) {
            add(token, "`" + name + "` gives a declaration another symbol's name (the kit's, say): a lab's functions "
                       "are its own; remove it");
            return;
        }
        if (lookups_by_name.count(name) != 0) {
            add(token, "a lab may not look code up by its symbol's name (" + name +
                           "): the kit's functions are out of a lab's reach");
            return;
        }
        if (name == "__has_include" || name == "__has_include_next") {
            add(token, name + " is not allowed in a lab: which headers exist differs between the backends; " +
                           allowed_includes);
            return;
        }
        if (name == "_Pragma") {
            const Token* open = following(i);
            const Token* operand = following(i, 2);
            if (open != nullptr && open->text == "(" && operand != nullptr && operand->kind == Kind::string) {
                // The operand's words, as #pragma would read them.
                std::vector<std::string> words;
                std::string word;
                const std::string& text = operand->text;
                for (std::size_t k = text.find('"') + 1; k < text.size(); ++k) {
                    if (is_identifier_char(text[k])) {
                        word += text[k];
                    } else {
                        if (!word.empty() && !std::isdigit(static_cast<unsigned char>(word[0]))) words.push_back(word);
                        word.clear();
                    }
                }
                if (!allowed_pragma(words)) refuse_pragma(token, words);
            } else {
                add(token, "_Pragma must have a plain string literal: a lab may use #pragma unroll");
            }
        }
    }
};

// ---------------------------------------------------------------------------------------------------------------
// Links, and files read without following them.

std::string describe_link(const std::filesystem::path& path) {
    std::error_code error;
    const auto target = std::filesystem::read_symlink(path, error);
    return error ? std::string("a symbolic link") : "a symbolic link (to " + target.string() + ")";
}

const std::string why_plain =
    ": a submission holds plain files and folders only, and the grader follows no link (a link can point at "
    "files outside the submission, the kit's model answers among them); replace it by the file itself";

// Findings for @p path (shown as @p shown) unless it is a plain folder (@p folder) or a plain file with one name.
void check_plain(const std::filesystem::path& path, const std::string& shown, bool folder,
                 std::vector<SourceFinding>& out) {
    struct stat st {};
    if (lstat(path.c_str(), &st) != 0) {
        out.push_back(SourceFinding{shown, 0, "cannot be read (" + std::string(std::strerror(errno)) + ")"});
        return;
    }
    if (S_ISLNK(st.st_mode)) {
        out.push_back(SourceFinding{shown, 0, "is " + describe_link(path) + why_plain});
    } else if (S_ISREG(st.st_mode) && st.st_nlink > 1) {
        out.push_back(SourceFinding{shown, 0, "is a hard link (one file under " + std::to_string(st.st_nlink) +
                                                  " names, one of them perhaps outside the submission)" + why_plain});
    } else if (folder ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)) {
        if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
            out.push_back(SourceFinding{shown, 0, "is neither a plain file nor a folder (a device, a pipe, a socket)" +
                                                      why_plain});
        else if (folder)
            out.push_back(SourceFinding{shown, 0, "should be a folder"});
    }
}

// Reads a plain file without following a link at its last step (its folders are checked before).
bool read_plain(const std::filesystem::path& path, std::string& text) {
    const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return false;
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
        close(fd);
        return false;
    }
    text.clear();
    char buffer[65536];
    ssize_t got;
    while ((got = read(fd, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<std::size_t>(got));
    close(fd);
    return got == 0;
}

// The line, from 1, of the character at @p offset in @p text as written (no splicing).
int line_of_offset(const std::string& text, std::size_t offset) {
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

}  // namespace

namespace {

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

SourceScan scan_source_text(const std::string& text);

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

SourceScan check_source_text(const std::string& text) {
    SourceScan out = scan_source_text(text);
    std::vector<SourceScan*> scans = {&out};
    resolve_lab_scans(scans);
    return out;
}

namespace {

SourceScan scan_source_text(const std::string& text) {
    SourceScan out;
    // Trigraphs (??= for #, ??/ for a backslash) are replaced before everything else by compilers that still
    // honour them: refused, so that the check and every compiler read the same characters.
    for (std::size_t at = text.find("??"); at != std::string::npos; at = text.find("??", at + 1)) {
        if (at + 2 < text.size() && std::strchr("=/'()!<>-", text[at + 2]) != nullptr && text[at + 2] != '\0') {
            const int line = line_of_offset(text, at);
            out.findings.push_back(SourceFinding{"", line, "a trigraph (??" + std::string(1, text[at + 2]) +
                                                               ") stands for another character: write that character"});
            return out;
        }
    }
    // A carriage return ends a line for the compilers, not for this check's reading, which ends lines at "\n":
    // "// note\r" followed by code hid that code from it. One before "\n" (a CRLF line end) is only a blank.
    for (std::size_t at = text.find('\r'); at != std::string::npos; at = text.find('\r', at + 1)) {
        if (at + 1 < text.size() && text[at + 1] == '\n') continue;
        const int line = line_of_offset(text, at);
        out.findings.push_back(SourceFinding{"", line, "a carriage return that is not part of a line end (CR LF) ends a "
                                                       "line for the compiler but not for an editor: save the file "
                                                       "with LF or CRLF line ends"});
        return out;
    }
    lexing::Lexed lexed = lexing::lex(text);
    out.findings = std::move(lexed.findings);
    Rules(lexed.tokens, out).run();
    for (SourceFinding& finding : device_call_findings(lexed.tokens)) out.findings.push_back(std::move(finding));
    std::stable_sort(out.findings.begin(), out.findings.end(),
                     [](const SourceFinding& a, const SourceFinding& b) { return a.line < b.line; });
    return out;
}

}  // namespace

std::vector<SourceFinding> check_lab_file(const std::filesystem::path& root, const std::filesystem::path& relative) {
    namespace fs = std::filesystem;
    std::vector<SourceFinding> out;
    // Every folder from the submission's root down to the file's folder.
    fs::path folder = root;
    fs::path shown;
    for (const fs::path& step : relative.parent_path()) {
        folder /= step;
        shown /= step;
        const std::size_t before = out.size();
        check_plain(folder, shown.string(), true, out);
        if (out.size() != before) return out;
    }
    // Everything in the file's folder, at any depth (a quoted include may name any of it).
    std::error_code error;
    for (fs::recursive_directory_iterator it(folder, fs::directory_options::none, error), end; !error && it != end;
         it.increment(error)) {
        const fs::path entry = it->path();
        const std::string entry_shown = (relative.parent_path() / entry.lexically_relative(folder)).string();
        std::error_code status_error;  // never follow a link: its target may be closed to this user
        check_plain(entry, entry_shown, fs::is_directory(it->symlink_status(status_error)), out);
    }
    if (!out.empty()) return out;
    // The file, then each file it includes with quotes, each once.
    std::vector<std::pair<fs::path, std::string>> pending = {{root / relative, relative.string()}};
    std::set<std::string> seen;
    // Each file's findings after what came before it (the folder's, a file that cannot be read): in order.
    std::vector<std::pair<std::string, SourceScan>> scans;
    std::vector<std::pair<std::size_t, SourceFinding>> others;  // (scans read before it, finding)
    while (!pending.empty()) {
        const auto [path, file] = pending.back();
        pending.pop_back();
        if (!seen.insert(path.lexically_normal().string()).second) continue;
        std::string text;
        if (!read_plain(path, text)) {
            others.emplace_back(scans.size(), SourceFinding{file, 0, "cannot be read as a plain file of the lab's folder"});
            continue;
        }
        scans.emplace_back(file, scan_source_text(text));
        const SourceScan& scan = scans.back().second;
        for (const QuotedInclude& include : scan.quoted) {
            const fs::path included = path.parent_path() / include.name;
            const std::string included_shown = (fs::path(file).parent_path() / include.name).string();
            struct stat st {};
            if (lstat(included.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
                others.emplace_back(scans.size(), SourceFinding{file, include.line,
                                            "#include \"" + include.name + "\" names no file of the lab's folder "
                                            "(a compiler would then look in the kit's include folders): " +
                                            allowed_includes});
                continue;
            }
            pending.emplace_back(included, included_shown);
        }
    }
    std::vector<SourceScan*> all;
    for (auto& entry : scans) all.push_back(&entry.second);
    resolve_lab_scans(all);
    std::size_t other = 0;
    for (std::size_t k = 0; k <= scans.size(); ++k) {
        for (; other < others.size() && others[other].first == k; ++other) out.push_back(others[other].second);
        if (k == scans.size()) break;
        for (SourceFinding& finding : scans[k].second.findings) {
            finding.file = scans[k].first;
            out.push_back(std::move(finding));
        }
    }
    return out;
}

std::string first_os_symbol(const std::string& nm_undefined) {
    std::istringstream lines(nm_undefined);
    std::string line;
    while (std::getline(lines, line)) {
        // "                 U name@VERSION": the kind, then the name; nm's "<object>:" headers and blank lines
        // have no "U" before the last word.
        std::istringstream words(line);
        std::string kind, name;
        if (!(words >> kind >> name) || kind != "U" || line.back() == ':') continue;
        name = name.substr(0, name.find('@'));
        const bool listed = (os_functions.count(name) != 0 && name != "atexit") || os_object_only_names.count(name) != 0;
        bool prefixed = false;
        for (const char* prefix : os_object_prefixes)
            if (name.rfind(prefix, 0) == 0) prefixed = true;
        if (listed || prefixed) return name;
    }
    return {};
}

}  // namespace tilelab::grader
