# Unit test of grader/report.cmake: a JUnit report with every kind of verdict, scored against a small rubric.
# cmake -DOUT=<folder> -P report_test.cmake
include("${CMAKE_CURRENT_LIST_DIR}/../report.cmake")
set(fixtures "${CMAKE_CURRENT_LIST_DIR}/fixtures")

function(expect what actual expected)
  if(NOT "${actual}" STREQUAL "${expected}")
    message(FATAL_ERROR "${what}: expected '${expected}', got '${actual}'")
  endif()
endfunction()

tilelab_read_junit("${fixtures}/junit.xml" run)
list(LENGTH run_TESTS count)
expect("tests read" ${count} 8)
expect("passed" "${run_STATUS_graded.lab01.tw8.build}" passed)
expect("failed" "${run_STATUS_graded.lab01.tw8.tiny}" failed)
expect("skipped" "${run_STATUS_graded.lab02.tw8.tiny}" skipped)
expect("not run" "${run_STATUS_graded.lab03.tw8.tiny}" notrun)
expect("not run, written by newer CTest as skipped" "${run_STATUS_graded.lab03.tw8.edges}" notrun)
expect("hint as reason, entities decoded" "${run_REASON_graded.lab01.tw8.tiny}"
       "hint: nothing was written to P: the kernel is not implemented yet & so on")
expect("missing file as reason" "${run_REASON_graded.lab03.tw8.build}"
       "missing file: 03_tiled_boundary/kernel.cu is not in /somewhere")

tilelab_score("${fixtures}/rubric.json" run "${OUT}/results.json" 7)
# builds 1 + edges alone 2 + lab02 on either backend 2 (GPU test skipped, CPU test passed); lab01 correct
# failed (4), lab02 GPU-only skipped and withheld (3), lab03 not run (5), the optional sanitizer check left out,
# the misspelt entry a failed check (1).
expect("score" ${run_SCORE} 5)
expect("possible" ${run_POSSIBLE} 18)
list(LENGTH run_ROWS rows)
expect("rows (optional check with no test left out)" ${rows} 7)
list(GET run_ROWS 3 lab02_row)
expect("withheld skip" "${lab02_row}" "lab02|correct|0|3|skipped|no usable CUDA GPU (no device found) (points withheld)")
list(GET run_ROWS 4 either_row)
expect("skipped on the GPU, passed on the CPU" "${either_row}" "lab02|correct on either backend|2|2|passed|")
list(GET run_ROWS 6 misspelt_row)
expect("rubric entry matching nothing" "${misspelt_row}" "lab04|misspelt|0|1|failed|rubric: no test matches ^graded[.]lab04[.]nothing$")

file(READ "${OUT}/results.json" results)
string(JSON score GET "${results}" score)
expect("results.json score" ${score} 5)
string(JSON status GET "${results}" tests 1 status)
expect("results.json failed status" "${status}" failed)
string(JSON output GET "${results}" tests 1 output)
expect("results.json failure output" "${output}"
       "graded.lab01.tw8.tiny: hint: nothing was written to P: the kernel is not implemented yet & so on")
string(JSON skipped_status ERROR_VARIABLE no_status GET "${results}" tests 3 status)
if(NOT no_status)
  message(FATAL_ERROR "a skipped check has a status: ${skipped_status}")
endif()
string(JSON leaderboard ERROR_VARIABLE no_leaderboard GET "${results}" leaderboard)
if(NOT no_leaderboard)
  message(FATAL_ERROR "results.json has a leaderboard though no performance gate measured a right result: ${leaderboard}")
endif()

# The leaderboard: the fastest right result of the gates (a slow gate's too), never a line the lab's program printed.
tilelab_read_junit("${fixtures}/junit-gates.xml" gates)
expect("a gate's rate" "${gates_GFLOPS_graded.lab03.tw16.perf}" 8159.2)
expect("a gate's speedup" "${gates_SPEEDUP_graded.lab03.tw16.perf}" 2.37)
expect("the speedup that gate required (each lab its own)" "${gates_REQUIRED_graded.lab03.tw16.perf}" 1.25)
if(DEFINED gates_GFLOPS_graded.lab07.tw16.perf)
  message(FATAL_ERROR "a quoted line of the lab's program was read as a rate")
endif()
tilelab_score("${fixtures}/rubric.json" gates "${OUT}/results-gates.json" 3)
file(READ "${OUT}/results-gates.json" results)
string(JSON fastest GET "${results}" leaderboard 0 value)
expect("leaderboard: the fastest lab (whole GFLOP/s)" "${fastest}" 34359)
string(JSON board_name GET "${results}" leaderboard 0 name)
expect("leaderboard entry's name" "${board_name}" "GFLOP/s (fastest lab)")
message("report: all expectations met")
