// The source check's walk over one file's tokens (internal to tools/lib): source_rules.cpp, backend_tells.cpp.
/// @file source_rules.hpp
/// @brief The class behind check_source_text (source_policy.hpp): one pass over a file's tokens that tracks the
/// braces (file scope, classes, device and host function bodies, directives) and applies every rule at each token.
/// Its members are defined by job: the walk and the rules on what a lab may reach (includes, names, directives,
/// state that outlasts a block) in source_rules.cpp; the tells of the CPU backend (long double, preprocessor
/// conditionals, printf's value, NaN bits, local addresses, mixed overload sets) in backend_tells.cpp.
#pragma once

#include "source_lexer.hpp"
#include "source_policy.hpp"

#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace tilelab::grader::source_rules {

using lexing::Kind;
using lexing::Token;

/// What a lab may include, as the messages say it (source_rules.cpp); check_lab_file's message on a quoted include
/// that names no file of the lab's folder ends with it too.
extern const std::string allowed_includes;

/// The rules on the tokens of one file, as written: run() reads them once, in order, and adds what it finds to
/// the SourceScan it was given (findings, quoted includes, and what resolve_lab_scans needs from every file).
class Rules {
public:
    Rules(const std::vector<Token>& tokens, SourceScan& out) : t_(tokens), out_(out) {}

    void run();

private:
    // -----------------------------------------------------------------------------------------------------------
    // The walk, and the rules on what a lab may reach (source_rules.cpp).

    const std::vector<Token>& t_;
    SourceScan& out_;
    std::set<std::string> declared_;  // names of the OS's functions the file declares as variables of its own
    int depth_ = 0;                   // braces open at the token being read
    int device_body_depth_ = 0;       // the depth of the __global__ or __device__ function's body being read, or 0
    int host_body_depth_ = 0;         // the depth of a named host function's body at file scope, or 0
    int directive_line_ = -1;         // the logical line of the last directive
    std::vector<bool> namespace_braces_;  // for each brace open: whether it is a namespace's
    std::vector<bool> class_braces_;      // for each brace open: whether it is a class's (struct, class, union)
    std::set<std::string> shared_names_;  // the names the file declares __shared__

    struct BraceHeader {
        bool parameters = false;
        bool device = false;
        bool lambda = false;
    };
    BraceHeader header_of(std::size_t open) const;
    std::size_t closing_parenthesis(std::size_t open) const;
    bool opens_class(std::size_t open) const;
    void collect_shared_names();
    bool at_file_scope() const;
    bool opens_namespace(std::size_t open) const;
    bool starts_statement(std::size_t i) const;
    void file_scope_declaration(std::size_t i);
    void static_in_device_code(std::size_t i, bool in_class);
    void collect_declared();
    static bool is_expression_word(const std::string& word);
    std::string qualifier(std::size_t i) const;
    void attribute(std::size_t open, const std::string& close);
    void add(const Token& token, std::string message);
    const Token* next(std::size_t i, std::size_t k = 1) const;
    const Token* following(std::size_t i, std::size_t k = 1) const;
    bool declared_or_qualified(std::size_t i) const;
    void directive(std::size_t i);
    void refuse_pragma(const Token& at, const std::vector<std::string>& words);
    bool os_name(std::size_t i);
    void identifier(std::size_t i);

    // -----------------------------------------------------------------------------------------------------------
    // Tells: code whose result differs between a GPU and the CPU backend although it is correct CUDA on both
    // (backend_tells.cpp).

    int long_double_line_ = 0;  // the last line a long double was reported on: one finding a line
    std::set<std::string> printf_names_ = {"printf"};  // printf, and macros that expand to a call of it
    std::set<std::string> locals_;          // names declared in the device body being read (not __shared__)
    std::set<std::string> local_arrays_;    // those declared as arrays
    std::set<std::string> local_pointers_;  // pointers declared with a local's address
    int toolkit_line_ = 0;  // the last line a toolkit version macro was reported on

    bool tells(std::size_t i);
    static const std::string& why_tell();
    // long double, and the names preprocessor conditionals test.
    void number(const Token& token);
    void refuse_long_double(const Token& at, const std::string& what);
    std::vector<std::size_t> line_identifiers(std::size_t i) const;
    static bool refused_by_name(const std::string& name);
    void macro_directive(std::size_t i, const std::string& directive_name);
    // printf's value.
    std::size_t qualified_start(std::size_t i) const;
    bool begins_statement(std::size_t i, std::size_t body_start) const;
    std::size_t after_call(std::size_t i) const;
    std::size_t define_body(std::size_t hash) const;
    void collect_printf_macros();
    void printf_value(std::size_t i);
    // Overload sets of device functions.
    void collect_device_functions();
    bool is_directive_line(std::size_t k) const;
    // The address of a local variable.
    bool holds_local_address(std::size_t from, std::size_t to) const;
    std::size_t operand_end(std::size_t k) const;
    std::size_t operand_start(std::size_t k) const;
    void refuse_local_address(const Token& at, const std::string& what);
    bool ends_operand(std::size_t k) const;
    void local_address_use(std::size_t i);
    void local_declaration(std::size_t i);
    void local_address_cast(std::size_t i);
};

}  // namespace tilelab::grader::source_rules
