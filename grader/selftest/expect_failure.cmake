# cmake -DMATCH=<regex> [-DTIMEOUT=<seconds>] [-DSTATUS=<n>] [-DRECORD=<file> -DRECORD_MATCH=<regex>]
#       -P expect_failure.cmake -- <command> [<argument>...]
# Passes only when the command fails (with exactly STATUS, where given) and its output matches MATCH: the grader's
# self-test uses it to prove that a check catches the bug it targets (and says so), not merely that something
# failed; the unit tests, that a program stops as it should (the checker's skip on an older GPU: 77, the reason).
# With RECORD_MATCH, the check's record RECORD (grader/src/check_record.hpp) must also say, in the line the points
# table shows for it (grader/report/records.cpp: "hint: <hint>" where it has one, else its message), what
# RECORD_MATCH matches: the line a student reads first names the real cause.
cmake_minimum_required(VERSION 3.22...3.25)
# The command: every argument after "--" (which CMake does not read as its own options in script mode).
foreach(i RANGE ${CMAKE_ARGC})
  if(DEFINED command AND i LESS CMAKE_ARGC)
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
    set(command "")
  endif()
endforeach()
set(timeout_args "")
if(TIMEOUT)
  set(timeout_args TIMEOUT ${TIMEOUT})
endif()
if(RECORD)
  file(REMOVE "${RECORD}")  # an earlier run's says nothing of this one
endif()
execute_process(COMMAND ${command} RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output ${timeout_args})
if(result MATCHES "timeout")
  # What CTest's own TIMEOUT does to a graded check, and what the report then says.
  string(APPEND output "\nhint: the check did not finish in time: a kernel that never ends (check the loop bounds), or one far too slow")
endif()
message("${output}")
if(DEFINED STATUS)
  if(NOT result STREQUAL "${STATUS}")
    message(FATAL_ERROR "expected exit status ${STATUS}, got ${result}")
  endif()
elseif(result EQUAL 77 AND output MATCHES "SKIPPED: no usable CUDA GPU")
  return()  # the test's SKIP_REGULAR_EXPRESSION reports it as skipped
elseif(result EQUAL 0)
  message(FATAL_ERROR "expected a failure matching /${MATCH}/, but the command passed: the check did not catch the bug")
endif()
if(NOT output MATCHES "${MATCH}")
  message(FATAL_ERROR "the command failed (${result}), but not with output matching /${MATCH}/")
endif()
if(DEFINED RECORD_MATCH)
  if(NOT EXISTS "${RECORD}")
    message(FATAL_ERROR "the check left no record ${RECORD}: the points table has no line of its own for it")
  endif()
  file(READ "${RECORD}" record)
  string(JSON hint ERROR_VARIABLE no_hint GET "${record}" hint)
  string(JSON reason ERROR_VARIABLE no_message GET "${record}" message)
  if(NOT no_hint AND NOT hint STREQUAL "")
    set(reason "hint: ${hint}")
  endif()
  if(NOT reason MATCHES "${RECORD_MATCH}")
    message(FATAL_ERROR "the points table's line for the check reads\n  ${reason}\nwhich does not match /${RECORD_MATCH}/")
  endif()
  message("as expected: the points table's line matches /${RECORD_MATCH}/: ${reason}")
endif()
message("as expected: failed (${result}) with output matching /${MATCH}/")
