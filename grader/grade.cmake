# Grades a submission: builds the kit's programs where no KIT is given, and has the kit's tilelab-grade copy the
# submission, configure and build its labs, run the checks, and have tilelab-report print the tables and write
# results.json (Gradescope's) and summary.json (a batch's) from the checks' records.
#   cmake [-DSUBMISSION=<folder laid out like labs/, default labs>] [-DBUILD=<build folder, default build/grade>]
#         [-DRESULTS=<results.json>] [-DSUMMARY=<summary.json>] ["-DCONFIGURE_ARGS=-DA=1|-DB=2"] [-DKIT=<kit build>] [-DJOBS=4]
#         [-DLABS=<labs: 02;03, lab02,lab03 or 02_tiled; default $ENV{TILELAB_LABS}, else all>] [-DVERBOSE=ON]
#         -P grader/grade.cmake
# The assignment lasts for this grading only: the build is configured back to every lab afterwards.
# Only the assignment's LABS are built, run and counted. A submission with no lab folder (a file uploaded on its own)
# has each file placed in the folder of the one lab of the assignment that takes a file of its name.
# With KIT (grader/batch.sh), only the submission's lab files are built, against that kit; CONFIGURE_ARGS were the
# kit's; GPU_QUEUE_SECONDS (default 900) is a GPU check's longest wait for its turn. -DVERBOSE=ON shows every
# program's output and every table; without it, each step's output goes to <build>/logs/, and the grade shows a
# progress line per step and the points. Exits 0 when a grade was produced, whatever its points; non-zero (with
# "no grade: <reason>") when there is none. The kit's files are sealed before the labs' programs run and checked
# after (tilelab-grade): if any changed, no grade.
cmake_minimum_required(VERSION 3.22...3.25)
get_filename_component(root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
if(NOT DEFINED BUILD)
  set(BUILD "${root}/build/grade")  # the other settings' defaults are tilelab-grade's
endif()
if(NOT DEFINED LABS)
  set(LABS "$ENV{TILELAB_LABS}")
endif()
get_filename_component(build "${BUILD}" ABSOLUTE)
string(TIMESTAMP started "%s")
set(kit "${build}")  # where the kit's programs are: this build, or the kit a batch built once
if(DEFINED KIT)
  get_filename_component(kit "${KIT}" ABSOLUTE)
  if(NOT EXISTS "${kit}/tilelab-kit-settings.cmake")
    message(FATAL_ERROR "KIT: ${kit} is not a built kit (no tilelab-kit-settings.cmake): grader/batch.sh builds one")
  endif()
  set(against_kit --against-kit)
else()
  # The kit's programs, built here first (grading the stubs, which nobody runs); tilelab-grade then configures the
  # build again for the submission's labs, with the same arguments. Quiet unless VERBOSE: CMake's and the
  # compilers' output goes to <build>/logs/, and tilelab-grade builds all but itself with a progress line.
  string(REPLACE "|" ";" configure_args "${CONFIGURE_ARGS}")
  set(configure -S "${root}" --preset grade -DTILELAB_ONE_ARCHITECTURE=ON ${configure_args})
  set(log "${build}/logs/kit-configure.log")
  if(VERBOSE)
    set(quiet "")
  else()
    file(MAKE_DIRECTORY "${build}/logs")
    set(quiet OUTPUT_FILE "${log}" ERROR_FILE "${log}")
    message("TileLab: configuring the kit (the log: ${log})")
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" ${configure} -B "${build}" -DTILELAB_SOURCE=labs -DTILELAB_ASSIGNMENT=
                  RESULT_VARIABLE result ${quiet})
  if(result EQUAL 0 AND VERBOSE)
    execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" RESULT_VARIABLE result)
  elseif(result EQUAL 0)
    set(log "${build}/logs/kit-tools.log")
    execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --target tilelab-grade RESULT_VARIABLE result
                    OUTPUT_FILE "${log}" ERROR_FILE "${log}")
    if(result EQUAL 0)
      set(log "${build}/logs/kit-build.log")
      execute_process(COMMAND "${build}/grader/tilelab-grade" --build-kit "${build}" --cmake "${CMAKE_COMMAND}"
                      RESULT_VARIABLE result)
    endif()
  endif()
  if(NOT result EQUAL 0)
    if(NOT VERBOSE AND EXISTS "${log}")
      file(STRINGS "${log}" lines)
      list(LENGTH lines count)
      if(count GREATER 40)
        math(EXPR first "${count} - 40")
        list(SUBLIST lines ${first} 40 lines)
      endif()
      list(JOIN lines "\n" tail)
      message("${tail}")
    endif()
    message(FATAL_ERROR "configuring or building the kit failed (see above); the labs themselves are built by the tests")
  endif()
  list(TRANSFORM configure PREPEND "--configure-arg;")
endif()
if(VERBOSE)
  set(verbose --verbose)
endif()
# The rest is the kit's program tilelab-grade (its steps: grader/grade/main.cpp).
execute_process(COMMAND "${kit}/grader/tilelab-grade" --root "${root}" --build "${build}" --kit "${kit}" ${against_kit}
                        --jobs "${JOBS}" --cmake "${CMAKE_COMMAND}" --results "${RESULTS}" --summary "${SUMMARY}"
                        --gpu-queue-seconds "${GPU_QUEUE_SECONDS}" --submission "${SUBMISSION}" --labs "${LABS}"
                        --started ${started} ${verbose} ${configure} RESULT_VARIABLE graded)
if(NOT graded EQUAL 0)  # a grade, whatever its points, is 0 (the platforms read results.json and summary.json)
  set(reason "tilelab-grade did not start: ${graded}")
  if(EXISTS "${build}/no-grade.txt")
    file(READ "${build}/no-grade.txt" reason)  # tilelab-grade's reason, for Gradescope's results.json too
  endif()
  message(FATAL_ERROR "no grade: ${reason}")
endif()
