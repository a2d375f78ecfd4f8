// Stand-ins for H4's class_report.cpp and same_grades.cpp until the branches are merged (the lead deletes this file).
#include "subcommands.hpp"

#include <iostream>

/// Not written yet in this branch.
int class_main(int, char**) {
    std::cerr << "tilelab-report class: not in this build\n";
    return 2;
}

/// Not written yet in this branch.
int same_main(int, char**) {
    std::cerr << "tilelab-report same: not in this build\n";
    return 2;
}
