// H4's test stub of tilelab-report's entry point (the lead keeps H3's main.cpp): dispatches "class", "same"
// and "timings".
#include "subcommands.hpp"

#include <cstring>
#include <iostream>

int main(int argc, char** argv) {
    if (argc >= 2 && std::strcmp(argv[1], "class") == 0) return tilelab::report::class_main(argc - 2, argv + 2);
    if (argc >= 2 && std::strcmp(argv[1], "same") == 0) return tilelab::report::same_main(argc - 2, argv + 2);
    if (argc >= 2 && std::strcmp(argv[1], "timings") == 0) return tilelab::report::timings_main(argc - 2, argv + 2);
    std::cerr << "usage: tilelab-report class|same|timings ...\n";
    return 2;
}
