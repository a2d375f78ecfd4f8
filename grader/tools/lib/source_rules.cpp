// The source check's walk over a file's tokens, and its rules on what a lab may reach (source_rules.hpp).
#include "source_rules.hpp"

#include "source_names.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tilelab::grader::source_rules {

using lexing::is_identifier_char;

// ---------------------------------------------------------------------------------------------------------------
// What a lab may name and include. One place: the grading page (docs/grading.md#check_build) lists the same.

using namespace source_names;  // the tables (source_names.hpp)

namespace {

const std::string why_os =
    "a lab needs only CUDA and the C++ standard library; lab code runs in the runner's process, next to the "
    "channel that carries its results to the checker, so it may not reach files, descriptors, processes, threads, "
    "signals or the environment";

const std::string why_kit_names =
    "the grader's measurements must come from the kit, not from the lab. A lab may use tilelab::DeviceBuffer, "
    "tilelab::CudaEvent, tilelab::elapsed_ms, tilelab::CudaError and TILELAB_CUDA_CHECK, and tilelab/mma.hpp's "
    "tilelab::mma_m16n8k8_tf32, tilelab::to_tf32, tilelab::ldmatrix_x4 and tilelab::ldmatrix_x2, nothing else of the "
    "kit";

}  // namespace

const std::string allowed_includes =
    "a lab may include <tilelab/labs.hpp>, <tilelab/cuda_check.hpp>, <tilelab/cuda_event.hpp>, "
    "<tilelab/device_buffer.hpp>, <tilelab/mma.hpp>, CUDA's runtime and device headers (<cuda_runtime.h>, <cuda_pipeline.h>, "
    "<cooperative_groups.h>, ...), the C++ standard library's computing headers (<vector>, <cmath>, <cstdio>, ...) "
    "and files of its own folder (\"name.cuh\")";

namespace {

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

}  // namespace

void Rules::run() {
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

// What the declaration before a brace says of it, back to the statement before: a function's body follows a
// parameter list, a device function's names __global__ or __device__, and a lambda's (or an initialiser's)
// holds `=` or brackets.
Rules::BraceHeader Rules::header_of(std::size_t open) const {
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
std::size_t Rules::closing_parenthesis(std::size_t open) const {
    int depth = 0;
    for (std::size_t k = open; k < t_.size(); ++k) {
        if (t_[k].text == "(") ++depth;
        if (t_[k].text == ")" && --depth == 0) return k;
    }
    return t_.size() - 1;
}

// Whether the brace at @p open begins a class's body: `struct Name {`, `template <...> class Name : Base {`.
bool Rules::opens_class(std::size_t open) const {
    for (std::size_t k = open; k-- > 0;) {
        const std::string& text = t_[k].text;
        if (text == ";" || text == "{" || text == "}" || text == "(" || text == ")" || text == "=") return false;
        if (text == "struct" || text == "class" || text == "union") return true;
    }
    return false;
}

// The names declared __shared__ (`__shared__ float tile[16][16];`, `extern __shared__ float smem[];`): the
// identifier before the declarator's first `[`, `;`, `=` or `,`.
void Rules::collect_shared_names() {
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

bool Rules::at_file_scope() const {
    return std::all_of(namespace_braces_.begin(), namespace_braces_.end(), [](bool b) { return b; });
}

// Whether the brace at @p open is a namespace's: `namespace {`, `namespace name {`, `namespace a::b {`.
bool Rules::opens_namespace(std::size_t open) const {
    for (std::size_t k = open; k-- > 0;) {
        const std::string& text = t_[k].text;
        if (text == "namespace") return true;
        if (!(t_[k].kind == Kind::identifier || text == "::" || text == "inline")) return false;
    }
    return false;
}

// Whether the token at @p i begins a statement at file scope (after `;`, a brace, or a directive).
bool Rules::starts_statement(std::size_t i) const {
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
void Rules::file_scope_declaration(std::size_t i) {
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
void Rules::static_in_device_code(std::size_t i, bool in_class) {
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

// The names of os_functions that the file declares as a variable, parameter or member of its own (`int read
// = 0;`, `bool write)`, a macro's parameter): their uses that are not calls are the student's, not libc's.
void Rules::collect_declared() {
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

bool Rules::is_expression_word(const std::string& word) {
    static const std::set<std::string> words = {
        "return", "throw", "else", "do", "case", "co_return", "co_yield", "co_await", "sizeof", "decltype",
        "noexcept", "typeid", "alignof", "new", "delete", "not", "and", "or", "xor", "bitand", "bitor", "compl"};
    return words.count(word) != 0;
}

// What qualifies the name at @p i: "." for a member (a.f, p->f), "std" or "::" (the global namespace) or the
// name of another namespace or class, "" when unqualified.
std::string Rules::qualifier(std::size_t i) const {
    if (i == 0) return "";
    const Token& before = t_[i - 1];
    if (before.text == "." || before.text == "->") return ".";
    if (before.text != "::") return "";
    if (i >= 2 && t_[i - 2].kind == Kind::identifier) return t_[i - 2].text;
    return "::";
}

// An attribute's list, from the bracket or parenthesis at @p open to its match: startup attributes refused.
void Rules::attribute(std::size_t open, const std::string& close) {
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

void Rules::add(const Token& token, std::string message) {
    out_.findings.push_back(SourceFinding{"", token.line, std::move(message)});
}
const Token* Rules::next(std::size_t i, std::size_t k) const {
    return i + k < t_.size() && t_[i + k].logical == t_[i].logical ? &t_[i + k] : nullptr;
}
const Token* Rules::following(std::size_t i, std::size_t k) const { return i + k < t_.size() ? &t_[i + k] : nullptr; }

// True when the name at @p i is a member (a.f, p->f), qualified (ns::f: no argument-dependent lookup), or
// declared (after a type: `int f(`), not called unqualified.
bool Rules::declared_or_qualified(std::size_t i) const {
    if (i == 0) return false;
    const Token& before = t_[i - 1];
    if (before.text == "." || before.text == "->" || before.text == "::") return true;
    static const std::set<std::string> expression_words = {
        "return", "throw", "else", "do", "case", "co_return", "co_yield", "co_await", "sizeof", "decltype",
        "noexcept", "typeid", "alignof", "new", "delete", "not", "and", "or", "xor", "bitand", "bitor", "compl"};
    return before.kind == Kind::identifier && expression_words.count(before.text) == 0;
}

void Rules::directive(std::size_t i) {
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

void Rules::refuse_pragma(const Token& at, const std::vector<std::string>& words) {
    add(at, "#pragma " + (words.empty() ? std::string() : words[0] + " ") +
                "is not allowed in a lab: a lab may use #pragma unroll (and nounroll, once, GCC unroll and the "
                "diagnostic pragmas); other pragmas change how the lab's symbols are named, exported or built");
}

// The rules on the names of the OS's functions and of the C++ library's files and threads (see os_functions).
// True when the name at @p i broke one (and was reported).
bool Rules::os_name(std::size_t i) {
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

void Rules::identifier(std::size_t i) {
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

}  // namespace tilelab::grader::source_rules
