// tilelab-report class: a batch's grades.csv, timings.csv and class.html from its students' summary.json.
#include "class_report.hpp"
#include "registry.hpp"
#include "roster.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

namespace tilelab::report {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A JSON value as the record wrote it: numbers in their shortest exact form (2.19, not 2.18999...), strings as
// they are, anything else (absent, null) as "".
std::string text_of(const json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_number()) return value.dump();
    return "";
}

std::string field_text(const json& object, const char* key) {
    return object.is_object() && object.contains(key) ? text_of(object.at(key)) : "";
}

// Test-seconds to one decimal, as timings.csv has always written them.
std::string one_decimal(const json& object, const char* key) {
    double seconds = 0;
    if (object.is_object() && object.contains(key) && object.at(key).is_number()) seconds = object.at(key).get<double>();
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", seconds);
    return text;
}

std::string html_escape(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

// A path's parts percent-encoded for an href (a student's folder name may hold a space, '#' or '?').
std::string url_path(const std::string& path) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (char c : path) {
        const auto byte = static_cast<unsigned char>(c);
        if (std::isalnum(byte) || c == '-' || c == '_' || c == '.' || c == '~' || c == '/') {
            out += c;
        } else {
            out += '%';
            out += hex[byte >> 4];
            out += hex[byte & 15];
        }
    }
    return out;
}

// Runs of spaces, tabs and line breaks as one space: a padded table's, or a reason's line breaks, say nothing here.
std::string one_line(const std::string& text) {
    std::string out;
    for (char c : text) {
        const char shown = c == '\n' || c == '\r' || c == '\t' ? ' ' : c;
        if (shown == ' ' && (out.empty() || out.back() == ' ')) continue;
        out += shown;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

json read_json(const fs::path& file) {
    std::ifstream in(file);
    if (!in) throw std::runtime_error("cannot open " + file.string());
    return json::parse(in);
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? separator : "") + parts[i];
    return out;
}

// "lab02=2.19/1.25 lab03=2.05": the gates as timings.csv's last column.
std::string speedups_field(const StudentRow& row) {
    std::vector<std::string> pairs;
    for (const GateSpeedup& gate : row.gates) {
        pairs.push_back(gate.lab + "=" + gate.text + (gate.required.empty() ? "" : "/" + gate.required));
    }
    return join(pairs, " ");
}

// Where the batch ran on Slurm, the task that held a submission: entries are dealt to tasks in chunks, in order.
std::string missing_reason(const fs::path& out, std::size_t index) {
    int chunk = 0;
    std::ifstream chunk_file(out / "slurm" / "chunk");
    if (fs::exists(out / "slurm" / "job-id") && (chunk_file >> chunk) && chunk > 0) {
        const std::string task = std::to_string(index / static_cast<std::size_t>(chunk));
        return "its Slurm task " + task + " failed or was cancelled before grading it (see slurm/task-" + task + ".out)";
    }
    return "its grading ended before it wrote a row (killed?)";
}

}  // namespace

std::string student_name(const std::string& entry) {
    std::string name = fs::path(entry).filename().string();
    if (name.empty()) name = fs::path(entry).parent_path().filename().string();  // "alice/"
    for (const char* extension : {".zip", ".tar.gz", ".tgz", ".tar"}) {
        const std::size_t length = std::strlen(extension);
        if (name.size() > length && name.compare(name.size() - length, length, extension) == 0) {
            name.erase(name.size() - length);
        }
    }
    return name;
}

std::vector<std::string> failure_notes(const json& summary) {
    std::vector<std::string> notes, labs_seen, stubs, failed_stubs;
    std::size_t stub_note = std::string::npos;  // where the stubs' one note goes: at the first of them
    for (const json& lab : summary.value("labs", json::array()))
        if (lab.is_object() && lab.value("stub", false)) stubs.push_back(field_text(lab, "id"));
    for (const json& check : summary.value("checks", json::array())) {
        if (check.value("state", "") != "failed") continue;
        const std::string lab = field_text(check, "lab");
        if (std::find(labs_seen.begin(), labs_seen.end(), lab) != labs_seen.end()) continue;  // one per lab
        labs_seen.push_back(lab);
        if (std::find(stubs.begin(), stubs.end(), lab) != stubs.end()) {
            // The labs left as the kit's stubs share one note: nine copies of it would say nothing more.
            if (stub_note == std::string::npos) {
                stub_note = notes.size();
                notes.emplace_back();
            }
            failed_stubs.push_back(lab);
            notes[stub_note] = join(failed_stubs, ", ") + ": left as the stub";
            continue;
        }
        notes.push_back(cut_at_word(one_line(lab + " " + field_text(check, "name") + " " + field_text(check, "earned") +
                                             "/" + field_text(check, "max") + ": " + field_text(check, "reason")),
                                    240));
    }
    return notes;
}

StudentRow row_from_summary(const json& summary, const std::string& student, const std::vector<std::string>& labs) {
    StudentRow row;
    row.student = student;
    for (const std::string& lab : labs) {
        std::string points;
        for (const json& entry : summary.value("labs", json::array())) {
            if (field_text(entry, "id") == lab) points = field_text(entry, "earned");
        }
        row.lab_points.push_back(points);
    }
    for (const std::string& lab : labs) {
        std::string possible;
        for (const json& entry : summary.value("labs", json::array())) {
            if (field_text(entry, "id") == lab) possible = field_text(entry, "possible");
        }
        row.lab_possible.push_back(possible);
    }
    row.total = field_text(summary, "earned");
    row.possible = field_text(summary, "possible");
    row.lab_notes = failure_notes(summary);
    row.notes = join(row.lab_notes, "; ");
    if (summary.contains("timings") && summary.at("timings").is_object()) {
        const json& timings = summary.at("timings");
        row.has_timings = true;
        row.seconds = field_text(timings, "wall_seconds");
        row.timing_fields = {row.seconds, field_text(timings, "configure_seconds"),
                             field_text(timings, "prebuild_seconds"), one_decimal(timings, "test_seconds_build"),
                             one_decimal(timings, "test_seconds_cpu"), one_decimal(timings, "test_seconds_gpu")};
    }
    for (const json& gate : summary.value("gates", json::array())) {
        if (!gate.is_object() || !gate.contains("speedup") || !gate.at("speedup").is_number()) continue;
        // A lab's ladder: its top rung's race is the lab's gate in the class's chart (each race has its own reference).
        if (gate.contains("rung") && gate.contains("rungs") && gate.at("rung") != gate.at("rungs")) continue;
        row.gates.push_back({field_text(gate, "lab"), gate.at("speedup").get<double>(), field_text(gate, "speedup"),
                             field_text(gate, "required")});
    }
    return row;
}

StudentRow row_not_graded(const std::string& student, std::size_t lab_count, const std::string& seconds,
                          const std::string& note) {
    StudentRow row;
    row.student = student;
    row.lab_points.assign(lab_count, "");
    row.lab_possible.assign(lab_count, "");
    row.seconds = seconds;
    row.notes = one_line(note);
    return row;
}

void count_checks(const json& summary, std::vector<CheckRate>& checks) {
    std::vector<std::string> stubs;
    for (const json& lab : summary.value("labs", json::array()))
        if (lab.is_object() && lab.value("stub", false)) stubs.push_back(field_text(lab, "id"));
    for (const json& check : summary.value("checks", json::array())) {
        const std::string name = field_text(check, "lab") + ": " + field_text(check, "name");
        auto rate = std::find_if(checks.begin(), checks.end(), [&](const CheckRate& c) { return c.name == name; });
        if (rate == checks.end()) rate = checks.insert(checks.end(), CheckRate{name, 0, 0, 0});
        const double max = check.value("max", 0.0);
        if (max > 0) {
            ++rate->attempted;
            if (check.value("earned", 0.0) == max) ++rate->passed;
            else if (std::find(stubs.begin(), stubs.end(), field_text(check, "lab")) != stubs.end()) ++rate->stubs;
        }
    }
}

std::optional<StudentRow> read_student(const fs::path& folder, const std::vector<std::string>& labs,
                                       std::vector<CheckRate>* checks) {
    const std::string student = folder.filename().string();
    const fs::path note_file = folder / "not-graded.json";
    const fs::path summary_file = folder / "summary.json";
    try {
        if (fs::exists(note_file)) {
            const json note = read_json(note_file);
            return row_not_graded(student, labs.size(), field_text(note, "seconds"), field_text(note, "note"));
        }
        if (!fs::exists(summary_file)) return std::nullopt;
        const json summary = read_json(summary_file);
        if (checks != nullptr) count_checks(summary, *checks);
        return row_from_summary(summary, student, labs);
    } catch (const std::exception& error) {
        return row_not_graded(student, labs.size(), "",
                              "its report could not be read (" + std::string(error.what()) + ")");
    }
}

ClassBatch read_batch(const fs::path& out, const std::vector<std::string>& labs, const fs::path& entries) {
    ClassBatch batch;
    batch.labs = labs;
    std::vector<fs::path> folders;
    if (fs::is_directory(out / "reports")) {
        for (const auto& item : fs::directory_iterator(out / "reports")) {
            if (item.is_directory()) folders.push_back(item.path());
        }
    }
    std::sort(folders.begin(), folders.end());
    // The class the batch was given (entries.txt): only its students have rows.
    std::vector<std::string> listed;
    std::ifstream list(entries);
    for (std::string entry; std::getline(list, entry);) listed.push_back(student_name(entry));
    std::vector<std::string> seen;
    for (const fs::path& folder : folders) {
        const std::string student = folder.filename().string();
        if (!listed.empty() && std::find(listed.begin(), listed.end(), student) == listed.end()) continue;
        if (std::optional<StudentRow> row = read_student(folder, labs, &batch.checks)) {
            batch.rows.push_back(std::move(*row));
            seen.push_back(student);
        }
    }
    // Every submission the batch was given has a row: one whose grading left nothing gets one that says so.
    for (std::size_t index = 0; index < listed.size(); ++index) {
        const std::string& student = listed[index];
        if (student.empty() || std::find(seen.begin(), seen.end(), student) != seen.end()) continue;
        batch.rows.push_back(row_not_graded(student, labs.size(), "", "not graded: " + missing_reason(out, index)));
        seen.push_back(student);
    }
    // Who each is, where the platform's export said (grader/batch writes the roster into class.json).
    std::map<std::string, Submitters> roster;
    try {
        if (fs::exists(out / "class.json")) roster = roster_from_json(read_json(out / "class.json"));
    } catch (const std::exception&) {
        // A class record that cannot be read names nobody; the grades stand.
    }
    for (StudentRow& row : batch.rows) {
        const auto who = roster.find(row.student);
        if (who == roster.end()) continue;
        row.name = who->second.name;
        row.sid = who->second.sid;
        row.email = who->second.email;
    }
    std::sort(batch.rows.begin(), batch.rows.end(),
              [](const StudentRow& a, const StudentRow& b) { return a.student < b.student; });
    return batch;
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string cut_at_word(const std::string& text, std::size_t limit) {
    if (text.size() <= limit) return text;
    const std::string ellipsis = "\xE2\x80\xA6";  // "…"
    std::size_t cut = limit > ellipsis.size() ? limit - ellipsis.size() : 0;
    const std::size_t space = text.rfind(' ', cut);
    if (space != std::string::npos && space > cut / 2) cut = space;  // at a word's end, unless the word is most of it
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // never inside a character
    std::string head = text.substr(0, cut);
    while (!head.empty() && (head.back() == ' ' || head.back() == ',' || head.back() == ';' || head.back() == ':'))
        head.pop_back();
    return head + ellipsis;
}

std::vector<std::string> lab_maxima(const ClassBatch& batch) {
    std::vector<std::string> maxima(batch.labs.size());
    for (std::size_t i = 0; i < batch.labs.size(); ++i) {
        long best = -1;
        for (const StudentRow& row : batch.rows) {
            if (i >= row.lab_possible.size() || row.lab_possible[i].empty()) continue;
            char* end = nullptr;
            const long possible = std::strtol(row.lab_possible[i].c_str(), &end, 10);
            if (*end == '\0') best = std::max(best, possible);
        }
        if (best >= 0) maxima[i] = std::to_string(best);
    }
    return maxima;
}

std::string grades_csv(const ClassBatch& batch) {
    std::string csv = "student,name,sid,email," + join(batch.labs, ",") + ",total,possible,seconds,notes\n";
    for (const StudentRow& row : batch.rows) {
        std::vector<std::string> fields{row.student, row.name, row.sid, row.email};
        fields.insert(fields.end(), row.lab_points.begin(), row.lab_points.end());
        fields.insert(fields.end(), {row.total, row.possible, row.seconds, row.notes});
        for (std::string& field : fields) field = csv_field(field);
        csv += join(fields, ",") + "\n";
    }
    return csv;
}

std::string timings_csv(const ClassBatch& batch) {
    std::string csv = "student,wall_seconds,configure_seconds,prebuild_seconds,test_seconds_build,test_seconds_cpu,"
                      "test_seconds_gpu,speedups\n";
    for (const StudentRow& row : batch.rows) {
        if (row.has_timings)
            csv += csv_field(row.student) + "," + join(row.timing_fields, ",") + "," + speedups_field(row) + "\n";
    }
    return csv;
}

int speedup_x(double speedup) {
    const long hundredths = static_cast<long>(std::floor(speedup * 100 + 1e-6));
    return static_cast<int>(60 + 120 * hundredths / 100);
}

namespace {

// The histogram of totals, in percent of possible: ten bins, 0-9% to 80-89% and 90-100% (100% counts in the last),
// each labelled with its range under it.
std::string histogram_svg(const std::vector<int>& percentages) {
    int bins[10] = {};
    int max_bin = 1;
    for (int percent : percentages) {
        const int b = std::min(std::max(percent / 10, 0), 9);
        max_bin = std::max(max_bin, ++bins[b]);
    }
    std::ostringstream svg;
    svg << "<svg width=\"520\" height=\"220\" role=\"img\" aria-label=\"histogram of totals\">"
        << "<line x1=\"40\" y1=\"180\" x2=\"510\" y2=\"180\" stroke=\"#333\"/>"
        << "<text x=\"8\" y=\"20\" font-size=\"11\">" << max_bin << "</text><text x=\"8\" y=\"180\" font-size=\"11\">0</text>";
    for (int b = 0; b < 10; ++b) {
        const int height = 160 * bins[b] / max_bin, x = 45 + b * 46, y = 180 - height, low = b * 10;
        const std::string range = std::to_string(low) + "-" + std::to_string(b == 9 ? 100 : low + 9);
        svg << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"40\" height=\"" << height << "\" fill=\"#4a6fa5\">"
            << "<title>" << range << "%: " << bins[b] << "</title></rect>"
            << "<text x=\"" << x + 20 << "\" y=\"196\" font-size=\"10\" text-anchor=\"middle\">" << range << "</text>";
        if (bins[b] > 0) {
            svg << "<text x=\"" << x + 14 << "\" y=\"" << y - 4 << "\" font-size=\"11\">" << bins[b] << "</text>";
        }
    }
    svg << "<text x=\"200\" y=\"214\" font-size=\"12\">total, % of possible</text></svg>";
    return svg.str();
}

// The pass rate of each check graded somewhere in the batch: passed, wrong and left as the stub apart; the checks
// graded nowhere (GPU checks of a batch without a GPU) are named in one line under the table, not a row each.
std::string checks_section(const std::vector<CheckRate>& checks) {
    std::ostringstream html;
    std::vector<std::string> nowhere;
    html << "<table><tr><th>check</th><th>passed</th><th></th><th>wrong</th><th>stub</th></tr>\n";
    for (const CheckRate& check : checks) {
        if (check.attempted == 0) {
            nowhere.push_back(html_escape(check.name));
            continue;
        }
        const int rate = 100 * check.passed / check.attempted;
        const int stub_width = 200 * check.stubs / check.attempted;
        html << "<tr><td>" << html_escape(check.name) << "</td><td class=\"n\">" << rate << "%</td><td><svg width=\"200\" "
             << "height=\"12\" role=\"img\" aria-label=\"" << rate << " percent\"><rect width=\"200\" height=\"12\" "
             << "fill=\"#e3e3e3\"/><rect width=\"" << 2 * rate << "\" height=\"12\" fill=\"#3a7d44\"/><rect x=\""
             << 200 - stub_width << "\" width=\"" << stub_width << "\" height=\"12\" fill=\"#b9b9b9\"/></svg> "
             << check.passed << " of " << check.attempted << "</td><td class=\"n\">"
             << check.attempted - check.passed - check.stubs << "</td><td class=\"n\">" << check.stubs << "</td></tr>\n";
    }
    html << "</table>\n";
    if (!nowhere.empty()) {
        html << "<p class=\"nowhere\">Not graded in this batch (no GPU where it ran, or not installed there), so left "
                "out of the totals: "
             << join(nowhere, ", ") << ".</p>\n";
    }
    return html.str();
}

// The speedups measured by each performance gate (GPU only): a dot per gate on its lab's row, and a dashed mark
// at the speedup each lab requires (the last one the class's gates stated: calibrated on the grading GPU, or
// TILELAB_MIN_SPEEDUP).
std::string speedup_section(const ClassBatch& batch) {
    const int lab_count = static_cast<int>(batch.labs.size());
    const auto lab_index = [&](const std::string& lab) {
        const auto at = std::find(batch.labs.begin(), batch.labs.end(), lab);
        return at == batch.labs.end() ? -1 : static_cast<int>(at - batch.labs.begin());
    };
    std::ostringstream rows, dots;
    std::vector<std::pair<std::string, std::string>> required;  // lab, its requirement, in the order first met
    int count = 0;
    for (const StudentRow& row : batch.rows) {
        if (row.gates.empty()) continue;
        std::string text = speedups_field(row);
        text = std::regex_replace(text, std::regex("=([0-9.]+)/([0-9.]+)"), "=$1x (required $2x)");
        rows << "<tr><td>" << html_escape(row.student) << "</td><td>" << html_escape(text) << "</td></tr>\n";
        for (const GateSpeedup& gate : row.gates) {
            dots << "<circle cx=\"" << std::min(speedup_x(gate.speedup), 540) << "\" cy=\""
                 << 30 + 30 * lab_index(gate.lab) << "\" r=\"4\" fill=\"#c0504d\" fill-opacity=\"0.5\">"
                 << "<title>" << html_escape(row.student) << " " << html_escape(gate.lab) << ": " << gate.text
                 << "x</title></circle>";
            ++count;
            if (gate.required.empty()) continue;
            const auto known = std::find_if(required.begin(), required.end(), [&](const auto& r) { return r.first == gate.lab; });
            if (known == required.end()) required.emplace_back(gate.lab, gate.required);
            else known->second = gate.required;
        }
    }
    if (count == 0) {
        return "<h2>Measured speedups</h2>\n<p>None: the performance gates run on a GPU, and this batch ran none (or "
               "every tiled kernel failed before it was timed).</p>";
    }
    const int height = 40 + 30 * lab_count, bottom = height - 20;
    std::ostringstream chart;
    chart << "<svg width=\"560\" height=\"" << height << "\" role=\"img\" aria-label=\"measured speedups\">";
    for (int label = 0; label <= 4; ++label) {
        const int x = 60 + 120 * label;
        chart << "<line x1=\"" << x << "\" y1=\"10\" x2=\"" << x << "\" y2=\"" << bottom << "\" stroke=\"#ddd\"/>"
              << "<text x=\"" << x << "\" y=\"" << height << "\" font-size=\"11\">" << label << "x</text>";
    }
    for (int i = 0; i < lab_count; ++i) {
        chart << "<text x=\"4\" y=\"" << 34 + 30 * i << "\" font-size=\"11\">" << html_escape(batch.labs[i]) << "</text>";
    }
    for (const auto& [lab, speedup] : required) {
        char* end = nullptr;
        const double value = std::strtod(speedup.c_str(), &end);
        if (lab_index(lab) < 0 || end == speedup.c_str()) continue;
        const int x = speedup_x(value), top = 18 + 30 * lab_index(lab);
        chart << "<line x1=\"" << x << "\" y1=\"" << top << "\" x2=\"" << x << "\" y2=\"" << top + 24
              << "\" stroke=\"#333\" stroke-dasharray=\"4 3\"><title>" << html_escape(lab) << " required: "
              << html_escape(speedup) << "x</title></line>";
    }
    chart << dots.str() << "</svg>";
    return "<h2>Measured speedups</h2>\n<p>Each dot is one submission's performance gate (GPU only): its kernel "
           "against the gate's reference (the naive kernel for labs 02 and 03, the previous lab's model for the later "
           "ones); the dashed mark on each lab's row is the speedup that lab requires.</p>\n" +
           chart.str() + "\n<table><tr><th>student</th><th>speedups</th></tr>\n" + rows.str() + "</table>";
}

}  // namespace

std::string class_html(const ClassBatch& batch, const std::string& generated) {
    std::ostringstream rows;
    std::vector<int> percentages;
    for (const StudentRow& row : batch.rows) {
        // The student's name links to its report (reports/<student>/report.txt, beside this page).
        const std::string shown = row.name.empty() ? row.student : row.name;
        rows << "<tr><td><a href=\"" << html_escape(url_path("reports/" + row.student + "/report.txt")) << "\">"
             << html_escape(shown) << "</a>";
        if (!row.name.empty()) rows << "<br><span class=\"id\">" << html_escape(row.student) << "</span>";
        rows << "</td>";
        for (const std::string& points : row.lab_points) rows << "<td class=\"n\">" << html_escape(points) << "</td>";
        std::string cls = "n";
        char* total_end = nullptr;
        char* possible_end = nullptr;
        const double total = std::strtod(row.total.c_str(), &total_end);
        const double possible = std::strtod(row.possible.c_str(), &possible_end);
        if (row.total.empty() || row.possible.empty() || *total_end || *possible_end) {
            cls = "n bad";
        } else if (possible > 0) {
            const int percent = static_cast<int>(100 * total / possible);
            percentages.push_back(percent);
            if (percent < 50) cls = "n low";
        }
        rows << "<td class=\"" << cls << "\">" << html_escape(row.total) << "</td><td class=\"n\">"
             << html_escape(row.possible) << "</td><td class=\"n\">" << html_escape(row.seconds)
             << "</td><td class=\"note\">";
        if (row.lab_notes.empty()) {
            rows << html_escape(row.notes);
        } else {
            for (std::size_t i = 0; i < row.lab_notes.size(); ++i)
                rows << (i ? "<br>" : "") << html_escape(cut_at_word(row.lab_notes[i], 160));
        }
        rows << "</td></tr>\n";
    }
    const std::vector<std::string> maxima = lab_maxima(batch);
    std::string lab_headers;
    for (std::size_t i = 0; i < batch.labs.size(); ++i) {
        lab_headers += "<th>" + html_escape(batch.labs[i]) +
                       (maxima[i].empty() ? "" : "<br><span class=\"max\">of " + maxima[i] + "</span>") + "</th>";
    }
    std::ostringstream page;
    page << R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>TileLab: class results</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5em 2em; color: #222; max-width: 1200px; }
h1 { margin: 0 0 0.2em; font-size: 1.5em; } p.lead { margin: 0 0 0.5em; color: #444; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 14px; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; } th .max, td .id { font-weight: normal; font-size: 11px; color: #666; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
td.low { background: #fbe3d6; } td.bad { background: #f4b6b6; }
td.note { font-size: 12px; color: #555; max-width: 520px; }
p.nowhere { font-size: 12px; color: #555; max-width: 900px; }
</style></head><body>
<h1>TileLab: class results</h1>
<p class="lead">)" << batch.rows.size() << " submissions, " << percentages.size() << " with a total; written " << generated
         << R"( by grader/batch.sh from each submission's summary.json. Each name opens that student's report.</p>
<table><tr><th>student</th>)" << lab_headers << R"(<th>total</th><th>possible</th><th>seconds</th><th>why points were lost (one line per lab)</th></tr>
)" << rows.str() << R"(</table>
<h2>Totals</h2>
)" << histogram_svg(percentages) << R"(
<h2>Pass rate per check</h2>
<p>A check passes when it earns all its points. "Wrong" counts the submissions that tried and lost its points; "stub"
those whose lab is the kit's stub as given.</p>
)" << checks_section(batch.checks) << speedup_section(batch) << "\n</body></html>\n";
    return page.str();
}

namespace {

bool write_file(const fs::path& file, const std::string& text) {
    std::ofstream out(file, std::ios::binary);
    out << text;
    if (!out) std::cerr << "tilelab-report class: cannot write " << file.string() << "\n";
    return static_cast<bool>(out);
}

std::string now_text() {
    const std::time_t now = std::time(nullptr);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", std::localtime(&now));
    return text;
}

}  // namespace

std::string points_text(const StudentRow& row) {
    if (row.total.empty()) return "no points: " + row.notes;
    return row.total + "/" + row.possible + " points";
}

int class_main(int argc, char** argv) {
    std::map<std::string, std::string> options;
    for (int i = 0; i < argc; ++i) {
        const std::string option = argv[i];
        if ((option == "--out" || option == "--registry" || option == "--entries" || option == "--student") &&
            i + 1 < argc) {
            options[option] = argv[++i];
        } else {
            std::cerr << "tilelab-report class: unknown argument " << option << "\n";
            options.clear();
            break;
        }
    }
    if (!options.count("--out") || !options.count("--registry")) {
        std::cerr << "usage: tilelab-report class --out <batch folder> --registry <labs.json> [--entries <file>] "
                     "[--student <name>]\n";
        return 2;
    }
    const fs::path out = options["--out"];
    std::vector<std::string> labs;
    try {
        labs = load_registry(options["--registry"]).lab_ids;
    } catch (const std::exception& error) {
        std::cerr << "tilelab-report class: the registry " << options["--registry"] << " cannot be read: "
                  << error.what() << "\n";
        return 2;
    }
    const fs::path entries = options.count("--entries") ? fs::path(options["--entries"]) : out / "entries.txt";
    const ClassBatch batch = read_batch(out, labs, entries);
    if (options.count("--student")) {
        for (const StudentRow& row : batch.rows) {
            if (row.student != options["--student"]) continue;
            std::cout << points_text(row) << "\n";
            return 0;
        }
        std::cerr << "tilelab-report class: no report of " << options["--student"] << " in " << out.string() << "\n";
        return 1;
    }
    if (!write_file(out / "grades.csv", grades_csv(batch)) || !write_file(out / "timings.csv", timings_csv(batch)) ||
        !write_file(out / "class.html", class_html(batch, now_text()))) {
        return 1;
    }
    std::cerr << "wrote " << (out / "grades.csv").string() << " (" << batch.rows.size() << " submissions), "
              << (out / "timings.csv").string() << " and " << (out / "class.html").string() << "\n";
    return 0;
}

}  // namespace tilelab::report
