// tilelab-translation-parity <English root> <translations root> <language> <page>...
// Fails when a translated page (<translations root>/<page>) is missing, is the English page copied, or does not
// keep what its English page (<English root>/<page>) has besides prose: the headings (how many, their levels, their
// {#anchors}), every fenced code block byte for byte, the inline code, the figures, the link targets, the
// "<!-- site: ... -->" markers, the Doxygen commands (@ref, @subpage), the formulas, the tables' shapes and the HTML
// tags. English is the source: when its code changes, this fails until every translation follows.
#include "markdown_code.hpp"
#include "markdown_outline.hpp"

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;

int main(int argc, char** argv) {
    if (argc < 5) {
        std::fprintf(stderr, "usage: %s <English root> <translations root> <language> <page>...\n", argv[0]);
        return 2;
    }
    const fs::path english_root = argv[1];
    const fs::path translations_root = argv[2];
    const std::string language = argv[3];
    int problems = 0;
    int pages_with_problems = 0;
    const int pages = argc - 4;
    for (int i = 4; i < argc; ++i) {
        const std::string page = argv[i];
        const fs::path english = english_root / page;
        const fs::path translation = translations_root / page;
        const std::string where = language + ": " + translation.string() + " (translates " + page + "): ";
        if (!fs::is_regular_file(english)) {
            std::printf("error: there is no English page %s\n", english.string().c_str());
            return 2;
        }
        std::vector<std::string> found;
        if (!fs::is_regular_file(translation)) {
            found.push_back("missing: every translated page exists in every language");
        } else {
            const std::string english_text = tilelab::docs::read_text(english);
            const std::string translated_text = tilelab::docs::read_text(translation);
            if (english_text == translated_text)
                found.push_back("it is the English page, not a translation");
            else
                found = tilelab::docs::differences(tilelab::docs::outline(english_text),
                                                   tilelab::docs::outline(translated_text));
        }
        for (const std::string& problem : found) std::printf("FAIL %s%s\n", where.c_str(), problem.c_str());
        problems += static_cast<int>(found.size());
        pages_with_problems += found.empty() ? 0 : 1;
    }
    if (problems == 0) {
        std::printf("%s: %d translated pages keep their English pages' headings, code, links, figures, markers, "
                    "commands and formulas\n",
                    language.c_str(), pages);
        return 0;
    }
    std::printf("%s: %d differences in %d of %d pages. English is the source: translate the prose and keep the rest "
                "as the English page has it (docs/i18n/README.md).\n",
                language.c_str(), problems, pages_with_problems, pages);
    return 1;
}
