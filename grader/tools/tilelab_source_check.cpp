// tilelab-source-check: the build check's rules on what a lab's files may reach (grader/tools/lib/source_policy.hpp),
// on the files as the student wrote them, before anything compiles or rewrites them.
//   tilelab-source-check <submission folder> <lab file, relative to it>...
// Prints one line per broken rule, "<file>:<line>: <why>", and exits 1 when there is any; 0 otherwise. Run through
// tilelab-sandbox-compile, it reads the submission as the sandbox's user.
//   tilelab-source-check --undefined-symbols <file holding nm -u's output on the lab's objects>
// The same rule on the system's functions, on what the compiler made (first_os_symbol): prints the first such
// function's name and exits 1; exits 0 when there is none.
#include "source_policy.hpp"

#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: tilelab-source-check <submission folder> <lab file>...\n");
        return 2;
    }
    if (std::strcmp(argv[1], "--undefined-symbols") == 0) {
        std::ifstream in(argv[2]);
        if (!in) {
            std::fprintf(stderr, "tilelab-source-check: cannot read %s\n", argv[2]);
            return 2;
        }
        const std::string symbols((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::string name = tilelab::grader::first_os_symbol(symbols);
        if (name.empty()) return 0;
        std::printf("%s\n", name.c_str());
        return 1;
    }
    try {
        int broken = 0;
        for (int i = 2; i < argc; ++i) {
            for (const auto& finding : tilelab::grader::check_lab_file(argv[1], argv[i])) {
                if (finding.line > 0)
                    std::printf("source check: %s, line %d: %s\n", finding.file.c_str(), finding.line, finding.message.c_str());
                else
                    std::printf("source check: %s %s\n", finding.file.c_str(), finding.message.c_str());
                ++broken;
            }
        }
        return broken == 0 ? 0 : 1;
    } catch (const std::exception& error) {
        std::printf("source check: %s\n", error.what());
        return 1;
    }
}
