# cmake -DCOMMAND=<program|arg|...> -DMATCH=<regex> -P tilelab_expect_failure.cmake
# Passes only when the command fails and its output matches MATCH: the grader's self-test uses it to prove
# that a check catches the bug it targets (and says so), not merely that something failed.
string(REPLACE "|" ";" command "${COMMAND}")
execute_process(COMMAND ${command} RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
message("${output}")
if(output MATCHES "SKIPPED: no usable CUDA GPU")
  return()  # the test's SKIP_REGULAR_EXPRESSION reports it as skipped
endif()
if(result EQUAL 0)
  message(FATAL_ERROR "expected a failure matching /${MATCH}/, but the command passed: the check did not catch the bug")
endif()
if(NOT output MATCHES "${MATCH}")
  message(FATAL_ERROR "the command failed (${result}), but not with output matching /${MATCH}/")
endif()
message("as expected: failed (${result}) with output matching /${MATCH}/")
