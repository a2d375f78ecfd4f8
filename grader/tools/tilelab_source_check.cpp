// tilelab-source-check: the build check's rules on what a lab's files may reach (grader/src/source_policy.hpp),
// on the files as the student wrote them, before anything compiles or rewrites them.
//   tilelab-source-check <submission folder> <lab file, relative to it>...
// Prints one line per broken rule, "<file>:<line>: <why>", and exits 1 when there is any; 0 otherwise. Run through
// tilelab-sandbox-compile, it reads the submission as the sandbox's user.
#include "source_policy.hpp"

#include <cstdio>
#include <exception>
#include <filesystem>

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: tilelab-source-check <submission folder> <lab file>...\n");
        return 2;
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
