# cmake -DSANITIZER=<compute-sanitizer> -DTOOL=<memcheck|racecheck|synccheck> -DPROGRAM=<grader> -P tilelab_sanitize.cmake
# Runs a grader program's small shapes under one compute-sanitizer tool; fails, with a hint, when the tool
# reports an error.
execute_process(COMMAND "${SANITIZER}" --tool ${TOOL} --error-exitcode 99 "${PROGRAM}" --test-suite=edges
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
message("${output}")
if(output MATCHES "SKIPPED: no usable CUDA GPU")
  return()
endif()
set(hint_memcheck "memcheck found an invalid memory access: a thread read or wrote outside a buffer; check the bounds tests and the index arithmetic")
set(hint_racecheck "racecheck found a shared-memory race: threads write and read a tile with no __syncthreads() between them; a barrier is missing")
set(hint_synccheck "synccheck found an invalid use of __syncthreads(): some threads of a block skip a barrier that others wait at; never put a barrier inside a bounds test")
if(result EQUAL 99)
  message(FATAL_ERROR "${TOOL}: ${hint_${TOOL}}")
elseif(NOT result EQUAL 0)
  message(FATAL_ERROR "${TOOL}: the checks themselves failed (exit ${result}) while running under compute-sanitizer; see above")
endif()
message("${TOOL}: no errors")
