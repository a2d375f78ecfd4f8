/// @file source_lexer.hpp
/// @brief Translation phases 1-3 of a lab's file, as far as the source check's rules need them (source_policy.cpp):
/// line splices removed, comments skipped, and the rest cut into tokens (identifiers, numbers, punctuators with
/// digraphs spelled as what they stand for, string and character literals, header names after `#include`), each
/// with its line as written. What cannot be read as the compilers read it is a finding.
#pragma once

#include "source_policy.hpp"

#include <string>
#include <vector>

namespace tilelab::grader::lexing {

/// What a token is.
enum class Kind { identifier, number, punctuator, string, header_name, other };

/// One token of a lab's file.
struct Token {
    Kind kind;         ///< What it is.
    std::string text;  ///< As written (a literal with its prefix and suffix, a header name with its brackets).
    int line;          ///< Line as written, for messages.
    int logical;       ///< Logical line (after splices), for what a directive spans.
    bool line_start;   ///< First token of a logical line (a `#` there starts a directive).
};

/// A lab's file as tokens, and what the lexer refused in it (findings without a file name).
struct Lexed {
    std::vector<Token> tokens;             ///< In order.
    std::vector<SourceFinding> findings;   ///< A universal character name outside a literal, a raw string cut short.
};

/// @p text (a whole file) as tokens.
Lexed lex(const std::string& text);

/// Whether @p c may start an identifier (letters, '_', '$' and any byte of a UTF-8 sequence).
bool is_identifier_start(char c);
/// Whether @p c may continue an identifier.
bool is_identifier_char(char c);

}  // namespace tilelab::grader::lexing
