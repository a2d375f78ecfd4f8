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
include("${CMAKE_CURRENT_LIST_DIR}/TileLabChecks.cmake")

# Sets @p variable to @p value where it is empty (an argument left out).
macro(_tilelab_default variable value)
  if(NOT ${variable})
    set(${variable} "${value}")
  endif()
endmacro()

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

# The suites a lab runs at a tile width: its registry suites less the gate's away from TILELAB_PERF_TILE_WIDTH and less
# @p skip. Also sets <out_var>_GATE, the performance gate's suites (one per rung) where they run (on the GPU).
function(_tilelab_lab_suites out_var lab tile_width backend skip)
  set(suites "")
  set(gate "")
  foreach(suite IN LISTS TILELAB_${lab}_SUITES)
    if(suite IN_LIST skip OR (suite IN_LIST TILELAB_GATE_SUITES AND NOT tile_width EQUAL TILELAB_PERF_TILE_WIDTH))
      continue()
    endif()
    list(APPEND suites ${suite})
    if(suite IN_LIST TILELAB_GATE_SUITES AND backend STREQUAL "gpu")
      list(APPEND gate ${suite})
    endif()
  endforeach()
  set(${out_var} ${suites} PARENT_SCOPE)
  set(${out_var}_GATE ${gate} PARENT_SCOPE)
endfunction()

# The performance gate's rungs, a test <prefix>.<suite> for each of @p suites (bottom to top): the lab's gate runner
# (<target>_gate) raced against each rung's reference. With the labs as modules (_tilelab_runner_is_module), the rungs
# are one part of their submission's series, one after another in one checker, as a lab's checks are, and each rung's
# test shows its verdict.
function(_tilelab_add_gate_tests prefix run suites target labels backend)
  string(REPLACE "$<TARGET_FILE:${target}>" "$<TARGET_FILE:${target}_gate>" program "${ARGN}")
  _tilelab_runner_is_module(module ${backend})
  set(series "")
  set(series_timeout ${TILELAB_GPU_QUEUE_SECONDS})
  set(cost 0)  # CTest starts the costliest series first: their suites' time factors, twice at TILE_WIDTH 32
  foreach(suite IN LISTS suites)
    math(EXPR timeout "${TILELAB_TEST_TIMEOUT} * ${TILELAB_SUITE_${suite}_TIME_FACTOR}")
    if(module AND program MATCHES "tilelab-checker")
      math(EXPR seconds "${timeout} * 9 / 10")
      math(EXPR series_timeout "${series_timeout} + ${timeout}")
      list(APPEND series --suite ${suite}:${seconds})
      _tilelab_add_shown_check(${prefix} ${suite} "${labels};gpu;${suite}" gpu checked)
      continue()
    endif()
    _tilelab_checker_limits(command ${timeout} ${prefix}.${suite} ${program})
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
  if(series)
    _tilelab_join_shared_run(${run}.checks ${prefix} checked OFF ${series_timeout} ${program}
                             --verdict-file "${CMAKE_BINARY_DIR}/verdicts/${prefix}" ${series})
  endif()
endfunction()

# The test <prefix>.<suite> of a check that another test runs: it shows what that run of it printed, and its
# verdict, once the run is over (fixture <prefix>.<fixture>) and only where the lab built (<prefix>.built).
function(_tilelab_add_shown_check prefix suite labels backend fixture)
  add_test(NAME ${prefix}.${suite} COMMAND "$<TARGET_FILE:tilelab-checker-${backend}>" --show-verdict
           "${CMAKE_BINARY_DIR}/verdicts/${prefix}.${suite}")
  set_tests_properties(${prefix}.${suite} PROPERTIES LABELS "${labels}" TIMEOUT 30 SKIP_RETURN_CODE 77
                       FIXTURES_REQUIRED "${prefix}.${fixture};${prefix}.built")
endfunction()

# The lab's checks at a tile width as one series, the test <prefix>.checks: one checker and one lab's program (one
# CUDA context, which a GPU creates one at a time) for all of them, each check with its own limit, output and
# verdict, which the check's own test <prefix>.<suite> shows. The checker derives the rest of a check's policy (its
# requests' limits, whether it holds the GPU alone) from the registry (grader/src/suite_series.hpp). Checks that
# measure the GPU come last in the series: they hold it alone from their start to the series' end (in a batch,
# other submissions' checks share the GPU). The performance gate's rungs are tests of their own; a check that needs
# the other backend reports itself skipped.
function(_tilelab_add_checks prefix run id target tile_width backend labels suites)
  set(gate_suites "")
  set(series "")
  set(measuring_series "")
  set(series_timeout ${TILELAB_GPU_QUEUE_SECONDS})
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
  if(gate_suites)
    _tilelab_add_gate_tests(${prefix} ${run} "${gate_suites}" ${target} "${labels}" ${backend} ${ARGN})
  endif()
  if(series STREQUAL "" AND measuring_series STREQUAL "")
    return()
  endif()
  set(command ${ARGN})
  if(ARGN MATCHES "tilelab-checker")
    list(APPEND command --verdict-file "${CMAKE_BINARY_DIR}/verdicts/${prefix}" ${series} ${measuring_series})
  endif()
  _tilelab_runner_is_module(module ${backend})
  if(module AND ARGN MATCHES "tilelab-checker")
    set(last OFF)
    if(NOT measuring_series STREQUAL "")
      set(last ON)
    endif()
    _tilelab_join_shared_run(${run}.checks ${prefix} checked ${last} ${series_timeout} ${command})
    return()
  endif()
  add_test(NAME ${prefix}.checks COMMAND ${command})
  if(tile_width EQUAL 32)
    math(EXPR cost "${cost} * 2")  # four times the threads a block, whose emulation shows in every suite
  endif()
  set_tests_properties(${prefix}.checks PROPERTIES LABELS "${labels};${backend};checks" TIMEOUT ${series_timeout}
                       FIXTURES_REQUIRED ${prefix}.built FIXTURES_SETUP ${prefix}.checked COST ${cost})
  if(NOT measuring_series STREQUAL "" AND NOT TILELAB_GPU_LEASE)
    # Alone on the GPU: cudaMemGetInfo sees the whole GPU (another test allocating at the same time would look
    # like a leak), and the clock check compares timings that another kernel would disturb. Graded against a
    # kit (TILELAB_GPU_LEASE), the GPU lock does this for the measuring checks alone.
    set_tests_properties(${prefix}.checks PROPERTIES RUN_SERIAL TRUE)
  endif()
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
  get_property(part GLOBAL PROPERTY TILELAB_SHARED_RUN_PARTS)  # parts so far, in every run
  math(EXPR part "${part} + 1")
  set_property(GLOBAL PROPERTY TILELAB_SHARED_RUN_PARTS ${part})
  set_property(GLOBAL PROPERTY TILELAB_SHARED_RUN_PART_${part} ${prefix} ${prefix}.${fixture}
               ${ARGN} --built-record "${CMAKE_BINARY_DIR}/verdicts/${prefix}.build.json")
  set(order FIRST)
  if(last)
    set(order LAST)
  endif()
  set_property(GLOBAL APPEND PROPERTY TILELAB_SHARED_RUN_${order}_${run} ${part})
  get_property(all GLOBAL PROPERTY TILELAB_SHARED_RUNS)
  if(NOT run IN_LIST all)
    set_property(GLOBAL APPEND PROPERTY TILELAB_SHARED_RUNS ${run})
    set_property(GLOBAL PROPERTY TILELAB_SHARED_RUN_CHECKER_${run} "${checker}")
    set_property(GLOBAL PROPERTY TILELAB_SHARED_RUN_TIMEOUT_${run} ${TILELAB_GPU_QUEUE_SECONDS})
  endif()
  # compute-sanitizer's run is one run, then the labs again in smaller runs after a failure: the checker's
  # run_sanitizer_group runs each lab three times at most.
  set(runs 3)
  if(run MATCHES "[.]checks$")
    set(runs 1)
  endif()
  get_property(seconds GLOBAL PROPERTY TILELAB_SHARED_RUN_TIMEOUT_${run})
  math(EXPR seconds "${seconds} + ${runs} * (${timeout} - ${TILELAB_GPU_QUEUE_SECONDS})")
  set_property(GLOBAL PROPERTY TILELAB_SHARED_RUN_TIMEOUT_${run} ${seconds})
  if(NOT all)  # the tests, once every lab of the directory has joined its runs
    cmake_language(DEFER CALL _tilelab_add_shared_run_tests)
  endif()
endfunction()

# The tests of _tilelab_join_shared_run, after their labs' builds.
function(_tilelab_add_shared_run_tests)
  get_property(all GLOBAL PROPERTY TILELAB_SHARED_RUNS)
  foreach(run IN LISTS all)
    get_property(first GLOBAL PROPERTY TILELAB_SHARED_RUN_FIRST_${run})
    get_property(last GLOBAL PROPERTY TILELAB_SHARED_RUN_LAST_${run})
    get_property(command GLOBAL PROPERTY TILELAB_SHARED_RUN_CHECKER_${run})
    get_property(timeout GLOBAL PROPERTY TILELAB_SHARED_RUN_TIMEOUT_${run})
    set(fixtures "")
    set(builds "")
    set(separator "")
    foreach(number IN LISTS first last)
      get_property(part GLOBAL PROPERTY TILELAB_SHARED_RUN_PART_${number})
      list(POP_FRONT part prefix fixture)
      list(APPEND command ${separator} ${part})
      set(separator --then)
      list(APPEND fixtures ${fixture})
      list(APPEND builds ${prefix}.build)
    endforeach()
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

# <program> (with its limits) running the sanitized suite (eight shapes with partial tiles, see shapes.hpp) with
# the lab's runner under compute-sanitizer's @p tool; the checker limits each request (checker_options.cpp).
function(_tilelab_sanitizer_command out_var tool)
  set(${out_var} ${ARGN} --sanitizer "${TILELAB_COMPUTE_SANITIZER}" --sanitizer-tool ${tool} --test-suite=sanitized
      PARENT_SCOPE)
endfunction()

# compute-sanitizer's runs of a lab, <prefix>.<tool>, at TILELAB_SANITIZER_TILE_WIDTH: on the GPU where
# compute-sanitizer was found; on the CPU backend, tests that report themselves skipped.
function(_tilelab_add_sanitizer_tests prefix run lab tile_width backend labels)
  if(NOT tile_width EQUAL TILELAB_SANITIZER_TILE_WIDTH)
    return()
  endif()
  foreach(tool IN LISTS TILELAB_${lab}_SANITIZER_TOOLS)
    if(backend STREQUAL "cpu")
      _tilelab_add_skipped_test(${prefix} ${tool} ${TILELAB_${lab}_ID} ${tile_width} cpu "${TILELAB_SANITIZER_GPU_ONLY}"
                                "${labels};cpu;sanitizer;${tool}")
    elseif(TILELAB_COMPUTE_SANITIZER)
      math(EXPR timeout "${TILELAB_TEST_TIMEOUT} * 5")
      _tilelab_checker_limits(command ${timeout} ${prefix}.${tool} ${ARGN})
      _tilelab_sanitizer_command(command ${tool} ${command})
      math(EXPR timeout "${timeout} + ${TILELAB_GPU_QUEUE_SECONDS}")
      _tilelab_runner_is_module(module ${backend})
      if(module AND command MATCHES "tilelab-checker")
        _tilelab_join_shared_run(${run}.${tool} ${prefix} ${tool}-ran OFF ${timeout} ${command})
        _tilelab_add_shown_check(${prefix} ${tool} "${labels};gpu;sanitizer;${tool}" gpu ${tool}-ran)
        continue()
      endif()
      add_test(NAME ${prefix}.${tool} COMMAND ${command})
      set_tests_properties(${prefix}.${tool} PROPERTIES LABELS "${labels};gpu;sanitizer;${tool}"
                           TIMEOUT ${timeout} SKIP_RETURN_CODE 77 FIXTURES_REQUIRED ${prefix}.built)
    endif()
  endforeach()
endfunction()

# tilelab_add_lab(SUBMISSION <name> ROOT <dir> LAB <folder> TILE_WIDTH <n> [BACKEND gpu|cpu]
#                 [EXPECT <mode>] [MATCH <regex>] [TABLE_MATCH <regex>] [TIMEOUT <seconds>] [SUITES <suite>...]
#                 [SKIP_CHECKS <suite>...] [LABELS <label>...])
# Tests are named <submission>.<lab>.tw<n>[.cpu].<check>: the CPU backend's carry ".cpu" and the label cpu,
# the GPU backend's the label gpu. EXPECT pass (the default): every check must pass; the self-test's other modes
# are grader/selftest/expectations.cmake's.
function(tilelab_add_lab)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "SUBMISSION;ROOT;LAB;TILE_WIDTH;BACKEND;EXPECT;MATCH;TABLE_MATCH;TIMEOUT"
                        "SUITES;SKIP_CHECKS;LABELS")
  _tilelab_default(arg_EXPECT pass)
  _tilelab_default(arg_BACKEND gpu)
  set(backend ${arg_BACKEND})
  set(id ${TILELAB_${arg_LAB}_ID})
  if(NOT id)
    message(FATAL_ERROR "TileLab: '${arg_LAB}' is not the folder of a lab in ${TILELAB_REGISTRY}")
  endif()
  set(target "tilelab_${arg_SUBMISSION}_${id}_tw${arg_TILE_WIDTH}")
  set(prefix "${arg_SUBMISSION}.${id}.tw${arg_TILE_WIDTH}")
  if(backend STREQUAL "cpu")
    string(APPEND target "_cpu")
    string(APPEND prefix ".cpu")
  endif()
  set(labels ${arg_LABELS} ${id} tw${arg_TILE_WIDTH})
  _tilelab_lab_suites(suites ${arg_LAB} ${arg_TILE_WIDTH} ${backend} "${arg_SKIP_CHECKS}")
  _tilelab_add_lab_targets(build_command program ${prefix} ${arg_SUBMISSION} "${arg_ROOT}" ${arg_LAB} ${arg_TILE_WIDTH}
                           ${backend} ${target} "${suites_GATE}")
  if(arg_EXPECT STREQUAL "build-fails")
    _tilelab_expect_build_failure(${prefix} "${arg_MATCH}" "${labels};${backend};build" ${build_command})
    return()
  endif()
  # Builds share one build tree, so they take turns; each build is itself parallel.
  add_test(NAME ${prefix}.build COMMAND ${build_command})
  set_tests_properties(${prefix}.build PROPERTIES LABELS "${labels};${backend};build" TIMEOUT 300
                       RESOURCE_LOCK tilelab_build_tree FIXTURES_SETUP ${prefix}.built)
  if(arg_EXPECT STREQUAL "pass")
    # A shared run's name (_tilelab_join_shared_run), with its kind after it.
    set(run ${arg_SUBMISSION}.tw${arg_TILE_WIDTH})
    _tilelab_add_checks(${prefix} ${run} ${id} ${target} ${arg_TILE_WIDTH} ${backend} "${labels}" "${suites}" ${program})
    _tilelab_add_sanitizer_tests(${prefix} ${run} ${arg_LAB} ${arg_TILE_WIDTH} ${backend} "${labels}" ${program})
    return()
  endif()
  _tilelab_add_expectation(${prefix} ${arg_EXPECT} "${arg_MATCH}" "${arg_TABLE_MATCH}" "${arg_TIMEOUT}" ${target}
                           ${backend} "${labels}"
                           "${arg_SUITES}" "${suites}" ${program})
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
