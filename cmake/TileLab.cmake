# The one place that knows how a lab becomes tests. Each (submission, lab, tile width) gets a runner (the lab's files,
# its adapter and the runner's harness: TileLabRunner.cmake); a test "<prefix>.build" that builds it, so a file that
# does not compile fails that lab's tests alone; a test "<prefix>.checks" that runs the lab's checks one after another
# in one checker (grader/src/suite_series.hpp) once the build has passed (a CTest fixture), with one test per check
# that shows its output and verdict; and tests of their own for the performance gate and compute-sanitizer's runs.
# What each lab is, and each suite's policy, come from grader/labs.json (TileLabRegistry.cmake).
include_guard(GLOBAL)
# Seconds a GPU check may wait for its turn on the GPU beyond its own limit: 0 in a build of one submission, where
# CTest's RUN_SERIAL keeps measuring checks apart; grade.cmake -DKIT raises it for a batch (see gpu_lease.hpp), whose
# checks always run with a GPU lock (TILELAB_GPU_LEASE, set by grader/submission), so need no RUN_SERIAL.
if(NOT DEFINED TILELAB_GPU_QUEUE_SECONDS)
  set(TILELAB_GPU_QUEUE_SECONDS 0)
endif()
set(TILELAB_ASSIGNMENT "" CACHE STRING "The labs graded as the submission: their folders (tilelab-grade reads an assignment's numbers and ids); empty: all labs")
get_filename_component(_tilelab_kit_source_dir "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(_tilelab_gate_environment "TILELAB_MIN_SPEEDUP=${TILELAB_MIN_SPEEDUP};TILELAB_GATE_CUDA_FLAGS=${TILELAB_GATE_CUDA_FLAGS}")
include("${CMAKE_CURRENT_LIST_DIR}/TileLabRegistry.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/TileLabRunner.cmake")

# Sets @p variable to @p value where it is empty (an argument left out).
macro(_tilelab_default variable value)
  if(NOT ${variable})
    set(${variable} "${value}")
  endif()
endmacro()

# tilelab_record_command(<out_var> <test> <lab id> <tile width> <backend> <option>...): the command of
# tilelab-build-check (grader/tools/tilelab_build_check.cpp) writing <test>'s record, <build>/verdicts/<test>.json
# (grader/src/check_record.hpp), and its output beside it, <test>.log; its <option>s say what the check is: the build
# check's (TileLabRunner.cmake); --fail <message>, a lab with a missing file; or --skip <reason>, a check that needs
# the other backend, skipped (exit 77), its record saying why, the check's name being the test's last part.
function(tilelab_record_command out_var test lab tile_width backend)
  set(${out_var} "$<TARGET_FILE:tilelab-build-check>" --record "${CMAKE_BINARY_DIR}/verdicts/${test}.json" --lab ${lab}
      --tile-width ${tile_width} --backend ${backend} ${ARGN} PARENT_SCOPE)
endfunction()

# A test that reports itself skipped, saying why in its record: on the CPU backend, a check that needs a GPU; on the
# GPU backend, one whose evidence is the CPU backend's emulator's (a technique check), which the CPU backend's test of
# it decides. Graded on the GPU backend alone, such a check has no CPU backend to decide it: it fails, saying so,
# rather than leave the speed points to the gate alone (the technique check is what stops the gate's decoys).
function(_tilelab_add_skipped_test prefix check id tile_width backend reason labels)
  set(verdict --skip "${reason}")
  if(backend STREQUAL "gpu" AND NOT "cpu" IN_LIST TILELAB_BACKENDS)
    set(verdict --fail "not graded: this check needs the CPU backend (${reason}), and this kit was built with the GPU backend alone (TILELAB_BACKENDS=gpu); grade with both backends (Boost.Context installed) to earn these points")
  endif()
  tilelab_record_command(command ${prefix}.${check} ${id} ${tile_width} ${backend} ${verdict})
  add_test(NAME ${prefix}.${check} COMMAND ${command})
  set_tests_properties(${prefix}.${check} PROPERTIES LABELS "${labels}" SKIP_RETURN_CODE 77)
endfunction()

# <program> with the checker's own limits for a test: it stops the lab's program a little before CTest's TIMEOUT
# would stop the checker, so the failure says why; and it writes its verdict where grade.cmake reads it. Nothing
# added to a command that is not a checker (a missing lab).
function(_tilelab_checker_limits out_var timeout test_name)
  if(ARGN MATCHES "tilelab-checker")
    math(EXPR seconds "${timeout} * 9 / 10")
    set(limits --time-limit ${seconds} --verdict-file "${CMAKE_BINARY_DIR}/verdicts/${test_name}")
  endif()
  set(${out_var} ${ARGN} ${limits} PARENT_SCOPE)
endfunction()

# The test <prefix>.<suite> of a check that another test runs: it shows what that run of it printed, and its
# verdict, once the run is over (fixture <prefix>.<fixture>) and only where the lab built (<prefix>.built).
function(_tilelab_add_shown_check prefix suite labels backend fixture)
  add_test(NAME ${prefix}.${suite} COMMAND "$<TARGET_FILE:tilelab-checker-${backend}>" --show-verdict
           "${CMAKE_BINARY_DIR}/verdicts/${prefix}.${suite}")
  set_tests_properties(${prefix}.${suite} PROPERTIES LABELS "${labels}" TIMEOUT 30 SKIP_RETURN_CODE 77
                       FIXTURES_REQUIRED "${prefix}.${fixture};${prefix}.built")
endfunction()

# A lab's checks at a tile width (@p suites; @p ARGN, the checker's command), each with a test that shows its verdict:
# - a check that needs the other backend reports itself skipped;
# - the performance gate's rungs (bottom to top): the lab's gate runner (<target>_gate) raced against each rung's
#   reference, a test each;
# - the rest as one series, the test <prefix>.checks: one checker and one lab's program (one CUDA context, which a GPU
#   creates one at a time) for all of them, each check with its own limit, output and verdict. The checker derives
#   the rest of a check's policy (its requests' limits, whether it holds the GPU alone) from the registry
#   (grader/src/suite_series.hpp). Checks that measure the GPU come last in the series: they hold it alone from their
#   start to the series' end (in a batch, other submissions' checks share the GPU);
# - compute-sanitizer's runs, <prefix>.<tool>, at TILELAB_SANITIZER_TILE_WIDTH: on the GPU where compute-sanitizer
#   was found; on the CPU backend, tests that report themselves skipped.
# With the labs as modules (_tilelab_runner_is_module), the gate's rungs, the series and each tool's run are parts of
# their submission's shared runs, @p run.<kind> (_tilelab_join_shared_run), instead.
function(_tilelab_add_checks prefix run lab target tile_width backend labels suites)
  set(id ${TILELAB_${lab}_ID})
  set(checker OFF)
  set(module OFF)
  if(ARGN MATCHES "tilelab-checker")  # not the failing command of a lab with a missing file
    set(checker ON)
    _tilelab_runner_is_module(module ${backend})
  endif()
  foreach(list gate_suites series measuring_series gate_series)
    set(${list} "")
  endforeach()
  set(series_timeout ${TILELAB_GPU_QUEUE_SECONDS})
  set(gate_timeout ${TILELAB_GPU_QUEUE_SECONDS})
  set(cost 0)  # CTest starts the costliest series first: their suites' time factors, twice at TILE_WIDTH 32
  foreach(suite IN LISTS suites)
    math(EXPR timeout "${TILELAB_TEST_TIMEOUT} * ${TILELAB_SUITE_${suite}_TIME_FACTOR}")
    math(EXPR seconds "${timeout} * 9 / 10")
    set(other_backend_only "${TILELAB_SUITE_${suite}_GPU_ONLY}")  # why this backend cannot make the check
    if(backend STREQUAL "gpu")
      set(other_backend_only "${TILELAB_SUITE_${suite}_CPU_ONLY}")
    endif()
    if(TILELAB_SUITE_${suite}_ONE_TILE_WIDTH AND NOT tile_width EQUAL TILELAB_PERF_TILE_WIDTH)
      # Lab 04's host code is the same at every tile width: its measuring checks run at one, as the gate does.
    elseif(NOT other_backend_only STREQUAL "")
      _tilelab_add_skipped_test(${prefix} ${suite} ${id} ${tile_width} ${backend} "${other_backend_only}"
                                "${labels};${backend};${suite}")
    elseif(TILELAB_SUITE_${suite}_KIND STREQUAL "gate")
      list(APPEND gate_suites ${suite})
    else()
      if(backend STREQUAL "gpu" AND TILELAB_SUITE_${suite}_MEASURES_GPU)
        list(APPEND measuring_series --suite ${suite}:${seconds})
      else()
        list(APPEND series --suite ${suite}:${seconds})
      endif()
      math(EXPR series_timeout "${series_timeout} + ${timeout}")
      math(EXPR cost "${cost} + ${TILELAB_SUITE_${suite}_TIME_FACTOR}")
      _tilelab_add_shown_check(${prefix} ${suite} "${labels};${backend};${suite}" ${backend} checked)
    endif()
  endforeach()

  string(REPLACE "$<TARGET_FILE:${target}>" "$<TARGET_FILE:${target}_gate>" gate_program "${ARGN}")
  foreach(suite IN LISTS gate_suites)
    math(EXPR timeout "${TILELAB_TEST_TIMEOUT} * ${TILELAB_SUITE_${suite}_TIME_FACTOR}")
    if(module)
      math(EXPR seconds "${timeout} * 9 / 10")
      math(EXPR gate_timeout "${gate_timeout} + ${timeout}")
      list(APPEND gate_series --suite ${suite}:${seconds})
      _tilelab_add_shown_check(${prefix} ${suite} "${labels};gpu;${suite}" gpu checked)
      continue()
    endif()
    _tilelab_checker_limits(command ${timeout} ${prefix}.${suite} ${gate_program})
    add_test(NAME ${prefix}.${suite} COMMAND ${command} --test-suite=${suite})
    # The checker's own limit leaves out any wait for its turn on the GPU in a batch; CTest's allows for it.
    math(EXPR timeout "${timeout} + ${TILELAB_GPU_QUEUE_SECONDS}")
    set_tests_properties(${prefix}.${suite} PROPERTIES LABELS "${labels};gpu;${suite}" TIMEOUT ${timeout}
                         SKIP_RETURN_CODE 77 FIXTURES_REQUIRED ${prefix}.built ENVIRONMENT "${_tilelab_gate_environment}")
    if(NOT TILELAB_GPU_LEASE)
      # Alone on the GPU: it compares timings that another kernel would disturb. Graded against a kit
      # (TILELAB_GPU_LEASE), the GPU lock does this for the measuring part alone.
      set_tests_properties(${prefix}.${suite} PROPERTIES RUN_SERIAL TRUE)
    endif()
  endforeach()
  if(gate_series)
    _tilelab_join_shared_run(${run}.checks ${prefix} checked OFF ${gate_timeout} ${gate_program}
                             --verdict-file "${CMAKE_BINARY_DIR}/verdicts/${prefix}" ${gate_series})
  endif()

  set(command ${ARGN})
  if(checker)
    list(APPEND command --verdict-file "${CMAKE_BINARY_DIR}/verdicts/${prefix}" ${series} ${measuring_series})
  endif()
  set(measuring OFF)
  if(NOT measuring_series STREQUAL "")
    set(measuring ON)
  endif()
  if(series STREQUAL "" AND NOT measuring)
  elseif(module)
    _tilelab_join_shared_run(${run}.checks ${prefix} checked ${measuring} ${series_timeout} ${command})
  else()
    add_test(NAME ${prefix}.checks COMMAND ${command})
    if(tile_width EQUAL 32)
      math(EXPR cost "${cost} * 2")  # four times the threads a block, whose emulation shows in every suite
    endif()
    set_tests_properties(${prefix}.checks PROPERTIES LABELS "${labels};${backend};checks" TIMEOUT ${series_timeout}
                         FIXTURES_REQUIRED ${prefix}.built FIXTURES_SETUP ${prefix}.checked COST ${cost})
    if(TILELAB_SELFTEST)  # the kit's own tests measure the model answers against the registry's calibration
      set_tests_properties(${prefix}.checks PROPERTIES ENVIRONMENT TILELAB_VERIFY_CALIBRATION=1)
    endif()
    if(measuring AND NOT TILELAB_GPU_LEASE)
      # Alone on the GPU: cudaMemGetInfo sees the whole GPU (another test allocating at the same time would look
      # like a leak), and the clock check compares timings that another kernel would disturb. Graded against a
      # kit (TILELAB_GPU_LEASE), the GPU lock does this for the measuring checks alone.
      set_tests_properties(${prefix}.checks PROPERTIES RUN_SERIAL TRUE)
    endif()
  endif()

  if(NOT tile_width EQUAL TILELAB_SANITIZER_TILE_WIDTH)
    return()
  endif()
  foreach(tool IN LISTS TILELAB_${lab}_SANITIZER_TOOLS)
    set(tool_labels "${labels};${backend};sanitizer;${tool}")
    if(backend STREQUAL "cpu")
      _tilelab_add_skipped_test(${prefix} ${tool} ${id} ${tile_width} cpu "${TILELAB_SANITIZER_GPU_ONLY}" "${tool_labels}")
    elseif(TILELAB_COMPUTE_SANITIZER)
      math(EXPR timeout "${TILELAB_TEST_TIMEOUT} * 5")
      _tilelab_checker_limits(command ${timeout} ${prefix}.${tool} ${ARGN})
      _tilelab_sanitizer_command(command ${tool} ${command})
      math(EXPR timeout "${timeout} + ${TILELAB_GPU_QUEUE_SECONDS}")
      if(module)
        _tilelab_join_shared_run(${run}.${tool} ${prefix} ${tool}-ran OFF ${timeout} ${command})
        _tilelab_add_shown_check(${prefix} ${tool} "${tool_labels}" gpu ${tool}-ran)
      else()
        add_test(NAME ${prefix}.${tool} COMMAND ${command})
        set_tests_properties(${prefix}.${tool} PROPERTIES LABELS "${tool_labels}" TIMEOUT ${timeout}
                             SKIP_RETURN_CODE 77 FIXTURES_REQUIRED ${prefix}.built)
      endif()
    endif()
  endforeach()
endfunction()

# <program> (with its limits) running the sanitized suite (eight shapes with partial tiles, see shapes.hpp) with
# the lab's runner under compute-sanitizer's @p tool; the checker limits each request (checker_options.cpp).
function(_tilelab_sanitizer_command out_var tool)
  set(${out_var} ${ARGN} --sanitizer "${TILELAB_COMPUTE_SANITIZER}" --sanitizer-tool ${tool} --test-suite=sanitized
      PARENT_SCOPE)
endfunction()

# A lab's part in a run that serves every lab of its submission at its tile width (TILELAB_RUNNER_MODULES): one test,
# @p run (<submission>.tw<N>.<kind>), runs the parts one after another in one checker (--then), with one runner host
# that loads each lab's module: one CUDA context for all, where each part would start one (_tilelab_add_runner). Kind
# "checks": each lab's series and its performance gate, labs with measuring checks last (those checks hold the GPU
# alone until their lab's series ends); kind <tool>: each lab's compute-sanitizer run, all in one run of the tool
# while each passes (the checker's run_sanitizer_labs). Each check keeps its own test, which shows it once the run has
# set up <prefix>.<fixture>; a lab whose build failed is left out by the checker (--built-record) and its checks'
# tests by CTest (the lab's .built fixture). @p timeout: the part's CTest limit, its wait for the GPU included.
function(_tilelab_join_shared_run run prefix fixture last timeout checker)
  set(order first)
  if(last)
    set(order last)
  endif()
  set_property(GLOBAL APPEND PROPERTY TILELAB_SHARED_RUN_${order}_${run} --then ${ARGN}
               --built-record "${CMAKE_BINARY_DIR}/verdicts/${prefix}.build.json")
  set_property(GLOBAL APPEND PROPERTY TILELAB_SHARED_RUN_${order}_fixtures_${run} ${prefix}.${fixture})
  set_property(GLOBAL APPEND PROPERTY TILELAB_SHARED_RUN_${order}_builds_${run} ${prefix}.build)
  get_property(all GLOBAL PROPERTY TILELAB_SHARED_RUNS)
  if(NOT all)  # the tests, once every lab of the directory has joined its runs
    cmake_language(DEFER CALL _tilelab_add_shared_run_tests)
  endif()
  if(NOT run IN_LIST all)
    set_property(GLOBAL APPEND PROPERTY TILELAB_SHARED_RUNS ${run})
    set_property(GLOBAL PROPERTY TILELAB_SHARED_RUN_checker_${run} "${checker}")
    set_property(GLOBAL PROPERTY TILELAB_SHARED_RUN_timeout_${run} ${TILELAB_GPU_QUEUE_SECONDS})
  endif()
  # compute-sanitizer's run is one run, then the labs again in smaller runs after a failure: the checker's
  # run_sanitizer_group runs each lab three times at most.
  set(runs 3)
  if(run MATCHES "[.]checks$")
    set(runs 1)
  endif()
  get_property(seconds GLOBAL PROPERTY TILELAB_SHARED_RUN_timeout_${run})
  math(EXPR seconds "${seconds} + ${runs} * (${timeout} - ${TILELAB_GPU_QUEUE_SECONDS})")
  set_property(GLOBAL PROPERTY TILELAB_SHARED_RUN_timeout_${run} ${seconds})
endfunction()

# The tests of _tilelab_join_shared_run, after their labs' builds.
function(_tilelab_add_shared_run_tests)
  get_property(all GLOBAL PROPERTY TILELAB_SHARED_RUNS)
  foreach(run IN LISTS all)
    foreach(part checker timeout first last first_fixtures last_fixtures first_builds last_builds)
      get_property(${part} GLOBAL PROPERTY TILELAB_SHARED_RUN_${part}_${run})
    endforeach()
    set(command ${checker} ${first} ${last})
    list(REMOVE_AT command 1)  # the --then before the first part
    set(fixtures ${first_fixtures} ${last_fixtures})
    set(builds ${first_builds} ${last_builds})
    list(REMOVE_DUPLICATES fixtures)
    list(REMOVE_DUPLICATES builds)
    string(REGEX MATCH "[^.]+$" kind "${run}")
    # Started before the short tests (CTest runs the costliest first): each run is a whole tile width's labs one
    # after another, and the checks with the gates longest of all, so a submission's grading ends with its last
    # short test rather than with a run that began last.
    list(LENGTH fixtures cost)
    if(run MATCHES "[.]tw${TILELAB_PERF_TILE_WIDTH}[.]checks$")
      math(EXPR cost "${cost} * 4")  # the gates' tile width: its series holds the gates too
    elseif(kind STREQUAL "checks")
      math(EXPR cost "${cost} * 2")
    endif()
    math(EXPR cost "${cost} * 100")
    add_test(NAME ${run} COMMAND ${command})
    set_tests_properties(${run} PROPERTIES LABELS "gpu;${kind}" TIMEOUT ${timeout} DEPENDS "${builds}"
                         FIXTURES_SETUP "${fixtures}" ENVIRONMENT "${_tilelab_gate_environment}" COST ${cost})
  endforeach()
endfunction()

# tilelab_add_lab(SUBMISSION <name> ROOT <dir> LAB <folder> TILE_WIDTH <n> [BACKEND gpu|cpu]
#                 [EXPECT <mode>] [MATCH <regex>] [TABLE_MATCH <regex>] [TIMEOUT <seconds>] [SUITES <suite>...]
#                 [SKIP_CHECKS <suite>...] [LABELS <label>...])
# Tests are named <submission>.<lab>.tw<n>[.cpu].<check>: the CPU backend's carry ".cpu" and the label cpu,
# the GPU backend's the label gpu. EXPECT pass (the default): every check must pass; the self-test's other modes
# are grader/selftest/expectations.cmake's. The lab's suites are its registry suites less @p SKIP_CHECKS and less the
# gate's away from TILELAB_PERF_TILE_WIDTH; where the gate's run (on the GPU), the lab has a gate runner too.
function(tilelab_add_lab)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "SUBMISSION;ROOT;LAB;TILE_WIDTH;BACKEND;EXPECT;MATCH;TABLE_MATCH;TIMEOUT"
                        "SUITES;SKIP_CHECKS;LABELS")
  _tilelab_default(arg_EXPECT pass)
  _tilelab_default(arg_BACKEND gpu)
  set(backend ${arg_BACKEND})
  set(tile_width ${arg_TILE_WIDTH})
  set(id ${TILELAB_${arg_LAB}_ID})
  if(NOT id)
    message(FATAL_ERROR "TileLab: '${arg_LAB}' is not the folder of a lab in ${TILELAB_REGISTRY}")
  endif()
  set(target "tilelab_${arg_SUBMISSION}_${id}_tw${tile_width}")
  set(prefix "${arg_SUBMISSION}.${id}.tw${tile_width}")
  if(backend STREQUAL "cpu")
    string(APPEND target "_cpu")
    string(APPEND prefix ".cpu")
  endif()
  set(labels ${arg_LABELS} ${id} tw${tile_width})
  set(suites "")
  set(with_gate OFF)
  foreach(suite IN LISTS TILELAB_${arg_LAB}_SUITES)
    set(gate OFF)
    if(suite IN_LIST TILELAB_GATE_SUITES)
      set(gate ON)
    endif()
    if(suite IN_LIST arg_SKIP_CHECKS OR (gate AND NOT tile_width EQUAL TILELAB_PERF_TILE_WIDTH))
      continue()
    endif()
    list(APPEND suites ${suite})
    if(gate AND backend STREQUAL "gpu")
      set(with_gate ON)
    endif()
  endforeach()
  _tilelab_add_lab_targets(build_command program ${prefix} ${arg_SUBMISSION} "${arg_ROOT}" ${arg_LAB} ${tile_width}
                           ${backend} ${target} ${with_gate})
  if(arg_EXPECT STREQUAL "build-fails")
    _tilelab_expect_build_failure(${prefix} "${arg_MATCH}" "${labels};${backend};build" ${build_command})
    return()
  endif()
  # Builds share one build tree, so they take turns; each build is itself parallel.
  add_test(NAME ${prefix}.build COMMAND ${build_command})
  set_tests_properties(${prefix}.build PROPERTIES LABELS "${labels};${backend};build" TIMEOUT 300
                       RESOURCE_LOCK tilelab_build_tree FIXTURES_SETUP ${prefix}.built)
  if(arg_EXPECT STREQUAL "pass")
    # <submission>.tw<n>: its shared runs' name (_tilelab_join_shared_run), their kind after it.
    _tilelab_add_checks(${prefix} ${arg_SUBMISSION}.tw${tile_width} ${arg_LAB} ${target} ${tile_width} ${backend}
                        "${labels}" "${suites}" ${program})
  else()
    _tilelab_add_expectation(${prefix} ${arg_EXPECT} "${arg_MATCH}" "${arg_TABLE_MATCH}" "${arg_TIMEOUT}" ${target}
                             ${backend} "${labels}" "${arg_SUITES}" "${suites}" ${program})
  endif()
endfunction()

# tilelab_add_submission(NAME <name> ROOT <dir> [LABS <folder>...] [TILE_WIDTHS <n>...] [BACKENDS <b>...]
#                        [EXPECT ...] [MATCH <regex>] [SKIP_CHECKS <suite>...] [LABELS <label>...])
# Every lab of a folder laid out like labs/, at every tile width, on every backend (defaults: all labs,
# TILELAB_TILE_WIDTHS, TILELAB_BACKENDS).
function(tilelab_add_submission)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;ROOT;EXPECT;MATCH" "LABS;TILE_WIDTHS;BACKENDS;SKIP_CHECKS;LABELS")
  _tilelab_default(arg_LABS "${TILELAB_LABS}")
  _tilelab_default(arg_TILE_WIDTHS "${TILELAB_TILE_WIDTHS}")
  _tilelab_default(arg_BACKENDS "${TILELAB_BACKENDS}")
  foreach(backend IN LISTS arg_BACKENDS)
    foreach(lab IN LISTS arg_LABS)
      set(tile_widths ${arg_TILE_WIDTHS})
      if(lab IN_LIST TILELAB_FIXED_CONFIGURATION_LABS)
        # One tile width: TILELAB_PERF_TILE_WIDTH where it is among them (so the performance gate runs), else the first.
        list(GET arg_TILE_WIDTHS 0 tile_widths)
        if(TILELAB_PERF_TILE_WIDTH IN_LIST arg_TILE_WIDTHS)
          set(tile_widths ${TILELAB_PERF_TILE_WIDTH})
        endif()
      endif()
      foreach(tile_width IN LISTS tile_widths)
        tilelab_add_lab(SUBMISSION ${arg_NAME} ROOT "${arg_ROOT}" LAB ${lab} TILE_WIDTH ${tile_width} BACKEND ${backend}
                        EXPECT ${arg_EXPECT} MATCH "${arg_MATCH}" SKIP_CHECKS ${arg_SKIP_CHECKS} LABELS ${arg_LABELS})
      endforeach()
    endforeach()
  endforeach()
endfunction()

# tilelab_add_graded_submission(<root_var>): the submission TILELAB_SOURCE names (labs, solutions, or a folder laid
# out like labs/), its labs of TILELAB_ASSIGNMENT registered as "graded", the tests grade.cmake turns into points;
# its folder in <root_var>.
function(tilelab_add_graded_submission root_var)
  get_filename_component(graded_root "${TILELAB_SOURCE}" ABSOLUTE BASE_DIR "${_tilelab_kit_source_dir}")
  if(NOT IS_DIRECTORY "${graded_root}")
    message(FATAL_ERROR "TILELAB_SOURCE: '${TILELAB_SOURCE}' is not a folder (looked for ${graded_root})")
  endif()
  # Only these labs are built, run and counted.
  message(STATUS "TileLab: grading ${graded_root}, labs: ${TILELAB_ASSIGNMENT} (empty: every lab)")
  tilelab_add_submission(NAME graded ROOT "${graded_root}" LABS ${TILELAB_ASSIGNMENT} LABELS graded)
  file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/verdicts")
  set(${root_var} "${graded_root}" PARENT_SCOPE)
endfunction()
