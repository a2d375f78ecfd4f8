# Grades a submission and prints its results: one table of checks per tile width, one of points.
#
#   cmake -P grader/grade.cmake                               grades labs/
#   cmake -DSUBMISSION=/path/to/folder -P grader/grade.cmake   grades a folder laid out like labs/
#   ... -DRESULTS=/path/results.json                           where to write Gradescope's results.json
#   ... -DBUILD=/path/to/build/folder                          another build folder (default build/grade)
#   ... "-DCONFIGURE_ARGS=-DTILELAB_TILE_WIDTHS=16|..."         more cache settings, "|"-separated
#   ... -DKIT=/path/to/kit/build                               grade against a kit built before (grader/batch.sh)
#   ... -DJOBS=<n>                                             checks run at once (default 4)
#
# It configures with the "grade" preset into the build folder, builds, and runs the checks. With KIT, only the
# submission's lab files are built (grader/submission/CMakeLists.txt), against the kit in that folder, and
# CONFIGURE_ARGS are ignored (they were the kit's). CTest's log and
# JUnit report, results.json (Gradescope's format, points from grader/rubric.json) and points.txt (one line per
# lab: "lab earned possible") stay there. Exits non-zero when any check failed (a skipped check is not a failure).
#
# Points come only from what the kit's checker wrote: a check passes when CTest saw it pass and the checker left
# its verdict "passed" in the build folder's verdicts/. The kit's files (sources, rubric, checker programs, test
# registrations) are hashed before and after grading; if any changed, no grade is reported.
cmake_minimum_required(VERSION 3.22...3.25)
get_filename_component(root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
include("${CMAKE_CURRENT_LIST_DIR}/report.cmake")
if(NOT DEFINED SUBMISSION)
  set(SUBMISSION labs)
endif()
if(DEFINED BUILD)
  get_filename_component(build "${BUILD}" ABSOLUTE)
else()
  set(build "${root}/build/grade")
endif()
string(REPLACE "|" ";" configure_args "${CONFIGURE_ARGS}")
if(NOT DEFINED RESULTS)
  set(RESULTS "${build}/results.json")
endif()
if(NOT DEFINED JOBS)
  set(JOBS 4)
endif()
# In a batch, how long a GPU check may wait for its turn on a GPU shared with other submissions' checks.
if(NOT DEFINED GPU_QUEUE_SECONDS)
  set(GPU_QUEUE_SECONDS 900)
endif()
if(DEFINED KIT)
  get_filename_component(kit "${KIT}" ABSOLUTE)
  if(NOT EXISTS "${kit}/tilelab-kit-settings.cmake")
    message(FATAL_ERROR "KIT: ${kit} is not a built kit (no tilelab-kit-settings.cmake): grader/batch.sh builds one")
  endif()
endif()
string(TIMESTAMP started "%s")
# Inputs nobody can predict: without TILELAB_SEED, a seed drawn for this grading (the checkers print it, so a run
# can be repeated with TILELAB_SEED=<it>). The kit's default seed is public, and so are its generator and shapes: a
# submission could ship P for every graded input (grader/selftest/cheats/replays-known-seed).
if("$ENV{TILELAB_SEED}" STREQUAL "")
  file(READ /dev/urandom random_bytes LIMIT 7 HEX)
  math(EXPR random_seed "0x${random_bytes}" OUTPUT_FORMAT DECIMAL)
  set(ENV{TILELAB_SEED} "${random_seed}")
endif()

# "path=sha256" for every file of the kit a lab's program must not change: its sources and rubric and, once
# built, the checker programs and CTest's test registrations.
function(tilelab_kit_hashes out_var with_build)
  file(GLOB_RECURSE files LIST_DIRECTORIES false "${root}/cmake/*" "${root}/common/*" "${root}/grader/*"
       "${root}/docs/*")
  list(APPEND files "${root}/CMakeLists.txt" "${root}/CMakePresets.json")
  if(with_build)
    file(GLOB_RECURSE built LIST_DIRECTORIES false "${build}/grader/tilelab-checker-*" "${build}/grader/tilelab-gate-model-*"
         "${build}/*CTestTestfile.cmake")
    list(APPEND files ${built})
    if(kit)
      # What every submission of a batch is graded with: the kit's programs, libraries and objects.
      file(GLOB_RECURSE built LIST_DIRECTORIES false "${kit}/tilelab-kit-*.cmake" "${kit}/grader/tilelab-*"
           "${kit}/common/cpu/tilelab-cuda-to-cpp" "${kit}/*.a" "${kit}/grader/CMakeFiles/tilelab_adapter_*.o"
           "${kit}/grader/CMakeFiles/tilelab_runner_main_*.o" "${kit}/grader/CMakeFiles/tilelab_gate_model_*.o")
      list(APPEND files ${built})
    endif()
  endif()
  list(SORT files)
  set(hashes "")
  foreach(file IN LISTS files)
    file(SHA256 "${file}" hash)
    list(APPEND hashes "${file}=${hash}")
  endforeach()
  set(${out_var} "${hashes}" PARENT_SCOPE)
endfunction()
tilelab_kit_hashes(sources_before OFF)
execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
set(TILELAB_REPORT_NOTE "")
if(NOT uid STREQUAL "0")
  set(TILELAB_REPORT_NOTE "not graded as root: the labs' programs ran with this user's rights over the kit's files, so a submission could have tampered with the grading (grade as root, as Gradescope and CI do, to confine them)")
endif()

get_filename_component(submission_path "${SUBMISSION}" ABSOLUTE)
if(SUBMISSION STREQUAL "labs" OR SUBMISSION STREQUAL "solutions")
  set(submission_path "${SUBMISSION}")
elseif(IS_DIRECTORY "${submission_path}")
  # Graded from a copy that the labs' compiler, an unprivileged user when grading as root, can read, and that
  # nothing in the grading can change.
  # The copy keeps a symbolic link as a link (it is never followed), which the lab's source check then names and
  # refuses. A hard link would become a plain file: each file with more than one name in the submission gets a
  # second name in the copy as well (under submission-links/, outside the submission), so that the source check
  # sees it and refuses it too.
  file(REMOVE_RECURSE "${build}/submission" "${build}/submission-links")
  file(COPY "${submission_path}/" DESTINATION "${build}/submission"
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ
       DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  execute_process(COMMAND find "${submission_path}/" -type f -links +1 -printf "%P\\n"
                  OUTPUT_VARIABLE hard_links ERROR_QUIET)
  string(REPLACE "\n" ";" hard_links "${hard_links}")
  set(index 0)
  foreach(hard_link IN LISTS hard_links)
    if(NOT hard_link STREQUAL "" AND EXISTS "${build}/submission/${hard_link}")
      math(EXPR index "${index} + 1")
      file(MAKE_DIRECTORY "${build}/submission-links")
      file(CREATE_LINK "${build}/submission/${hard_link}" "${build}/submission-links/${index}")
    endif()
  endforeach()
  set(submission_path "${build}/submission")
endif()
# The kit's model answers are out of reach of the user that compiles and runs a lab's code (the sandbox's, a user
# of its own, when grading as root): solutions/ is closed to "others" (chmod o-rwx) and stays so; its owner and
# group keep their rights, and the kit's own builds read it as root or as its owner (a build that grades solutions/
# compiles it without the sandbox: cmake/TileLab.cmake). The performance gate's reference kernels are compiled from
# it by the kit's build (grader/CMakeLists.txt), before any lab. Gradescope's image does not hold it at all
# (grader/gradescope/setup.sh): the CPU backend has no gate, so nothing there needs it.
if(uid STREQUAL "0" AND IS_DIRECTORY "${root}/solutions" AND NOT SUBMISSION STREQUAL "solutions")
  execute_process(COMMAND chmod o-rwx "${root}/solutions" RESULT_VARIABLE closed)
  if(NOT closed EQUAL 0)
    message(FATAL_ERROR "cannot close ${root}/solutions to the labs' user (chmod o-rwx); a lab could read the model answers")
  endif()
endif()
if(kit)
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${root}/grader/submission" -B "${build}" -G Ninja
                          "-DTILELAB_KIT=${kit}" "-DTILELAB_SOURCE=${submission_path}"
                          "-DTILELAB_GPU_QUEUE_SECONDS=${GPU_QUEUE_SECONDS}"
                  WORKING_DIRECTORY "${root}" RESULT_VARIABLE result OUTPUT_QUIET)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "configuring the submission's build against the kit ${kit} failed (see above)")
  endif()
else()
  execute_process(COMMAND "${CMAKE_COMMAND}" --preset grade -B "${build}" "-DTILELAB_SOURCE=${submission_path}"
                          ${configure_args}
                  WORKING_DIRECTORY "${root}" RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "configuring failed (see above)")
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" WORKING_DIRECTORY "${root}" RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "building the kit failed (see above); the labs themselves are built by the tests")
  endif()
endif()
string(TIMESTAMP configured "%s")
file(REMOVE "${build}/grade.xml")
file(REMOVE_RECURSE "${build}/verdicts")
file(MAKE_DIRECTORY "${build}/verdicts")
tilelab_kit_hashes(kit_before ON)
if(kit AND "$ENV{TILELAB_GPU_LOCK}" STREQUAL "")
  # Against a kit, the measuring checks rely on the GPU lock rather than RUN_SERIAL: alone, a lock of its own.
  set(ENV{TILELAB_GPU_LOCK} "${build}/gpu.lock")
endif()
# The GPU, found once by the kit's checker for every check (TILELAB_GPU_FOUND, read by grader_main.cpp): each
# checker asking again would initialise CUDA once more, and a driver does that for one process at a time, which
# in a class graded at once was the slowest step.
unset(ENV{TILELAB_GPU_FOUND})
if(kit)
  set(gpu_checker "${kit}/grader/tilelab-checker-gpu")
else()
  set(gpu_checker "${build}/grader/tilelab-checker-gpu")
endif()
if(EXISTS "${gpu_checker}")
  execute_process(COMMAND "${gpu_checker}" --device-query RESULT_VARIABLE found OUTPUT_VARIABLE line
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(found EQUAL 0)
    set(ENV{TILELAB_GPU_FOUND} "+${line}")  # "+<compute capability>|<line>" (grader/src/device_requirements.hpp)
  elseif(found EQUAL 77)
    set(ENV{TILELAB_GPU_FOUND} "-${line}")
  endif()  # anything else: each checker asks for itself, as without a grading
  string(REGEX REPLACE "^[0-9]+[.][0-9]+[|]" "" line "${line}")
  message(STATUS "${line}")
endif()
# Every lab at once, in parallel, as far as each compiles: a lab that does not is reported by its build check, which
# builds it again for the compiler's messages (the build checks themselves take turns in the build folder).
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --target tilelab_graded_labs -- -k 0
                WORKING_DIRECTORY "${root}" OUTPUT_QUIET ERROR_QUIET)
string(TIMESTAMP labs_built "%s")
# The grade test preset's settings, on this build folder.
execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${build}" --output-on-failure --no-tests=error -j ${JOBS}
                        --output-log "${build}/grade.log" --output-junit "${build}/grade.xml"
                WORKING_DIRECTORY "${root}")
if(NOT EXISTS "${build}/grade.xml")
  message(FATAL_ERROR "CTest wrote no report (${build}/grade.xml); see its output above")
endif()
tilelab_kit_hashes(kit_after ON)
tilelab_kit_hashes(sources_after OFF)
set(changed "")
foreach(hash IN LISTS sources_after kit_after)
  if(NOT hash IN_LIST sources_before AND NOT hash IN_LIST kit_before)
    string(REGEX REPLACE "=[0-9a-f]*$" "" file "${hash}")
    list(APPEND changed "${file}")
  endif()
endforeach()
list(LENGTH kit_before count_before)
list(LENGTH kit_after count_after)
if(NOT count_before EQUAL count_after OR NOT sources_before STREQUAL sources_after OR changed)
  message(FATAL_ERROR "refusing to report a grade: the kit's own files changed while grading (${changed}). "
                      "Something run by the grading, a submission's program most likely, wrote to them; restore the "
                      "kit (git checkout, or a fresh copy) and grade again, as root so that the labs' programs are confined.")
endif()
tilelab_read_junit("${build}/grade.xml" run)
# The performance gates' speedups and requirements as their checkers recorded them (verdicts/<test>.gate.json).
tilelab_read_gate_records("${build}/verdicts" run)
# Only the checker's verdict turns a passed test into points: a graded check CTest saw pass must have left
# "passed" in verdicts/ (build checks, the series that runs a lab's checks, <prefix>.checks, which earns nothing,
# and checks skipped for want of a GPU are not the checker's).
foreach(test IN LISTS run_TESTS)
  if(NOT test MATCHES "^graded[.]" OR test MATCHES "[.](build|checks)$" OR NOT run_STATUS_${test} STREQUAL "passed")
    continue()
  endif()
  set(verdict "")
  if(EXISTS "${build}/verdicts/${test}")
    file(STRINGS "${build}/verdicts/${test}" verdict LIMIT_COUNT 1)
  endif()
  if(NOT verdict STREQUAL "passed")
    set(run_STATUS_${test} failed)
    set(run_REASON_${test} "the checker left no verdict that it passed (verdicts/${test}), though CTest says it did")
  endif()
endforeach()

function(pad text width out_var)
  string(LENGTH "${text}" length)
  while(length LESS width)
    string(APPEND text " ")
    math(EXPR length "${length} + 1")
  endwhile()
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

# Table 1: one row per lab and check, one column per tile width, in registration order.
set(rows "")
set(widths "")
foreach(test IN LISTS run_TESTS)
  if(test MATCHES "^graded[.](lab[0-9]+)[.]tw([0-9]+)[.](.+)$")
    list(APPEND rows "${CMAKE_MATCH_1} ${CMAKE_MATCH_3}")
    list(APPEND widths "${CMAKE_MATCH_2}")
    string(MAKE_C_IDENTIFIER "${CMAKE_MATCH_1} ${CMAKE_MATCH_3}_${CMAKE_MATCH_2}" key)
    set(cell_${key} "${run_STATUS_${test}}")
  endif()
endforeach()
list(REMOVE_DUPLICATES rows)
list(REMOVE_DUPLICATES widths)
list(SORT widths COMPARE NATURAL)
pad("lab check" 28 header)
foreach(width IN LISTS widths)
  pad("TILE_WIDTH ${width}" 15 cell)
  string(APPEND header "${cell}")
endforeach()
message("\nTileLab results for ${SUBMISSION}\n${header}")
foreach(row IN LISTS rows)
  pad("${row}" 28 text)
  foreach(width IN LISTS widths)
    string(MAKE_C_IDENTIFIER "${row}_${width}" key)
    set(cell "-")
    if(DEFINED cell_${key})
      set(cell "${cell_${key}}")
      if(cell STREQUAL "failed")
        set(cell "FAIL")
      elseif(cell STREQUAL "notrun")
        set(cell "not run")
      endif()
    endif()
    pad("${cell}" 15 cell)
    string(APPEND text "${cell}")
  endforeach()
  message("${text}")
endforeach()

# Table 2: points, from grader/rubric.json.
string(TIMESTAMP finished "%s")
math(EXPR seconds "${finished} - ${started}")
tilelab_score("${CMAKE_CURRENT_LIST_DIR}/rubric.json" run "${RESULTS}" ${seconds})
message("")
# The check column is as wide as the longest check's name, and two spaces.
set(check_width 5)
foreach(row IN LISTS run_ROWS)
  string(REPLACE "|" ";" fields "${row}")
  list(GET fields 1 check)
  string(LENGTH "${check}" length)
  if(length GREATER check_width)
    set(check_width ${length})
  endif()
endforeach()
math(EXPR check_width "${check_width} + 2")
pad("lab" 7 header)
pad("check" ${check_width} column)
string(APPEND header "${column}points   result")
message("${header}")
set(not_passed 0)
foreach(row IN LISTS run_ROWS)
  string(REPLACE "|" ";" fields "${row}")
  list(GET fields 0 lab)
  list(GET fields 1 check)
  list(GET fields 2 earned)
  list(GET fields 3 max)
  list(GET fields 4 state)
  list(GET fields 5 reason)
  pad("${lab}" 7 text)
  pad("${check}" ${check_width} column)
  pad("${earned}/${max}" 9 points)
  set(line "${text}${column}${points}${state}")
  if(NOT state STREQUAL "passed")
    string(APPEND line ": ${reason}")
  endif()
  if(state STREQUAL "failed")
    math(EXPR not_passed "${not_passed} + 1")
  endif()
  message("${line}")
endforeach()
# The performance gates: each one's speedup, the speedup it required on this GPU, and where that came from.
set(gate_lines "")
foreach(test IN LISTS run_TESTS)
  if(NOT DEFINED run_SPEEDUP_${test} OR NOT test MATCHES "^graded[.](lab[0-9]+)[.]")
    continue()
  endif()
  set(lab "${CMAKE_MATCH_1}")
  set(how "")
  if(run_REQUIRED_BY_${test} STREQUAL "TILELAB_MIN_SPEEDUP")
    set(how ", set by TILELAB_MIN_SPEEDUP")
  elseif(DEFINED run_MODEL_SPEEDUP_${test})
    set(how ", calibrated on this GPU: the lab's model answer is ${run_MODEL_SPEEDUP_${test}}x")
  endif()
  set(gpu "")
  if(DEFINED run_GPU_${test})
    set(gpu " on ${run_GPU_${test}}")
  endif()
  string(APPEND gate_lines "\n  ${lab}${gpu}: speedup ${run_SPEEDUP_${test}}x, required ${run_REQUIRED_${test}}x${how}")
endforeach()
if(gate_lines)
  message("\nPerformance gates:${gate_lines}")
endif()
message("\nTotal: ${run_SCORE} of ${run_POSSIBLE} points (${run_RULE}). Report: ${RESULTS}")
if(TILELAB_REPORT_NOTE)
  message("Note: ${TILELAB_REPORT_NOTE}")
endif()
foreach(row IN LISTS run_ROWS)
  string(REPLACE "|" ";" fields "${row}")
  list(GET fields 0 lab)
  list(GET fields 2 earned)
  list(GET fields 3 max)
  if(NOT DEFINED lab_earned_${lab})
    set(lab_earned_${lab} 0)
    set(lab_possible_${lab} 0)
  endif()
  math(EXPR lab_earned_${lab} "${lab_earned_${lab}} + ${earned}")
  math(EXPR lab_possible_${lab} "${lab_possible_${lab}} + ${max}")
  list(APPEND labs ${lab})
endforeach()
list(REMOVE_DUPLICATES labs)
set(points "")
foreach(lab IN LISTS labs)
  string(APPEND points "${lab} ${lab_earned_${lab}} ${lab_possible_${lab}}\n")
endforeach()
file(WRITE "${build}/points.txt" "${points}total ${run_SCORE} ${run_POSSIBLE}\n")
# Where the time went (grader/batch.sh sums it over a class): wall-clock seconds of the steps, and test-seconds of
# the build checks, the CPU backend's checks and the GPU's (tests overlap, so these add up to more than the wall
# clock); and each performance gate's speedup and the speedup it required.
set(ms_build 0)
set(ms_cpu 0)
set(ms_gpu 0)
set(measures "")
foreach(test IN LISTS run_TESTS)
  set(kind gpu)
  if(test MATCHES "[.]build$")
    set(kind build)
  elseif(test MATCHES "[.]cpu[.]")
    set(kind cpu)
  endif()
  math(EXPR ms_${kind} "${ms_${kind}} + ${run_MS_${test}}")
  if(DEFINED run_SPEEDUP_${test})
    string(APPEND measures "speedup ${test} ${run_SPEEDUP_${test}} ${run_REQUIRED_${test}} ${run_MODEL_SPEEDUP_${test}}\n")
  endif()
endforeach()
math(EXPR configure_seconds "${configured} - ${started}")
math(EXPR labs_seconds "${labs_built} - ${configured}")
file(WRITE "${build}/measures.txt" "wall_seconds ${seconds}\nconfigure_seconds ${configure_seconds}\n"
           "prebuild_seconds ${labs_seconds}\ntest_ms_build ${ms_build}\ntest_ms_cpu ${ms_cpu}\n"
           "test_ms_gpu ${ms_gpu}\n${measures}")
message("Run one check again with its messages: ctest --test-dir ${build} -R <lab>.tw<width>.<check> --output-on-failure")
if(not_passed GREATER 0)
  message(FATAL_ERROR "${not_passed} checks failed")
endif()
