// The subcommands of tilelab-report, each called with the arguments after its name.
#pragma once

namespace tilelab::report {

/// `tilelab-report class`: a batch's grades.csv, timings.csv and class.html (grader/report/class_report.hpp).
int class_main(int argc, char** argv);

/// `tilelab-report same`: two results.json compared check by check (grader/report/same_grades.hpp).
int same_main(int argc, char** argv);

/// `tilelab-report timings`: test-seconds per kind of check over a class (grader/report/suite_times.hpp).
int timings_main(int argc, char** argv);

}  // namespace tilelab::report
