# cmake -DCOMMAND=<program|arg|...> -DEXPECT_STATUS=<n> -DMATCH=<regex> -P expect_status.cmake
# Passes only when the command ends with exactly that status and its output matches MATCH (a unit test of a
# program's start, such as the checker's skip on an older GPU: exit 77 and the reason).
string(REPLACE "|" ";" command "${COMMAND}")
execute_process(COMMAND ${command} RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output TIMEOUT 50)
message("${output}")
if(NOT result STREQUAL "${EXPECT_STATUS}")
  message(FATAL_ERROR "expected exit status ${EXPECT_STATUS}, got ${result}")
endif()
if(NOT output MATCHES "${MATCH}")
  message(FATAL_ERROR "the output does not match /${MATCH}/")
endif()
message("as expected: status ${result}, output matching /${MATCH}/")
