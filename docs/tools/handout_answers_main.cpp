// tilelab-handout-answers <handout.md> <solution folder> <stub folder>
// Fails when a code span or code block of a lab's handout contains a statement or a complete expression of the
// lab's model solution (see answer_fragments()): a handout explains what to compute and why, and leaves the
// code to the student. Code the stub already gives (the launcher's block, its signature) is not an answer.
#include "code_text.hpp"
#include "markdown_code.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

/// The normalized text of every source file in @p folder (sorted, so messages are stable).
std::vector<std::pair<fs::path, std::string>> sources(const fs::path& folder) {
    std::vector<std::pair<fs::path, std::string>> out;
    if (!fs::is_directory(folder)) return out;
    for (const auto& entry : fs::directory_iterator(folder)) {
        const std::string ext = entry.path().extension().string();
        if (ext == ".cu" || ext == ".cuh" || ext == ".cpp" || ext == ".hpp" || ext == ".h")
            out.emplace_back(entry.path(), tilelab::docs::normalize_code(tilelab::docs::read_text(entry.path())));
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s <handout.md> <solution folder> <stub folder>\n", argv[0]);
        return 2;
    }
    const fs::path handout = argv[1];
    const auto solutions = sources(argv[2]);
    const auto stubs = sources(argv[3]);
    if (!fs::is_regular_file(handout) || solutions.empty()) {
        std::printf("error: no handout %s or no solution sources in %s\n", argv[1], argv[2]);
        return 2;
    }
    // The answers: fragments of the solution that the stub does not already show.
    std::vector<std::pair<std::string, fs::path>> answers;
    for (const auto& [path, code] : solutions) {
        for (const std::string& fragment : tilelab::docs::answer_fragments(code)) {
            const bool given = std::any_of(stubs.begin(), stubs.end(), [&](const auto& stub) {
                return tilelab::docs::contains_fragment(stub.second, fragment);
            });
            if (!given) answers.emplace_back(fragment, path);
        }
    }
    const auto spans = tilelab::docs::code_spans(tilelab::docs::read_text(handout));
    int leaks = 0;
    for (const tilelab::docs::CodeSpan& span : spans) {
        const std::string code = tilelab::docs::normalize_code(span.text);
        for (const auto& [fragment, path] : answers) {
            if (!tilelab::docs::contains_fragment(code, fragment)) continue;
            std::string shown = span.text.substr(0, span.text.find('\n'));
            std::printf("%s:%d: the code `%s` gives away `%s` from %s\n", handout.string().c_str(), span.line,
                        shown.c_str(), fragment.c_str(), path.filename().string().c_str());
            ++leaks;
            break;  // one report per span
        }
    }
    if (leaks > 0) {
        std::printf("%d code spans of %s contain the solution's code: say what to compute and why, and leave the "
                    "code to the student (hints in words, or with other names and numbers)\n",
                    leaks, handout.filename().string().c_str());
        return 1;
    }
    std::printf("%s: %zu code spans, none contains any of the %zu statements and expressions of the solution\n",
                handout.string().c_str(), spans.size(), answers.size());
    return 0;
}
