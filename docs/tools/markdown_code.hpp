/// @file markdown_code.hpp
/// @brief The code a Markdown page shows: its inline code spans and fenced code blocks.
#pragma once

#include <string>
#include <vector>

namespace tilelab::docs {

/// One inline code span or fenced code block of a Markdown page.
struct CodeSpan {
    int line = 0;      ///< Line of the page where it starts (1-based).
    std::string text;  ///< What is between the backticks or fences, as written.
};

/// Every inline code span (`...`, ``...``) and fenced code block (``` or ~~~) of @p markdown, in order.
std::vector<CodeSpan> code_spans(const std::string& markdown);

}  // namespace tilelab::docs
