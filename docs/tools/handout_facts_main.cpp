// tilelab-handout-facts: the handouts' facts from the lab registry (handout_facts.hpp), in every language.
//   tilelab-handout-facts --root <kit sources> --tests <ctest --show-only=json-v1 file> [--update] [<handout>...]
// Without handouts named: every lab's handout, labs/*/README.md, and its translations, docs/i18n/*/labs/*/README.md.
// Checks that each marked span states its fact, and fails naming each that does not (the handout, its line, what it
// says, what the registry's tests give); --update rewrites the spans instead. A fact of a backend the build does not
// have (the GPU's, configured without nvcc) is not checked, and said so.
#include "handout_facts.hpp"

#include "records.hpp"
#include "registry.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace {

/// The whole of @p path; throws where it cannot be read.
std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Every lab's handout and its translations, sorted.
std::vector<fs::path> all_handouts(const fs::path& root) {
    std::vector<fs::path> handouts;
    const auto add_labs = [&](const fs::path& labs) {
        if (!fs::is_directory(labs)) return;
        for (const auto& lab : fs::directory_iterator(labs))
            if (fs::exists(lab.path() / "README.md")) handouts.push_back(lab.path() / "README.md");
    };
    add_labs(root / "labs");
    if (fs::is_directory(root / "docs" / "i18n"))
        for (const auto& language : fs::directory_iterator(root / "docs" / "i18n")) add_labs(language.path() / "labs");
    std::sort(handouts.begin(), handouts.end());
    return handouts;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        fs::path root, tests;
        bool update = false;
        std::vector<fs::path> handouts;
        for (int i = 1; i < argc; ++i) {
            const std::string arg = argv[i];
            if (arg == "--update") update = true;
            else if ((arg == "--root" || arg == "--tests") && i + 1 < argc) (arg == "--root" ? root : tests) = argv[++i];
            else if (arg.rfind("--", 0) == 0) throw std::runtime_error("unknown option or missing value: " + arg);
            else handouts.emplace_back(arg);
        }
        if (root.empty() || tests.empty())
            throw std::runtime_error("usage: tilelab-handout-facts --root <kit sources> --tests <ctest json-v1> [--update] [<handout>...]");
        const auto registry = tilelab::report::load_registry((root / "grader" / "labs.json").string());
        const auto facts =
            tilelab::docs::count_facts(registry, tilelab::report::read_test_list(tilelab::report::load_json(tests.string())));
        if (handouts.empty()) handouts = all_handouts(root);
        int wrong = 0, spans = 0;
        std::set<std::string> unchecked;
        for (const auto& handout : handouts) {
            const std::string text = read_text(handout);
            for (const auto& span : tilelab::docs::fact_spans(text)) {
                ++spans;
                const auto fact = facts.find(span.name);
                if (fact == facts.end()) {
                    unchecked.insert(span.name);
                    continue;
                }
                if (span.stated == std::to_string(fact->second)) continue;
                ++wrong;
                std::cout << handout.string() << ":" << span.line << ": " << span.name << " is " << span.stated
                          << " here, but the registry's tests give " << fact->second << "\n";
            }
            if (update) {
                const std::string updated = tilelab::docs::with_facts(text, facts);
                if (updated != text) std::ofstream(handout, std::ios::binary) << updated;
            }
        }
        for (const auto& name : unchecked)
            std::cout << "not checked: " << name << " (this build has no test it counts: a backend not configured, "
                                                   "or no such fact)\n";
        if (spans == 0) throw std::runtime_error("no marked fact in the handouts (<!-- fact: <name> -->...<!-- /fact -->)");
        std::cout << spans << " facts in " << handouts.size() << " handouts, " << wrong
                  << (update ? " rewritten" : " wrong") << "\n";
        return update || wrong == 0 ? 0 : 1;
    } catch (const std::exception& error) {
        std::cerr << "tilelab-handout-facts: " << error.what() << "\n";
        return 2;
    }
}
