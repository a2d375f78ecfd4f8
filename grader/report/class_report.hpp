// A batch's reports (tilelab-report class): each student's summary.json (or the note of a grading that wrote
// none) gathered into grades.csv, timings.csv and class.html, the class at a glance.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tilelab::report {

/// One performance gate of one submission, as the class page draws it.
struct GateSpeedup {
    std::string lab;       ///< the gate's lab id ("lab02")
    double speedup = 0;    ///< measured speedup over the gate's reference kernel
    std::string text;      ///< the speedup as the record wrote it ("2.19"), for the tables
    std::string required;  ///< the speedup the gate required, as written ("1.25"); "" where the record gave none
};

/// One student's line of grades.csv, and what timings.csv and the page need of that student.
struct StudentRow {
    std::string student;                  ///< the entry's name (folder or archive without its extension)
    std::string name, sid, email;         ///< who it is, from the platform's export (roster.hpp); "" where unknown
    std::vector<std::string> lab_points;  ///< points earned per registry lab, in registry order; "" where not graded
    std::vector<std::string> lab_possible;  ///< points possible per registry lab, as lab_points
    std::string total;                    ///< points earned in all; "" when grading gave no points
    std::string possible;                 ///< points possible; "" when grading gave no points
    std::string seconds;                  ///< wall-clock seconds the grading took; "" when unknown
    std::vector<std::string> lab_notes;   ///< one per lab that lost points: its first failed check and reason
    std::string notes;                    ///< lab_notes joined by "; ", or why it was not graded
    bool has_timings = false;             ///< whether the summary held timings (a timings.csv row)
    std::vector<std::string> timing_fields;  ///< wall, configure, prebuild seconds, then build, CPU, GPU test-seconds
    std::vector<GateSpeedup> gates;       ///< each performance gate, in the summary's order
};

/// How often a rubric check earned its points over the class.
struct CheckRate {
    std::string name;   ///< "lab02: tiles in shared memory"
    int attempted = 0;  ///< submissions where the check had points possible (graded, not excluded)
    int passed = 0;     ///< of those, submissions that earned all its points
    int stubs = 0;      ///< of those, submissions whose lab was the kit's stub as given (not counted as wrong)
};

/// Everything a batch's three reports are written from.
struct ClassBatch {
    std::vector<std::string> labs;  ///< the registry's lab ids, in order: grades.csv's point columns
    std::vector<StudentRow> rows;   ///< one per student, sorted by name
    std::vector<CheckRate> checks;  ///< in the order first met over the students
};

/// A field of grades.csv or timings.csv as RFC 4180 writes it: in double quotes (a quote doubled) when it holds a
/// comma, a quote or a line break, else as it is.
std::string csv_field(const std::string& text);

/// @p text cut to at most @p limit bytes at a space, "…" after the cut; as it is when it fits.
std::string cut_at_word(const std::string& text, std::size_t limit);

/// The most points possible of each lab of @p batch over its graded rows ("" where no row graded it): the grade
/// table's header.
std::vector<std::string> lab_maxima(const ClassBatch& batch);

/// A student's name: the entry's file name without its archive extension (.zip, .tar.gz, .tgz, .tar).
std::string student_name(const std::string& entry);

/// The grades.csv row of a submission graded to the end, from its summary.json (design schema 1).
StudentRow row_from_summary(const nlohmann::json& summary, const std::string& student,
                            const std::vector<std::string>& labs);

/// The row of a submission whose grading gave no points: empty point fields, and the note that says why.
StudentRow row_not_graded(const std::string& student, std::size_t lab_count, const std::string& seconds,
                          const std::string& note);

/// The notes of a graded submission, one per lab that lost points: its first failed check, "lab02 tiles in shared
/// memory 0/2: <reason>" (the reason cut at a word, 240 bytes at most); the labs whose files are the kit's stubs as
/// given share one note where the first of them would be, "lab02, lab03: left as the stub".
std::vector<std::string> failure_notes(const nlohmann::json& summary);

/// Adds a summary's checks to the class's pass rates (a failed check of a stub lab counted as a stub).
void count_checks(const nlohmann::json& summary, std::vector<CheckRate>& checks);

/// One student's row from its folder of a batch (reports/<student>): not-graded.json where grading wrote a note
/// instead (it wins: a grading stopped at its time limit), else summary.json, whose checks are added to @p checks
/// (none: not counted); none where the folder holds neither. A file that cannot be read gives a row that says so.
std::optional<StudentRow> read_student(const std::filesystem::path& folder, const std::vector<std::string>& labs,
                                       std::vector<CheckRate>* checks);

/// Reads a batch folder: reports/<student>/summary.json, or reports/<student>/not-graded.json where grading
/// wrote a note instead (it wins: a grading stopped at its time limit), and a "not graded" row for each entry
/// of `entries` with neither (naming the Slurm task where the batch ran on Slurm). Where `entries` lists the
/// class, only its students have rows (a report left from a student no longer in the class is not). Names, ids
/// and e-mails come from the roster in `out`/class.json, where there is one. A file that cannot be read is that
/// student's row and note, never the batch's failure.
ClassBatch read_batch(const std::filesystem::path& out, const std::vector<std::string>& labs,
                      const std::filesystem::path& entries);

/// grades.csv: student, name, sid, email, points per lab, total, possible, seconds, notes; fields quoted as
/// RFC 4180 quotes them (csv_field).
std::string grades_csv(const ClassBatch& batch);

/// timings.csv: each submission's seconds (wall, configure, labs built, test-seconds of build, CPU and GPU
/// checks) and its gates' speedups, "lab02=2.19/1.25" (the required speedup after the slash).
std::string timings_csv(const ClassBatch& batch);

/// The x of a speedup on the speedup chart's 0-4x axis: 120 px per 1x from 60, to the hundredth (truncated),
/// shared by the dots and the required marks so that a dot lies left of its mark exactly when it fell short.
int speedup_x(double speedup);

/// class.html: one self-contained page (inline CSS and SVG, no script): first the grade table (each lab's maximum
/// in its header, each student's name a link to its report, one note per lab that lost points), then the histogram
/// of totals, the pass rate per check (stubs apart from wrong answers; the checks graded nowhere in this batch in
/// one line) and the measured speedups with each lab's required speedup. `generated` is the time written on it.
std::string class_html(const ClassBatch& batch, const std::string& generated);

/// A student's points for a batch's progress line: "44/50 points", or "no points: <why>".
std::string points_text(const StudentRow& row);

/// `tilelab-report class --out <batch> --registry <labs.json> [--entries <file>] [--student <name>]`: writes
/// grades.csv, timings.csv and class.html into the batch folder; with --student, writes nothing and prints that
/// student's points ("44/50 points", or "no points: <why>") for the batch's progress line.
int class_main(int argc, char** argv);

}  // namespace tilelab::report
