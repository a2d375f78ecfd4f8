# Writes OUT/class.html: one self-contained page (inline CSS and SVG, no script, nothing fetched) with the class's
# grade table, the pass rate of each check, a histogram of totals and each submission's measured speedups.
#
#   cmake -DOUT=<batch folder> -P grader/batch/class-report.cmake
#
# Reads OUT/grades.csv, OUT/timings.csv (grader/batch/merge.sh) and each OUT/reports/<student>/results.json.
cmake_minimum_required(VERSION 3.22...3.25)
include("${CMAKE_CURRENT_LIST_DIR}/../report.cmake")
if(NOT OUT OR NOT EXISTS "${OUT}/grades.csv")
  message(FATAL_ERROR "OUT: give a batch folder holding grades.csv (grader/batch.sh writes one)")
endif()

function(html_escape text out_var)
  string(REPLACE "&" "&amp;" text "${text}")
  string(REPLACE "<" "&lt;" text "${text}")
  string(REPLACE ">" "&gt;" text "${text}")
  string(REPLACE "\"" "&quot;" text "${text}")
  string(REPLACE "@SEMICOLON@" "; " text "${text}")
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

# "a,b,,c" -> CMake list a;b;;c. A ";" in a field (the notes separate reasons with it) would split the list, so
# it travels as "@SEMICOLON@" until html_escape writes it back.
function(csv_fields line out_var)
  string(REPLACE ";" "@SEMICOLON@" line "${line}")
  string(REPLACE "," ";" fields "${line}")
  set(${out_var} "${fields}" PARENT_SCOPE)
endfunction()

# The lines of a CSV file, each one list element (a ";" inside a line kept, as in csv_fields).
function(csv_lines file out_var)
  file(READ "${file}" text)
  string(REPLACE ";" "@SEMICOLON@" text "${text}")
  string(REGEX REPLACE "\n$" "" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(${out_var} "${lines}" PARENT_SCOPE)
endfunction()

# The x of a speedup given as text (2.19) on the speedup chart's 0-4x axis: 120 px per 1x from 60, to the
# hundredth; "" for text that is not a number. The dots and the required marks share it, so that a dot lies left of
# its lab's mark exactly when the gate asked for more.
function(speedup_x text out_var)
  set(x "")
  if(text MATCHES "^([0-9]+)[.]?([0-9]*)")
    set(whole "${CMAKE_MATCH_1}")  # kept: the REGEX REPLACE below clears CMAKE_MATCH_1 when it finds nothing
    set(fraction "${CMAKE_MATCH_2}00")
    string(SUBSTRING "${fraction}" 0 2 fraction)
    string(REGEX REPLACE "^0([0-9])" "\\1" fraction "${fraction}")
    math(EXPR x "60 + 120 * ${whole} + 120 * ${fraction} / 100")
  endif()
  set(${out_var} "${x}" PARENT_SCOPE)
endfunction()

csv_lines("${OUT}/grades.csv" grade_lines)
list(POP_FRONT grade_lines header)
csv_fields("${header}" columns)
list(LENGTH columns column_count)
math(EXPR lab_count "${column_count} - 5")
math(EXPR last_lab "${lab_count}")
list(SUBLIST columns 1 ${lab_count} labs)

# The grade table, and the totals as percentages for the histogram.
set(rows_html "")
set(percentages "")
set(students 0)
foreach(line IN LISTS grade_lines)
  csv_fields("${line}" fields)
  list(LENGTH fields count)
  if(count LESS column_count)
    continue()
  endif()
  math(EXPR students "${students} + 1")
  list(GET fields 0 student)
  html_escape("${student}" student)
  set(row "<tr><td>${student}</td>")
  foreach(i RANGE 1 ${last_lab})
    list(GET fields ${i} points)
    string(APPEND row "<td class=\"n\">${points}</td>")
  endforeach()
  math(EXPR i_total "${lab_count} + 1")
  math(EXPR i_possible "${lab_count} + 2")
  math(EXPR i_seconds "${lab_count} + 3")
  list(GET fields ${i_total} total)
  list(GET fields ${i_possible} possible)
  list(GET fields ${i_seconds} seconds)
  math(EXPR i_note "${column_count} - 1")
  list(GET fields ${i_note} note)
  if(count GREATER column_count)
    list(SUBLIST fields ${column_count} -1 note_parts)
    list(JOIN note_parts "," rest)
    string(APPEND note ",${rest}")
  endif()
  html_escape("${note}" note)
  set(cls "")
  if(total STREQUAL "" OR possible STREQUAL "")
    set(cls " class=\"bad\"")
  elseif(possible GREATER 0)
    math(EXPR percent "100 * ${total} / ${possible}")
    list(APPEND percentages ${percent})
    if(percent LESS 50)
      set(cls " class=\"low\"")
    endif()
  endif()
  string(APPEND row "<td class=\"n\"${cls}>${total}</td><td class=\"n\">${possible}</td><td class=\"n\">${seconds}</td>"
                    "<td class=\"note\">${note}</td></tr>\n")
  string(APPEND rows_html "${row}")
endforeach()
set(lab_headers "")
foreach(lab IN LISTS labs)
  string(APPEND lab_headers "<th>${lab}</th>")
endforeach()

# Pass rate per check, from each student's results.json: passed means full points where points were possible.
set(check_names "")
file(GLOB results_files "${OUT}/reports/*/results.json")
foreach(results_file IN LISTS results_files)
  tilelab_read_results("${results_file}" checks unreadable)
  foreach(check IN LISTS checks)
    string(REGEX MATCH "^([^|]*)[|]([^|]*)[|](.*)$" unused "${check}")
    set(score "${CMAKE_MATCH_1}")
    set(max "${CMAKE_MATCH_2}")
    set(name "${CMAKE_MATCH_3}")
    string(MD5 key "${name}")
    if(NOT DEFINED attempted_${key})
      list(APPEND check_names "${name}")
      set(attempted_${key} 0)
      set(passed_${key} 0)
    endif()
    if(max GREATER 0)
      math(EXPR attempted_${key} "${attempted_${key}} + 1")
      if(score EQUAL max)
        math(EXPR passed_${key} "${passed_${key}} + 1")
      endif()
    endif()
  endforeach()
endforeach()
set(checks_html "")
foreach(name IN LISTS check_names)
  string(MD5 key "${name}")
  html_escape("${name}" label)
  if(attempted_${key} EQUAL 0)
    string(APPEND checks_html "<tr><td>${label}</td><td class=\"n\">-</td><td>not graded (no GPU where it ran)</td></tr>\n")
    continue()
  endif()
  math(EXPR rate "100 * ${passed_${key}} / ${attempted_${key}}")
  math(EXPR bar "2 * ${rate}")
  string(APPEND checks_html "<tr><td>${label}</td><td class=\"n\">${rate}%</td><td><svg width=\"200\" height=\"12\" "
                            "role=\"img\" aria-label=\"${rate} percent\"><rect width=\"200\" height=\"12\" fill=\"#e3e3e3\"/>"
                            "<rect width=\"${bar}\" height=\"12\" fill=\"#3a7d44\"/></svg> ${passed_${key}} of "
                            "${attempted_${key}}</td></tr>\n")
endforeach()

# Histogram of totals: ten bins of 10%, the last one closed (100% counts in 90-100%).
foreach(b RANGE 9)
  set(bin_${b} 0)
endforeach()
set(max_bin 1)
foreach(percent IN LISTS percentages)
  math(EXPR b "${percent} / 10")
  if(b GREATER 9)
    set(b 9)
  endif()
  math(EXPR bin_${b} "${bin_${b}} + 1")
  if(bin_${b} GREATER max_bin)
    set(max_bin ${bin_${b}})
  endif()
endforeach()
string(CONCAT histogram "<svg width=\"520\" height=\"220\" role=\"img\" aria-label=\"histogram of totals\">"
              "<line x1=\"40\" y1=\"180\" x2=\"510\" y2=\"180\" stroke=\"#333\"/>"
              "<text x=\"8\" y=\"20\" font-size=\"11\">${max_bin}</text><text x=\"8\" y=\"180\" font-size=\"11\">0</text>")
foreach(b RANGE 9)
  math(EXPR height "160 * ${bin_${b}} / ${max_bin}")
  math(EXPR x "45 + ${b} * 46")
  math(EXPR y "180 - ${height}")
  math(EXPR low "${b} * 10")
  math(EXPR label_x "${x} + 4")
  string(APPEND histogram "<rect x=\"${x}\" y=\"${y}\" width=\"40\" height=\"${height}\" fill=\"#4a6fa5\">"
                          "<title>${low}-${low}+10%: ${bin_${b}}</title></rect>"
                          "<text x=\"${label_x}\" y=\"196\" font-size=\"11\">${low}%</text>")
  if(bin_${b} GREATER 0)
    math(EXPR count_y "${y} - 4")
    math(EXPR count_x "${x} + 14")
    string(APPEND histogram "<text x=\"${count_x}\" y=\"${count_y}\" font-size=\"11\">${bin_${b}}</text>")
  endif()
endforeach()
string(APPEND histogram "<text x=\"230\" y=\"214\" font-size=\"12\">total, % of possible</text></svg>")

# Speedups measured by each performance gate (GPU only) over its reference kernel, from timings.csv: lab=speedup,
# and /required where the gate said what it asked for (each lab its own, calibrated on the grading GPU, or
# TILELAB_MIN_SPEEDUP). A batch merged before the gates said it has one line for every lab, the kit's setting (or
# 1.25, the fixed requirement of labs 02 and 03 then).
set(min_speedup "")
if(EXISTS "${OUT}/kit/tilelab-kit-settings.cmake")
  include("${OUT}/kit/tilelab-kit-settings.cmake")
  set(min_speedup "${TILELAB_MIN_SPEEDUP}")
endif()
if(min_speedup STREQUAL "")
  set(min_speedup 1.25)  # labs 02 and 03's fixed requirement before the gates were calibrated
endif()
set(required_labs "")
set(speedup_rows "")
set(speedup_points "")
set(speedup_count 0)
if(EXISTS "${OUT}/timings.csv")
  csv_lines("${OUT}/timings.csv" timing_lines)
  list(POP_FRONT timing_lines)
  foreach(line IN LISTS timing_lines)
    csv_fields("${line}" fields)
    list(LENGTH fields count)
    if(count LESS 8)
      continue()
    endif()
    list(GET fields 0 student)
    list(GET fields 7 speedups)
    if(speedups STREQUAL "")
      continue()
    endif()
    html_escape("${student}" student)
    string(REGEX REPLACE "=([0-9.]+)/([0-9.]+)" "=\\1x (required \\2x)" speedups_text "${speedups}")
    html_escape("${speedups_text}" speedups_text)
    string(APPEND speedup_rows "<tr><td>${student}</td><td>${speedups_text}</td></tr>\n")
    string(REPLACE " " ";" pairs "${speedups}")
    foreach(pair IN LISTS pairs)
      if(pair MATCHES "^(lab[0-9]+)=([0-9]+[.]?[0-9]*)")
        # x: the speedup on the chart's axis (capped at its right end); y: one row per lab.
        set(lab "${CMAKE_MATCH_1}")
        set(speedup "${CMAKE_MATCH_2}")
        speedup_x("${speedup}" x)
        if(x GREATER 540)
          set(x 540)
        endif()
        list(FIND labs "${lab}" lab_index)
        math(EXPR y "30 + 30 * ${lab_index}")
        string(APPEND speedup_points "<circle cx=\"${x}\" cy=\"${y}\" r=\"4\" fill=\"#c0504d\" fill-opacity=\"0.5\">"
                                     "<title>${student} ${lab}: ${speedup}x</title></circle>")
        math(EXPR speedup_count "${speedup_count} + 1")
      endif()
      if(pair MATCHES "^(lab[0-9]+)=[0-9.]+/([0-9.]+)$")
        set(required_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
        list(APPEND required_labs "${CMAKE_MATCH_1}")
      endif()
    endforeach()
  endforeach()
endif()
if(speedup_count GREATER 0)
  math(EXPR chart_height "40 + 30 * ${lab_count}")
  set(speedup_chart "<svg width=\"560\" height=\"${chart_height}\" role=\"img\" aria-label=\"measured speedups\">")
  foreach(x_label 0 1 2 3 4)
    math(EXPR x "60 + 120 * ${x_label}")
    math(EXPR bottom "${chart_height} - 20")
    string(APPEND speedup_chart "<line x1=\"${x}\" y1=\"10\" x2=\"${x}\" y2=\"${bottom}\" stroke=\"#ddd\"/>"
                                "<text x=\"${x}\" y=\"${chart_height}\" font-size=\"11\">${x_label}x</text>")
  endforeach()
  set(index 0)
  foreach(lab IN LISTS labs)
    math(EXPR y "34 + 30 * ${index}")
    string(APPEND speedup_chart "<text x=\"4\" y=\"${y}\" font-size=\"11\">${lab}</text>")
    math(EXPR index "${index} + 1")
  endforeach()
  if(required_labs STREQUAL "")
    # One requirement for every lab: a line across the chart.
    speedup_x("${min_speedup}" x)
    if(NOT x STREQUAL "")
      math(EXPR bottom "${chart_height} - 20")
      string(APPEND speedup_chart "<line x1=\"${x}\" y1=\"10\" x2=\"${x}\" y2=\"${bottom}\" stroke=\"#333\" "
                                  "stroke-dasharray=\"4 3\"><title>required: ${min_speedup}x</title></line>")
    endif()
    set(required_text "the dashed line is the speedup required (${min_speedup}x)")
  else()
    # Each lab's own requirement: a dashed mark across that lab's row.
    list(REMOVE_DUPLICATES required_labs)
    set(required_text "the dashed mark on each lab's row is the speedup that lab requires")
    foreach(lab IN LISTS required_labs)
      list(FIND labs "${lab}" lab_index)
      speedup_x("${required_${lab}}" x)
      if(lab_index EQUAL -1 OR x STREQUAL "")
        continue()
      endif()
      math(EXPR top "18 + 30 * ${lab_index}")
      math(EXPR bottom "${top} + 24")
      string(APPEND speedup_chart "<line x1=\"${x}\" y1=\"${top}\" x2=\"${x}\" y2=\"${bottom}\" stroke=\"#333\" "
                                  "stroke-dasharray=\"4 3\"><title>${lab} required: ${required_${lab}}x</title></line>")
    endforeach()
  endif()
  string(APPEND speedup_chart "${speedup_points}</svg>")
  string(CONCAT speedup_section "<h2>Measured speedups</h2>\n<p>Each dot is one submission's performance gate (GPU "
      "only): its kernel against the gate's reference (the naive kernel for labs 02 and 03, the previous lab's model "
      "for the later ones); ${required_text}.</p>\n${speedup_chart}\n"
      "<table><tr><th>student</th><th>speedups</th></tr>\n${speedup_rows}</table>")
else()
  string(CONCAT speedup_section "<h2>Measured speedups</h2>\n<p>None: the performance gates run on a GPU, and this "
                               "batch ran none (or every tiled kernel failed before it was timed).</p>")
endif()

string(TIMESTAMP generated "%Y-%m-%d %H:%M")
list(LENGTH percentages graded)
file(WRITE "${OUT}/class.html" "<!DOCTYPE html>
<html lang=\"en\"><head><meta charset=\"utf-8\"><title>TileLab: class results</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 1100px; }
table { border-collapse: collapse; margin: 1em 0; font-size: 14px; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
td.low { background: #fbe3d6; } td.bad { background: #f4b6b6; }
td.note { font-size: 12px; color: #555; max-width: 420px; }
</style></head><body>
<h1>TileLab: class results</h1>
<p>${students} submissions, ${graded} with a total; written ${generated} by grader/batch.sh from grades.csv.</p>
<h2>Totals</h2>
${histogram}
<h2>Pass rate per check</h2>
<p>A check passes when it earns all its points; submissions where the check was not graded (no GPU) are left out.</p>
<table><tr><th>check</th><th>passed</th><th></th></tr>
${checks_html}</table>
${speedup_section}
<h2>Grades</h2>
<table><tr><th>student</th>${lab_headers}<th>total</th><th>possible</th><th>seconds</th><th>notes</th></tr>
${rows_html}</table>
</body></html>
")
message(STATUS "wrote ${OUT}/class.html")
