// tilelab-report: every report of a grading from one program (records and grader/labs.json in; tables,
// results.json, summary.json, a class's files out). Only the dispatch lives here.
#include "subcommands.hpp"

#include <cstring>
#include <iostream>

namespace {

/// What to type, for a command line that names no known subcommand.
int usage() {
    std::cerr << "usage: tilelab-report grade --build <dir> --registry <labs.json> --tests <ctest json-v1 file>\n"
                 "                            --results <results.json> --summary <summary.json> [--submission <name>]\n"
                 "                            [--labs <id>,<id>...] [--note <text>]...\n"
                 "                            [--timing configure|prebuild|wall=<seconds>]... [--output brief|full]\n"
                 "       tilelab-report labs --registry <labs.json>\n"
                 "       tilelab-report class --out <batch folder> --registry <labs.json> [--entries <file>]\n"
                 "       tilelab-report same <a/results.json> <b/results.json>\n"
                 "       tilelab-report timings <verdicts folder>...\n"
                 "       tilelab-report prairielearn --summary <summary.json> --out <results.json> [--log <file>]\n"
                 "                                   [--status <grade.cmake's>] [--time-limit <s>] [--labs <list>]\n"
                 "                                   [--partial <summary.json>] [--no-grade <no-grade.txt>]\n"
                 "       tilelab-report prairielearn --validate <results.json>\n"
                 "       tilelab-report classroom --registry <labs.json> [--labs <list>]\n"
                 "       tilelab-report check --summary <summary.json> --lab <id> [--registry <labs.json> --check <n>]\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace tilelab::report;
    if (argc < 2) return usage();
    const char* command = argv[1];
    // grade, labs and the platforms' subcommands read their own name as argv[0]; the others take the arguments after it.
    if (std::strcmp(command, "grade") == 0) return grade_main(argc - 1, argv + 1);
    if (std::strcmp(command, "labs") == 0) return labs_main(argc - 1, argv + 1);
    if (std::strcmp(command, "class") == 0) return class_main(argc - 2, argv + 2);
    if (std::strcmp(command, "same") == 0) return same_main(argc - 2, argv + 2);
    if (std::strcmp(command, "prairielearn") == 0) return prairielearn_main(argc - 1, argv + 1);
    if (std::strcmp(command, "classroom") == 0) return classroom_main(argc - 1, argv + 1);
    if (std::strcmp(command, "check") == 0) return check_main(argc - 1, argv + 1);
    if (std::strcmp(command, "timings") == 0) return timings_main(argc - 2, argv + 2);
    return usage();
}
