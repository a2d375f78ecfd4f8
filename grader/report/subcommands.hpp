/// @file subcommands.hpp
/// @brief The subcommands of tilelab-report (main.cpp dispatches on the first argument). Each takes the arguments
/// after its own name and returns the program's exit status.
#pragma once

namespace tilelab::report {

/// `grade`: one submission's records and the registry into the terminal's tables, results.json and summary.json
/// (grade_main.cpp). Exits 0 when no check failed, 1 when one did, 2 on bad arguments or unreadable inputs.
int grade_main(int argc, char** argv);

/// `labs`: the registry's lab ids, one per line, for shell scripts (grade_main.cpp).
int labs_main(int argc, char** argv);

/// `class`: a batch's summaries into grades.csv, timings.csv and class.html (class_report.hpp).
int class_main(int argc, char** argv);

/// `same`: two results.json compared check by check; 0 when the grades are equal (same_grades.hpp).
int same_main(int argc, char** argv);

/// `timings`: test-seconds per kind of check over a class's records (suite_times.hpp).
int timings_main(int argc, char** argv);

/// `prairielearn`: PrairieLearn's results.json from a grading's summary.json and log, or `--validate` one
/// (platforms_main.cpp, prairielearn.hpp). Exits 0 once written (or valid), 1 when invalid, 2 on bad arguments.
int prairielearn_main(int argc, char** argv);

/// `classroom`: GitHub Classroom's workflow for some labs, from the registry (classroom.hpp).
int classroom_main(int argc, char** argv);

/// `check`: one rubric check (or a whole lab) of a summary.json, exit 0 when it passed: a workflow test's command.
int check_main(int argc, char** argv);

}  // namespace tilelab::report
