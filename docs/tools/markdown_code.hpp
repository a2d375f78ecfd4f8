/// @file markdown_code.hpp
/// @brief The code a Markdown page shows: its inline code spans and fenced code blocks.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tilelab::docs {

/// One inline code span or fenced code block of a Markdown page.
struct CodeSpan {
    int line = 0;      ///< Line of the page where it starts (1-based).
    std::string text;  ///< What is between the backticks or fences, as written.
};

/// One inline code span found by inline_code(): where it stands in the scanned text and what it holds.
struct InlineCode {
    std::size_t begin = 0;  ///< Offset of its opening backticks (or <code>).
    std::size_t end = 0;    ///< Offset just past its closing backticks (or </code>).
    std::string text;       ///< What is between them, as written.
};

/// The inline code spans of @p text, in order: `code`, ``code`` (the closing run exactly as long as the opening
/// one) and <code>code</code> (which HTML blocks such as <details> use). A backtick run or <code> left open is
/// plain text. The text may hold line breaks (a paragraph): a span may go on over them.
std::vector<InlineCode> inline_code(const std::string& text);

/// The fence (``` or ~~~, three or more, indented at most three spaces) that opens a code block on @p line, or "".
std::string opening_fence(const std::string& line);

/// True when @p line closes the code block that @p fence opened.
bool closes_fence(const std::string& line, const std::string& fence);

/// Every inline code span (`...`, ``...``) and fenced code block (``` or ~~~) of @p markdown, in order.
std::vector<CodeSpan> code_spans(const std::string& markdown);

/// The whole text of the file at @p path ("" when it cannot be read).
std::string read_text(const std::string& path);

}  // namespace tilelab::docs
