// A batch's reports (grader/report/class_report.hpp) on a fixed batch folder (fixtures/summaries: two graded
// students, one stopped at its time limit, one whose Slurm task never ran).
#include "class_report.hpp"
#include "temp_folder.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>
#include <string>

namespace {

using tilelab::report::ClassBatch;
using tilelab::unit::TempFolder;

const std::vector<std::string> fixture_labs = {"lab01", "lab02", "lab03", "lab04"};
const std::string folder = std::string(TILELAB_UNIT_FIXTURES) + "/summaries";

ClassBatch fixture_batch() { return tilelab::report::read_batch(folder, fixture_labs, folder + "/entries.txt"); }

int count(const std::string& text, const std::string& what) {
    int n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_SUITE("class_report") {
    TEST_CASE("grades.csv: a row per student, graded or not, named from the roster, one note per lab, quoted") {
        const std::string csv = tilelab::report::grades_csv(fixture_batch());
        CHECK(csv ==
              "student,name,sid,email,lab01,lab02,lab03,lab04,total,possible,seconds,notes\n"
              "ana,\"Ruiz, Ana\",123,ana@example.edu,10,15,15,9,49,49,41,\n"
              "ben,,,,10,9,4,9,32,49,44,\"lab02 tiles in shared memory 0/2: graded.lab02.tw16.shared-memory: the kernel "
              "reads A and B from global memory only; lab03: left as the stub; lab04 "
              "returns the kernel's time 0/1: a <script> in a note, \"\"quoted\"\", stays text\"\n"
              "chloe,,,,,,,,,,,not graded: its Slurm task 2 failed or was cancelled before grading it (see "
              "slurm/task-2.out)\n"
              "dan,,,,,,,,,,900,ran out of its 900 s\n");
    }

    TEST_CASE("an entry with no report says why: killed, or (on Slurm) which task") {
        const ClassBatch batch = tilelab::report::read_batch(folder, fixture_labs, folder + "/no-such-entries.txt");
        CHECK(batch.rows.size() == 3);  // no entries list: only the reports found
        const auto row = tilelab::report::row_not_graded("x", 2, "", "a, b\nc");
        CHECK(tilelab::report::grades_csv({{"lab01", "lab02"}, {row}, {}}).find("x,,,,,,,,,\"a, b c\"\n") !=
              std::string::npos);
    }

    TEST_CASE("a report of a student no longer in the class's entries has no row") {
        TempFolder temp;
        const std::string listed = (temp.path / "entries.txt").string();
        std::ofstream(listed) << "/class/ana\n";
        const ClassBatch batch = tilelab::report::read_batch(folder, fixture_labs, listed);
        REQUIRE(batch.rows.size() == 1);
        CHECK(batch.rows[0].student == "ana");
        CHECK(batch.rows[0].name == "Ruiz, Ana");
    }

    TEST_CASE("one note per lab that lost points; the labs left as stubs share one") {
        const nlohmann::json summary = nlohmann::json::parse(R"({"labs": [{"id": "lab01", "stub": true},
            {"id": "lab02"}, {"id": "lab03", "stub": true}], "checks": [
            {"lab": "lab01", "name": "a", "earned": 0, "max": 1, "state": "failed", "reason": "r1"},
            {"lab": "lab02", "name": "b", "earned": 0, "max": 2, "state": "failed", "reason": "first"},
            {"lab": "lab02", "name": "c", "earned": 0, "max": 2, "state": "failed", "reason": "second"},
            {"lab": "lab03", "name": "d", "earned": 0, "max": 1, "state": "failed", "reason": "r3"}]})");
        CHECK(tilelab::report::failure_notes(summary) ==
              std::vector<std::string>{"lab01, lab03: left as the stub", "lab02 b 0/2: first"});
    }

    TEST_CASE("csv fields and notes: quoted as RFC 4180 quotes them, cut at a word") {
        CHECK(tilelab::report::csv_field("plain text") == "plain text");
        CHECK(tilelab::report::csv_field("a, b") == "\"a, b\"");
        CHECK(tilelab::report::csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
        CHECK(tilelab::report::csv_field("two\nlines") == "\"two\nlines\"");
        CHECK(tilelab::report::cut_at_word("short", 10) == "short");
        CHECK(tilelab::report::cut_at_word("the lab does not compile", 16) == "the lab does\xE2\x80\xA6");
        // A word longer than half the limit is cut inside it, never inside a character.
        CHECK(tilelab::report::cut_at_word("x \xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", 9) == "x \xC3\xA9\xC3\xA9\xE2\x80\xA6");
        CHECK(tilelab::report::cut_at_word("x \xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", 8) == "x \xC3\xA9\xE2\x80\xA6");
    }

    TEST_CASE("one student's row read alone is the row the class reads for it; no report, no row") {
        for (const auto& row : fixture_batch().rows) {
            const auto alone = tilelab::report::read_student(folder + "/reports/" + row.student, fixture_labs, nullptr);
            if (row.student == "chloe") {  // its Slurm task never ran: the class's row comes from entries.txt
                CHECK_FALSE(alone.has_value());
                continue;
            }
            REQUIRE(alone.has_value());
            CHECK(tilelab::report::points_text(*alone) == tilelab::report::points_text(row));
            CHECK(alone->notes == row.notes);
        }
    }

    TEST_CASE("student names: the archive extension goes") {
        CHECK(tilelab::report::student_name("/class/ben.tar.gz") == "ben");
        CHECK(tilelab::report::student_name("/class/chloe.zip") == "chloe");
        CHECK(tilelab::report::student_name("c/dan.tgz") == "dan");
        CHECK(tilelab::report::student_name("c/eve.tar") == "eve");
        CHECK(tilelab::report::student_name("c/fay") == "fay");
    }

    TEST_CASE("timings.csv: seconds per step, test-seconds to a tenth, each gate's speedup and requirement") {
        CHECK(tilelab::report::timings_csv(fixture_batch()) ==
              "student,wall_seconds,configure_seconds,prebuild_seconds,test_seconds_build,test_seconds_cpu,"
              "test_seconds_gpu,speedups\n"
              "ana,41,3,12,2.1,9.5,30.2,lab02=2.19/1.25 lab03=2.05/1.15\n"
              "ben,44,3,12,2.0,9.1,29.7,lab02=1.01/1.25 lab03=2.12/1.15\n");
    }

    TEST_CASE("the speedup axis: 120 px per 1x from 60, truncated to the hundredth") {
        CHECK(tilelab::report::speedup_x(1.01) == 181);
        CHECK(tilelab::report::speedup_x(1.15) == 198);
        CHECK(tilelab::report::speedup_x(1.25) == 210);
        CHECK(tilelab::report::speedup_x(2.199) == 322);
        CHECK(tilelab::report::speedup_x(0) == 60);
    }

    TEST_CASE("class.html: the grade table first, then the histogram, pass rates and speedups") {
        const std::string page = tilelab::report::class_html(fixture_batch(), "2026-01-01 00:00");
        CHECK(page.find("4 submissions, 2 with a total; written 2026-01-01 00:00") != std::string::npos);
        // The grades come first, each lab's maximum in its header, each student's name a link to its report.
        const auto grades = page.find("<table><tr><th>student</th>");
        REQUIRE(grades != std::string::npos);
        CHECK(grades < page.find("<h2>Totals</h2>"));
        CHECK(page.find("<th>lab02<br><span class=\"max\">of 15</span></th>") != std::string::npos);
        CHECK(page.find("<a href=\"reports/ana/report.txt\">Ruiz, Ana</a><br><span class=\"id\">ana</span>") !=
              std::string::npos);
        CHECK(page.find("<a href=\"reports/ben/report.txt\">ben</a></td>") != std::string::npos);
        // One note per lab that lost points, each on its own line; a stub is said to be one.
        CHECK(page.find("only<br>lab03: left as the stub") != std::string::npos);
        CHECK(count(page, "graded.lab02.tw16.perf") == 0);  // lab02's second failure: one note per lab
        // Pass rates: passed, wrong and stub apart; the checks graded nowhere in one line, not a row each.
        CHECK(page.find("lab02: tiles in shared memory</td><td class=\"n\">50%") != std::string::npos);
        CHECK(page.find("lab01: builds at every tile width</td><td class=\"n\">100%") != std::string::npos);
        CHECK(std::regex_search(page, std::regex("lab03: 1x1x1 and the tile edges</td><td class=\"n\">0%</td>.*?"
                                                 "</td><td class=\"n\">0</td><td class=\"n\">1</td>")));
        CHECK(std::regex_search(page, std::regex("Not graded in this batch[^<]*lab03: clean under compute-sanitizer")));
        CHECK(page.find("<td>lab03: clean under compute-sanitizer") == std::string::npos);
        CHECK(count(page, "<rect x=\"4") + count(page, "<rect x=\"5") + count(page, "<rect x=\"1") +
                  count(page, "<rect x=\"2") + count(page, "<rect x=\"3") >= 10);  // the histogram's ten bins
        // ana 100% and ben 65%: one in 90-100%, one in 60-69%; each bar labelled with its range.
        CHECK(page.find("<title>90-100%: 1</title>") != std::string::npos);
        CHECK(page.find("<title>60-69%: 1</title>") != std::string::npos);
        CHECK(page.find(">90-100</text>") != std::string::npos);
        CHECK(page.find(">0-9</text>") != std::string::npos);
        CHECK(count(page, "<circle ") == 4);  // one dot per gate: 2 students x 2 labs
        CHECK(page.find("<circle cx=\"181\" cy=\"60\"") != std::string::npos);  // ben's lab02 at 1.01x, row 2
        // Each lab's own requirement, a dashed mark on its row: lab02 at 1.25x, lab03 at 1.15x.
        CHECK(page.find("<line x1=\"210\" y1=\"48\" x2=\"210\" y2=\"72\"") != std::string::npos);
        CHECK(page.find("<line x1=\"198\" y1=\"78\" x2=\"198\" y2=\"102\"") != std::string::npos);
        CHECK(page.find("lab03 required: 1.15x") != std::string::npos);
        CHECK(page.find("lab03=2.05x (required 1.15x)") != std::string::npos);
        CHECK(page.find("a &lt;script&gt; in a note, &quot;quoted&quot;") != std::string::npos);
        CHECK(page.find("<script>") == std::string::npos);
        CHECK(std::regex_search(page, std::regex("chloe</a></td>.*Slurm task 2 failed")));
        CHECK(page.find("<td class=\"n bad\"></td>") != std::string::npos);  // no total: marked
        CHECK(count(page, "<svg") == 7);  // histogram, five pass-rate bars (checks graded somewhere), the speedups
    }

    TEST_CASE("class.html without a gate measured says so, and a low total is marked") {
        auto row = tilelab::report::row_not_graded("low", 1, "3", "");
        row.total = "1";
        row.possible = "10";
        const std::string page = tilelab::report::class_html({{"lab01"}, {row}, {}}, "now");
        CHECK(page.find("<p>None: the performance gates run on a GPU") != std::string::npos);
        CHECK(page.find("<td class=\"n low\">1</td>") != std::string::npos);
        CHECK(count(page, "<circle ") == 0);
    }

    TEST_CASE("an unreadable summary is that student's note, not the batch's failure") {
        const nlohmann::json summary = nlohmann::json::parse(R"({"labs": [], "checks": [{"lab": "lab01"}]})");
        const auto row = tilelab::report::row_from_summary(summary, "odd", fixture_labs);
        CHECK(row.total.empty());
        CHECK(row.lab_points.size() == 4);
        CHECK_FALSE(row.has_timings);
    }

    TEST_CASE("a lab's ladder is its top rung's race in the class's speedups; a gate without rungs counts as before") {
        const nlohmann::json summary = nlohmann::json::parse(R"({"summary": 1, "earned": 5, "possible": 7, "labs": [],
            "checks": [], "gates": [
              {"lab": "lab09", "test": "graded.lab09.tw16.perf-rung1", "speedup": 1.98, "required": 1.0, "rung": 1, "rungs": 3},
              {"lab": "lab09", "test": "graded.lab09.tw16.perf-rung2", "speedup": 1.25, "required": 1.0, "rung": 2, "rungs": 3},
              {"lab": "lab09", "test": "graded.lab09.tw16.perf", "speedup": 1.0, "required": 1.14, "rung": 3, "rungs": 3},
              {"lab": "lab02", "test": "graded.lab02.tw16.perf", "speedup": 2.19, "required": 1.3}]})");
        const auto row = tilelab::report::row_from_summary(summary, "alice", {"lab02", "lab09"});
        REQUIRE(row.gates.size() == 2);
        CHECK(row.gates[0].lab == "lab09");
        CHECK(row.gates[0].speedup == doctest::Approx(1.0));  // the top rung's, against the previous lab's model
        CHECK(row.gates[1].lab == "lab02");
    }
}
