# The self-test's expectation modes of tilelab_add_lab (cmake/TileLab.cmake), EXPECT <mode>:
#   fail-all          every check must fail (the stubs)
#   fail              the checks (or SUITES) must fail with output matching MATCH (a kernel with one known bug)
#   build-fails       building must fail with output matching MATCH (a file that does not compile, or is missing)
#   <tool>-fails      compute-sanitizer's tool (memcheck, racecheck, synccheck) must report an error matching MATCH
# Included by the self-test and the unit tests (tilelab_expect_failure_command); the graded tests need none of it.
include_guard(GLOBAL)

# tilelab_expect_failure_command(<out_var> MATCH <regex> [TIMEOUT <seconds>] [STATUS <n>]
#                                [RECORD <file> RECORD_MATCH <regex>] COMMAND <command>...): a test command that passes
# only if the command fails (with exit status STATUS, where given) with output matching MATCH (and fails it when it
# runs past TIMEOUT), and, where RECORD_MATCH is given, the check's record RECORD says in the line the points table
# shows for it ("hint: <its hint>", else its message) what RECORD_MATCH matches: grader/selftest/expect_failure.cmake.
function(tilelab_expect_failure_command out_var)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "MATCH;TIMEOUT;STATUS;RECORD;RECORD_MATCH" "COMMAND")
  set(options "")
  foreach(option TIMEOUT STATUS RECORD RECORD_MATCH)
    if(arg_${option})
      list(APPEND options "-D${option}=${arg_${option}}")
    endif()
  endforeach()
  set(${out_var} "${CMAKE_COMMAND}" ${options} "-DMATCH=${arg_MATCH}" -P
      "${_tilelab_kit_source_dir}/grader/selftest/expect_failure.cmake" -- ${arg_COMMAND} PARENT_SCOPE)
endfunction()

# The expectation that a lab fails, the test <prefix>.<expect>: @p asked_suites (or, where none are asked for, all
# @p suites the lab runs here but those that need a GPU, on the CPU backend) in one checker, or compute-sanitizer's
# tool, must fail with output matching @p match, and, where @p table_match is not empty, with the line the points
# table shows for it (its record's hint, else its message) matching @p table_match. One that measures the GPU runs
# alone on it.
function(_tilelab_add_expectation prefix expect match table_match timeout target backend labels asked_suites suites)
  set(gpu_only "")
  set(measuring "")
  foreach(suite IN LISTS suites)
    if(backend STREQUAL "cpu" AND NOT TILELAB_SUITE_${suite}_GPU_ONLY STREQUAL "")
      list(APPEND gpu_only ${suite})
    elseif(backend STREQUAL "gpu" AND TILELAB_SUITE_${suite}_MEASURES_GPU)
      list(APPEND measuring ${suite})
    endif()
  endforeach()
  if(asked_suites)
    set(suites ${asked_suites})
  elseif(gpu_only)
    list(REMOVE_ITEM suites ${gpu_only})
  endif()
  if(expect STREQUAL "fail-all")
    set(match "test cases: *[0-9]+ [|] *0 passed")
  endif()
  if(NOT timeout)
    math(EXPR timeout "${TILELAB_TEST_TIMEOUT} * 4")
  endif()
  set(program ${ARGN})
  set(gate_only ON)  # the gate's rungs alone: its runner
  foreach(suite IN LISTS suites)
    if(NOT "${TILELAB_SUITE_${suite}_KIND}" STREQUAL "gate")
      set(gate_only OFF)
    endif()
  endforeach()
  if(gate_only AND suites)
    string(REPLACE "$<TARGET_FILE:${target}>" "$<TARGET_FILE:${target}_gate>" program "${program}")
  endif()
  _tilelab_checker_limits(command ${timeout} ${prefix}.${expect} ${program})
  if(expect MATCHES "^(memcheck|racecheck|synccheck)-fails$")
    _tilelab_sanitizer_command(command ${CMAKE_MATCH_1} ${command})
    set(kind_labels gpu sanitizer)
  else()
    string(REPLACE ";" "," suites "${suites}")
    list(APPEND command --test-suite=${suites})
    set(kind_labels ${backend})
  endif()
  # A kernel that never ends must fail the expectation in time, before CTest's own limit below.
  set(record "")
  if(NOT table_match STREQUAL "")
    # The checker's record, where _tilelab_checker_limits has it write it.
    set(record RECORD "${CMAKE_BINARY_DIR}/verdicts/${prefix}.${expect}.json" RECORD_MATCH "${table_match}")
  endif()
  tilelab_expect_failure_command(command MATCH "${match}" TIMEOUT ${timeout} ${record} COMMAND ${command})
  add_test(NAME ${prefix}.${expect} COMMAND ${command})
  math(EXPR timeout "${TILELAB_TEST_TIMEOUT} * 5")
  set_tests_properties(${prefix}.${expect} PROPERTIES LABELS "${labels};${kind_labels}" TIMEOUT ${timeout}
                       SKIP_REGULAR_EXPRESSION "SKIPPED: no usable CUDA GPU" FIXTURES_REQUIRED ${prefix}.built)
  if(measuring)
    set_tests_properties(${prefix}.${expect} PROPERTIES RUN_SERIAL TRUE ENVIRONMENT "${_tilelab_gate_environment}")
  endif()
  if(expect MATCHES "-fails$" AND NOT TILELAB_COMPUTE_SANITIZER)
    set_tests_properties(${prefix}.${expect} PROPERTIES DISABLED TRUE)
  endif()
endfunction()

# The expectation that building a lab fails, the test <prefix>.build-fails, with output matching @p match.
function(_tilelab_expect_build_failure prefix match labels)
  tilelab_expect_failure_command(command MATCH "${match}" COMMAND ${ARGN})
  add_test(NAME ${prefix}.build-fails COMMAND ${command})
  set_tests_properties(${prefix}.build-fails PROPERTIES LABELS "${labels}" TIMEOUT 300
                       RESOURCE_LOCK tilelab_build_tree)
endfunction()
