#include "device_calls.hpp"

#include <set>
#include <string>

namespace tilelab::grader {
namespace {

using lexing::Kind;
using lexing::Token;

// The C library's functions on raw bytes that CUDA does not give device code (it gives memcpy and memset): through
// a void* they read memory past the element accesses the CPU backend's emulator counts and checks.
const std::set<std::string> raw_memory_functions = {
    "memmove", "memcmp", "memchr", "memccpy", "memrchr", "bcopy", "bcmp", "bzero", "explicit_bzero", "mempcpy",
    "wmemmove", "wmemcmp", "wmemcpy", "wmemchr", "__builtin_memmove", "__builtin_memcmp", "__builtin_memchr",
    "__builtin_bcopy", "__builtin_bcmp", "__builtin_bzero", "__builtin_mempcpy",
    "__builtin_bit_cast"};  // an address's bits made a plain pointer, past the checked pointers that follow P

const std::set<std::string> control_words = {"if", "for", "while", "switch", "catch", "return", "sizeof", "decltype",
                                             "alignof", "noexcept", "static_assert", "typeid", "throw", "do", "else"};

// A function definition of the file: its name and what its declaration says.
struct Definition {
    std::string name;
    bool device = false;     // __device__ or __global__ (a __host__ __device__ one too)
    bool constexpr_ = false;  // constexpr or consteval: evaluated at compile time where a constant is needed
};

class DeviceCalls {
public:
    explicit DeviceCalls(const std::vector<Token>& tokens) : t_(tokens) {}

    std::vector<SourceFinding> run() {
        read_macros();
        find_bodies();
        std::set<std::string> host, device;
        for (const Body& body : bodies_) {
            if (body.definition.name.empty()) continue;
            if (body.definition.device) device.insert(body.definition.name);
            else if (!body.definition.constexpr_) host.insert(body.definition.name);
        }
        std::vector<SourceFinding> findings;
        for (const Body& body : bodies_) {
            if (!body.definition.device) continue;
            for (std::size_t i = body.open + 1; i < body.close; ++i) {
                if (t_[i].kind != Kind::identifier || i + 1 >= t_.size() || t_[i + 1].text != "(") continue;
                const std::string& name = t_[i].text;
                const std::string before = i > 0 ? t_[i - 1].text : "";
                const std::string scope = before == "::" && i >= 2 && t_[i - 2].kind == Kind::identifier ? t_[i - 2].text
                                          : before == "::"                                              ? "::"
                                                                                                        : "";
                if (raw_memory_functions.count(name) != 0 && before != "." && before != "->" &&
                    (scope.empty() || scope == "std" || scope == "::")) {
                    findings.push_back({"", t_[i].line,
                                        (scope.empty() || scope == "::" ? scope : scope + "::") + name +
                                            " is a host function of the C library on raw memory: device code cannot "
                                            "call it (nvcc refuses it), and on the CPU backend it would read shared "
                                            "memory past the emulator's checks; move values by assignment, or with "
                                            "memcpy, which CUDA gives device code"});
                } else if (host.count(name) != 0 && device.count(name) == 0 && scope.empty()) {
                    findings.push_back({"", t_[i].line,
                                        name + " is a function of the lab's own without __device__, called in device "
                                               "code: a kernel may call only device functions (nvcc: \"calling a "
                                               "__host__ function from a __global__ function is not allowed\"); "
                                               "declare it __device__ (or __host__ __device__)"});
                }
            }
        }
        return findings;
    }

private:
    struct Body {
        std::size_t open, close;  // the braces
        Definition definition;    // name empty: not a function's body (or one whose name is not read)
    };

    const std::vector<Token>& t_;
    std::vector<Body> bodies_;  // the outermost function bodies, in order
    std::set<std::string> device_macros_;  // this file's macros whose text says __device__ or __global__
    std::set<std::string> other_macros_;   // and its other macros

    // `#define CUTLASS_DEVICE __forceinline__ __device__`: a declaration that names such a macro is a device one.
    void read_macros() {
        for (std::size_t i = 0; i + 2 < t_.size(); ++i) {
            if (!(t_[i].line_start && t_[i].text == "#" && t_[i + 1].text == "define")) continue;
            bool device = false;
            for (std::size_t k = i + 3; k < t_.size() && t_[k].logical == t_[i].logical; ++k)
                device = device || t_[k].text == "__device__" || t_[k].text == "__global__";
            (device ? device_macros_ : other_macros_).insert(t_[i + 2].text);
        }
    }

    // A name in capitals that this file does not define: a macro of a header (a device one, for all this check can
    // tell), so the declaration's execution space is not read.
    bool unknown_macro(const std::string& text) const {
        if (text.size() < 2 || other_macros_.count(text) != 0) return false;
        for (char c : text)
            if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
        return true;
    }

    std::size_t matching(std::size_t open, const char* opening, const char* closing) const {
        int depth = 0;
        for (std::size_t k = open; k < t_.size(); ++k) {
            if (t_[k].text == opening) ++depth;
            if (t_[k].text == closing && --depth == 0) return k;
        }
        return t_.size();
    }
    std::size_t matching_back(std::size_t close, const char* opening, const char* closing) const {
        int depth = 0;
        for (std::size_t k = close + 1; k-- > 0;) {
            if (t_[k].text == closing) ++depth;
            if (t_[k].text == opening && --depth == 0) return k;
        }
        return t_.size();
    }

    // The ')' that closes the parameters of a function whose body opens at @p brace, or t_.size(): qualifiers
    // (const, noexcept(...), override, a trailing return type) may stand between them.
    std::size_t parameters_end(std::size_t brace) const {
        static const std::set<std::string> qualifiers = {"const", "volatile", "noexcept", "override", "final",
                                                         "mutable", "__restrict__", "&", "&&", "throw"};
        std::size_t k = brace;
        for (int steps = 0; k > 0 && steps < 64; ++steps) {
            const Token& before = t_[k - 1];
            if (before.text == ")") {
                const std::size_t open = matching_back(k - 1, "(", ")");
                if (open == t_.size()) return t_.size();
                if (open > 0 && (t_[open - 1].text == "noexcept" || t_[open - 1].text == "throw")) {
                    k = open - 1;
                    continue;
                }
                return k - 1;
            }
            if (qualifiers.count(before.text) != 0) {
                --k;
                continue;
            }
            // A trailing return type: back to its "->".
            std::size_t arrow = k - 1;
            while (arrow > 0 && arrow + 16 > k && t_[arrow].text != "->" && t_[arrow].text != ")" &&
                   t_[arrow].text != ";" && t_[arrow].text != "{" && t_[arrow].text != "}")
                --arrow;
            if (t_[arrow].text != "->") return t_.size();
            k = arrow;
        }
        return t_.size();
    }

    // What the declaration whose name is at @p name says: __device__, __global__, constexpr.
    Definition declaration(std::size_t name) const {
        Definition definition{t_[name].text, false, false};
        for (std::size_t k = name; k-- > 0;) {
            const std::string& text = t_[k].text;
            if (text == ")") {  // __launch_bounds__(256), __attribute__((...)): past it
                k = matching_back(k, "(", ")");
                if (k == t_.size()) break;
                continue;
            }
            if (text == ";" || text == "{" || text == "}" || text == ":") break;
            if (text == "__device__" || text == "__global__" || device_macros_.count(text) != 0 || unknown_macro(text))
                definition.device = true;
            if (text == "constexpr" || text == "consteval") definition.constexpr_ = true;
        }
        return definition;
    }

    void find_bodies() {
        for (std::size_t i = 0; i < t_.size(); ++i) {
            if (t_[i].kind != Kind::punctuator || t_[i].text != "{") continue;
            const std::size_t close = matching(i, "{", "}");
            const std::size_t end = parameters_end(i);
            if (end == t_.size()) continue;  // a namespace, a class, an initializer: look inside it
            const std::size_t open = matching_back(end, "(", ")");
            if (open == t_.size() || open == 0) continue;
            const Token& name = t_[open - 1];
            if (name.kind != Kind::identifier || control_words.count(name.text) != 0) continue;
            Body body{i, close, {}};
            // A constructor's initializer list (`: a(1) {`) names a member, not the function: its body counts as a
            // host function's with no name (its own name is not read), so nothing is taken for a definition.
            const bool initializer = open >= 2 && (t_[open - 2].text == ":" || t_[open - 2].text == ",");
            if (!initializer) body.definition = declaration(open - 1);
            bodies_.push_back(body);
            i = close;  // a function's inside holds no other function's definition (lambdas are its own code)
        }
    }
};

}  // namespace

std::vector<SourceFinding> device_call_findings(const std::vector<lexing::Token>& tokens) {
    return DeviceCalls(tokens).run();
}

}  // namespace tilelab::grader
