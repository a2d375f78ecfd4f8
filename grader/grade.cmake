# Grades a submission: copies it, configures and builds, runs the checks, and has tilelab-report print the tables
# and write results.json (Gradescope's) and summary.json (a batch's) from the checks' records.
#   cmake [-DSUBMISSION=<folder laid out like labs/>] [-DBUILD=<build folder, default build/grade>]
#         [-DRESULTS=<results.json>] [-DSUMMARY=<summary.json>] ["-DCONFIGURE_ARGS=-DA=1|-DB=2"] [-DKIT=<kit build>] [-DJOBS=4]
#         [-DLABS=<labs: 02;03, lab02,lab03 or 02_tiled; default $ENV{TILELAB_LABS}, else all>] -P grader/grade.cmake
# Only the assignment's LABS are built, run and counted. A submission with no lab folder (a file uploaded on its own)
# has each file placed in the folder of the one lab of the assignment that takes a file of its name.
# With KIT (grader/batch.sh), only the submission's lab files are built, against that kit; CONFIGURE_ARGS were the
# kit's. Exits non-zero when a check failed. The kit's files are sealed before the labs' programs run and checked
# after (tilelab-grade): if any changed, no grade.
cmake_minimum_required(VERSION 3.22...3.25)
get_filename_component(root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
foreach(default "SUBMISSION=labs" "BUILD=${root}/build/grade" "JOBS=4" "GPU_QUEUE_SECONDS=900" "SUMMARY=")
  string(REGEX MATCH "^([A-Z_]+)=(.*)$" unused "${default}")
  if(NOT DEFINED ${CMAKE_MATCH_1})
    set(${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")  # GPU_QUEUE_SECONDS: in a batch, a GPU check's longest wait for its turn
  endif()
endforeach()
if(NOT DEFINED LABS)
  set(LABS "$ENV{TILELAB_LABS}")
endif()
get_filename_component(build "${BUILD}" ABSOLUTE)
if(NOT DEFINED RESULTS)
  set(RESULTS "${build}/results.json")
endif()
if(SUMMARY STREQUAL "")
  set(SUMMARY "${build}/summary.json")
endif()
string(REPLACE "|" ";" configure_args "${CONFIGURE_ARGS}")
set(kit "${build}")  # where the kit's programs are: this build, or the kit a batch built once
if(DEFINED KIT)
  get_filename_component(kit "${KIT}" ABSOLUTE)
  if(NOT EXISTS "${kit}/tilelab-kit-settings.cmake")
    message(FATAL_ERROR "KIT: ${kit} is not a built kit (no tilelab-kit-settings.cmake): grader/batch.sh builds one")
  endif()
endif()
string(TIMESTAMP started "%s")
execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
# The labs are built from a copy of the submission (tilelab-grade: grader/grade/submission_copy.hpp), or from the
# kit's own labs/ or solutions/.
get_filename_component(submission_path "${SUBMISSION}" ABSOLUTE)
set(copy "")
if(SUBMISSION MATCHES "^(labs|solutions)$")
  set(submission_path "${SUBMISSION}")
elseif(IS_DIRECTORY "${submission_path}")
  set(copy --copy)
endif()
# The model answers, out of reach of the labs' user: solutions/ closed to "others" (its owner and group, who build
# the kit's gate kernels from it, keep their rights). Gradescope's image does not hold it at all.
if(uid STREQUAL "0" AND IS_DIRECTORY "${root}/solutions" AND NOT SUBMISSION STREQUAL "solutions")
  execute_process(COMMAND chmod o-rwx "${root}/solutions" RESULT_VARIABLE closed)
  if(NOT closed EQUAL 0)
    message(FATAL_ERROR "cannot close ${root}/solutions to the labs' user (chmod o-rwx); a lab could read the model answers")
  endif()
endif()
if(DEFINED KIT)
  set(configure -S "${root}/grader/submission" -G Ninja "-DTILELAB_KIT=${kit}" "-DTILELAB_GPU_QUEUE_SECONDS=${GPU_QUEUE_SECONDS}")
  if("$ENV{TILELAB_GPU_LOCK}" STREQUAL "")
    set(ENV{TILELAB_GPU_LOCK} "${build}/gpu.lock")  # against a kit, the measuring checks take turns by this lock
  endif()
else()
  # The kit's programs, built here first (grading the stubs, which nobody runs); tilelab-grade then configures the
  # build again for the submission's labs.
  set(configure -S "${root}" --preset grade -DTILELAB_ONE_ARCHITECTURE=ON ${configure_args})
  execute_process(COMMAND "${CMAKE_COMMAND}" ${configure} -B "${build}" -DTILELAB_SOURCE=labs
                  WORKING_DIRECTORY "${root}" RESULT_VARIABLE result)
  if(result EQUAL 0)
    execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" RESULT_VARIABLE result)
  endif()
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "configuring or building the kit failed (see above); the labs themselves are built by the tests")
  endif()
endif()
# The rest is the kit's program tilelab-grade (grader/grade/main.cpp): the assignment read, the submission copied and
# its build configured, the kit's files sealed, the GPU found once, the labs built, the checks run, the seal checked,
# and the grade reported by tilelab-report (the options after --).
list(TRANSFORM configure PREPEND "--configure-arg;")
set(against_kit "")
if(DEFINED KIT)
  set(against_kit --against-kit)
endif()
load_cache("${kit}" READ_WITH_PREFIX kit_ CMAKE_CUDA_ARCHITECTURES)
string(REPLACE ";" ", " architectures "${kit_CMAKE_CUDA_ARCHITECTURES}")
execute_process(COMMAND "${kit}/grader/tilelab-grade" --root "${root}" --build "${build}" --kit "${kit}" ${against_kit}
                        --jobs ${JOBS} --cmake "${CMAKE_COMMAND}" --ctest "${CMAKE_CTEST_COMMAND}" --results "${RESULTS}"
                        --summary "${SUMMARY}" --submission "${SUBMISSION}" --source "${submission_path}" ${copy}
                        --labs "${LABS}" --started ${started} ${configure} --no-gpu-note "the GPU backend was compiled for CUDA architecture ${architectures} only, nvcc's check that the labs compile (its checks are skipped)"
                        RESULT_VARIABLE graded)
if(graded EQUAL 1)
  message(FATAL_ERROR "not every check passed (see the points above)")
elseif(NOT graded EQUAL 0)
  set(reason "tilelab-grade did not start: ${graded}")
  if(EXISTS "${build}/no-grade.txt")
    file(READ "${build}/no-grade.txt" reason)  # tilelab-grade's reason, for Gradescope's results.json too
  endif()
  message(FATAL_ERROR "no grade: ${reason}")
endif()
