/// @file markdown_outline.hpp
/// @brief What a translation of a Markdown page keeps from its English page: everything that is not prose.
#pragma once

#include <string>
#include <vector>

namespace tilelab::docs {

/// One part of a page that a translation keeps as it is, and the line of the page where it starts (1-based).
struct Kept {
    int line = 0;
    std::string text;
};

/// The parts of a Markdown page that are not prose. A translation translates the prose around them and keeps each
/// of them: in the same order where the order is the page's structure, in any order where a sentence may move it.
struct Outline {
    std::vector<Kept> headings;      ///< "level 2" or "level 2 {#anchor}", in order
    std::vector<Kept> code_blocks;   ///< each fenced block, fences (and language tag) included, in order
    std::vector<Kept> code_spans;    ///< inline code (`...`, <code>...</code>), in any order
    std::vector<Kept> images;        ///< the path of each image, in order
    std::vector<Kept> links;         ///< link targets (Markdown links and images, href and src), in any order
    std::vector<Kept> site_markers;  ///< "<!-- site: ... -->" comments, in order
    std::vector<Kept> commands;      ///< Doxygen commands and their target ("@ref labs", "\htmlonly"), in any order
    std::vector<Kept> formulas;      ///< $...$ and $$...$$ (outside code), in any order
    std::vector<Kept> tables;        ///< "N rows, C columns" of each table, in order
    std::vector<Kept> html_tags;     ///< HTML tags ("<details>", "</summary>"), without attributes, in order
};

/// The outline of the Markdown page @p markdown.
Outline outline(const std::string& markdown);

/// How @p translation's outline differs from @p english's, one sentence per difference (empty: it keeps them all).
std::vector<std::string> differences(const Outline& english, const Outline& translation);

}  // namespace tilelab::docs
