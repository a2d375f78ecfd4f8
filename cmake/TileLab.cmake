# The one place that knows how a lab becomes tests. Each (submission, lab, tile width) gets:
#   - a program, left out of `all`, made of the lab's files from the submission, the lab's adapter
#     (grader/runner/adapters) and the runner's harness;
#   - a CTest test "<submission>.<lab>.tw<N>.build" that builds it, so a file that does not compile (or is
#     missing) fails that lab's tests, with the compiler's output, and every other lab is still graded;
#   - a test "<prefix>.checks" that runs the lab's checks one after another in one checker (a series, see
#     grader/src/suite_series.hpp), once that build test has passed (a CTest fixture), and one test per check
#     suite that shows that check's output and verdict; the performance gate and compute-sanitizer's runs are
#     tests of their own.
# What each lab is (files, suites, configuration) and each suite's policy come from grader/labs.json.
include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/TileLabRegistry.cmake")

set(_tilelab_cmake_dir "${CMAKE_CURRENT_LIST_DIR}")
# Seconds a GPU check may wait for its turn on the GPU beyond its own limit: 0 in a build of one submission, where
# CTest's RUN_SERIAL keeps measuring checks apart; grade.cmake -DKIT raises it for a batch (see gpu_lease.hpp).
# TILELAB_GPU_LEASE (set by grader/submission): the checks always run with a GPU lock (TILELAB_GPU_LOCK), so the
# measuring ones need no RUN_SERIAL.
if(NOT DEFINED TILELAB_GPU_QUEUE_SECONDS)
  set(TILELAB_GPU_QUEUE_SECONDS 0)
endif()
# The kit's sources (also when a submission is built against a kit built before: grader/submission).
get_filename_component(_tilelab_kit_source_dir "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

# For the build check's rule that a lab's files define nothing of the kit's, CUDA's or the C library's (their
# definitions would replace what the runner's harness calls): c++filt for readable names, and the names the C
# library exports, listed once here.
find_program(TILELAB_CXXFILT c++filt DOC "Demangles C++ names in the build check's messages")
set(TILELAB_LIBC_SYMBOLS "${CMAKE_BINARY_DIR}/tilelab_libc_symbols.txt")
if(NOT EXISTS "${TILELAB_LIBC_SYMBOLS}")
  execute_process(COMMAND "${CMAKE_CXX_COMPILER}" -print-file-name=libc.so.6
                  OUTPUT_VARIABLE _tilelab_libc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  set(_tilelab_libc_names "")
  if(CMAKE_NM AND EXISTS "${_tilelab_libc}")
    execute_process(COMMAND "${CMAKE_NM}" -D --defined-only "${_tilelab_libc}" OUTPUT_VARIABLE _tilelab_libc_names
                    ERROR_QUIET)
    string(REGEX REPLACE "[0-9a-fA-F]+ [A-Za-z] ([^@\n]+)(@[^\n]*)?" "\\1" _tilelab_libc_names "${_tilelab_libc_names}")
  endif()
  file(WRITE "${TILELAB_LIBC_SYMBOLS}" "${_tilelab_libc_names}")
endif()

# tilelab_expect_failure_command(<out_var> MATCH <regex> [TIMEOUT <seconds>] COMMAND <command>...): a test command
# that passes only if the command fails with output matching MATCH, and fails it when it has not ended in TIMEOUT.
function(tilelab_expect_failure_command out_var)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "MATCH;TIMEOUT" "COMMAND")
  set(timeout "")
  if(arg_TIMEOUT)
    set(timeout "-DTIMEOUT=${arg_TIMEOUT}")
  endif()
  set(${out_var} "${CMAKE_COMMAND}" ${timeout} "-DMATCH=${arg_MATCH}" -P
      "${_tilelab_cmake_dir}/tilelab_expect_failure.cmake" -- ${arg_COMMAND} PARENT_SCOPE)
endfunction()

# A test that reports itself skipped on the CPU backend, saying why (the check needs a GPU).
function(_tilelab_add_gpu_only_test name reason labels)
  add_test(NAME ${name} COMMAND "${CMAKE_COMMAND}" -E echo "SKIPPED: GPU only: ${reason}")
  set_tests_properties(${name} PROPERTIES LABELS "${labels}" SKIP_REGULAR_EXPRESSION "SKIPPED: GPU only")
endfunction()

# The lab's sources as the CPU backend compiles them: each rewritten by tilelab-cuda-to-cpp (launches and
# __shared__ declarations, lines kept) and compiled as C++ with the stand-in cuda_runtime.h force-included. The
# rewrite waits for the lab's source check (@p checked, a target): it reads the files with the build's rights, so
# it must never read through a link.
function(_tilelab_cpu_sources target root checked out_var)
  set(out "")
  foreach(source IN LISTS ARGN)
    file(RELATIVE_PATH relative "${root}" "${source}")
    set(rewritten "${CMAKE_CURRENT_BINARY_DIR}/cpu_sources/${target}/${relative}.cpp")
    add_custom_command(OUTPUT "${rewritten}"
                       COMMAND tilelab-cuda-to-cpp "${source}" "${rewritten}"
                       DEPENDS "${source}" tilelab-cuda-to-cpp ${checked}
                       COMMENT "CPU backend: rewriting ${relative}" VERBATIM)
    set_source_files_properties("${rewritten}" PROPERTIES COMPILE_OPTIONS "-include;cuda_runtime.h")
    list(APPEND out "${rewritten}")
  endforeach()
  set(${out_var} ${out} PARENT_SCOPE)
endfunction()

# Kit code linked into every runner of a lab (an adapter, a kit kernel): the same for every submission, so
# compiled once per backend (and tile width, where it depends on it), as an object library @p target.
function(_tilelab_kit_objects target source backend)
  if(backend STREQUAL "cpu")
    get_filename_component(folder "${source}" DIRECTORY)
    _tilelab_cpu_sources(${target} "${folder}" "" source "${source}")
  endif()
  add_library(${target} OBJECT "${source}")
endfunction()

# The adapter of a lab on a backend: grader/runner/adapters/<folder>.cu where the lab has one of its own (lab 04's
# host code), else generic.cu with the lab's launcher, kernel and launch from the registry. The runner is told the
# tile width, so one adapter serves every tile width.
function(_tilelab_adapter lab backend out_var)
  set(adapter tilelab_adapter_${lab}_${backend})
  set(${out_var} ${adapter} PARENT_SCOPE)
  if(TARGET ${adapter})
    return()
  endif()
  set(source "${_tilelab_kit_source_dir}/grader/runner/adapters/${lab}.cu")
  set(definitions "")
  if(NOT EXISTS "${source}")
    if(NOT TILELAB_${lab}_KERNEL)
      message(FATAL_ERROR "TileLab: lab ${lab} has no kernel in grader/labs.json, so it needs an adapter of its own: ${source}")
    endif()
    set(source "${_tilelab_kit_source_dir}/grader/runner/adapters/generic.cu")
    set(definitions TILELAB_LAUNCHER=${TILELAB_${lab}_LAUNCHER} TILELAB_KERNEL=${TILELAB_${lab}_KERNEL})
    if(TILELAB_${lab}_BLOCK_TILE)
      list(APPEND definitions TILELAB_BLOCK_TILE=${TILELAB_${lab}_BLOCK_TILE} TILELAB_THREADS=${TILELAB_${lab}_THREADS})
    endif()
  endif()
  _tilelab_kit_objects(${adapter} "${source}" ${backend})
  target_compile_definitions(${adapter} PRIVATE ${definitions})
  target_link_libraries(${adapter} PRIVATE tilelab_runner_main_${backend})
endfunction()

# The kit kernel of a lab of host code (kit_kernel: lab 04's lab 03 kernel), at a tile width: the kit's copy of that
# lab's model answer (grader/runner/<lab id>/recorded_kernel.cu), built under the contract's names and
# instrumented to record its launches, so that the lab grades the student's host code alone, with a kernel whose
# launches the checker can see.
function(_tilelab_kit_kernel lab backend tile_width out_var)
  set(library tilelab_${TILELAB_${lab}_ID}_kernel_${backend}_tw${tile_width})
  set(${out_var} ${library} PARENT_SCOPE)
  if(NOT TARGET ${library})
    set(folder "${_tilelab_kit_source_dir}/grader/runner/${TILELAB_${lab}_ID}")
    _tilelab_kit_objects(${library} "${folder}/recorded_kernel.cu" ${backend})
    target_compile_definitions(${library} PRIVATE TILE_WIDTH=${tile_width})
    target_include_directories(${library} PRIVATE "${folder}")
    target_link_libraries(${library} PRIVATE tilelab_lab_support_${backend})
  endif()
endfunction()

# The path of the sandbox's compiler launcher (tilelab-sandbox-compile): the kit's own program, or the built kit's
# (grader/submission, where it is imported). A path, not $<TARGET_FILE:...>: CMake before 3.24 runs a compiler
# launcher as written, generator expression and all, so every lab of a submission failed its build on CMake 3.22.
function(_tilelab_sandbox_compile_path out_var)
  get_target_property(imported tilelab-sandbox-compile IMPORTED)
  if(imported)
    get_target_property(path tilelab-sandbox-compile LOCATION)
  else()
    get_target_property(dir tilelab-sandbox-compile BINARY_DIR)
    get_target_property(output_dir tilelab-sandbox-compile RUNTIME_OUTPUT_DIRECTORY)
    if(output_dir)
      set(dir "${output_dir}")
    endif()
    set(path "${dir}/tilelab-sandbox-compile${CMAKE_EXECUTABLE_SUFFIX}")
  endif()
  set(${out_var} "${path}" PARENT_SCOPE)
endfunction()

# The source check of a submission's lab (tilelab-source-check, src/source_policy.hpp): what the lab's files may
# include and name, and no link in their folders, on the files as written, run as the sandbox's user before anything
# compiles or rewrites them; once per submission and lab (the same on every backend and tile width). Sets
# <out_target> and <out_launcher> (the compiler launcher of the lab's files, "" for the kit's own model answers).
function(_tilelab_source_check submission root lab out_target out_launcher)
  set(source_check tilelab_${submission}_${TILELAB_${lab}_ID}_source_check)
  _tilelab_sandbox_compile_path(launcher)
  file(REAL_PATH "${root}" real_root)
  file(REAL_PATH "${_tilelab_kit_source_dir}/solutions" real_solutions)
  if(real_root STREQUAL real_solutions)
    # The kit's own model answers, which grade.cmake closes to the sandbox's user when it grades a submission
    # as root: the kit's code, compiled and checked with the build's own rights.
    set(launcher "")
  endif()
  if(NOT TARGET ${source_check})
    add_custom_target(${source_check} COMMAND ${launcher} "$<TARGET_FILE:tilelab-source-check>" "${root}"
                      ${TILELAB_${lab}_FILES} COMMENT "source check of ${submission}'s ${lab}" VERBATIM)
    add_dependencies(${source_check} tilelab-sandbox-compile tilelab-source-check)
  endif()
  set(${out_target} ${source_check} PARENT_SCOPE)
  set(${out_launcher} "${launcher}" PARENT_SCOPE)
endfunction()

# The runner <target> of a lab: the lab's files alone (<target>_lab, so the build check can see what they define),
# compiled as an unprivileged user of its own when the build runs as root (tilelab-sandbox-compile: hostile source
# never runs a compiler that can write the kit), with the adapter, the lab's kit kernel and the runner's harness.
function(_tilelab_add_runner target lab tile_width backend launcher source_check gate_flags)
  add_library(${target}_lab OBJECT EXCLUDE_FROM_ALL ${ARGN})
  target_compile_definitions(${target}_lab PRIVATE TILE_WIDTH=${tile_width})
  target_compile_options(${target}_lab PRIVATE ${gate_flags})
  target_link_libraries(${target}_lab PRIVATE tilelab_lab_support_${backend})
  set_target_properties(${target}_lab PROPERTIES CXX_COMPILER_LAUNCHER "${launcher}" CUDA_COMPILER_LAUNCHER "${launcher}")
  add_dependencies(${target}_lab tilelab-sandbox-compile ${source_check})
  _tilelab_adapter(${lab} ${backend} adapter)
  add_executable(${target} EXCLUDE_FROM_ALL $<TARGET_OBJECTS:${adapter}>)
  target_link_libraries(${target} PRIVATE ${target}_lab tilelab_runner_main_${backend} tilelab_lab_support_${backend})
  if(TILELAB_${lab}_KIT_KERNEL)
    _tilelab_kit_kernel(${lab} ${backend} ${tile_width} kit_kernel)
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:${kit_kernel}>)
  endif()
endfunction()

# The build test's command (cmake/tilelab_build_lab.cmake: source check, build, the build check's rules), for the
# runners <targets> of a lab whose files are <sources>.
function(_tilelab_build_command out_var root lab backend launcher targets sources)
  list(GET targets 0 target)
  string(REPLACE ";" "|" targets "${targets}")  # that script's lists are "|"-separated
  string(REPLACE ";" "|" sources "${sources}")
  string(REPLACE ";" "," files "${TILELAB_${lab}_FILES}")
  set(${out_var} "${CMAKE_COMMAND}" "-DBUILD_DIR=${CMAKE_BINARY_DIR}" "-DTARGET=${targets}" "-DCONFIG=$<CONFIG>"
      "-DOBJECTS=$<JOIN:$<TARGET_OBJECTS:${target}_lab>,|>" "-DNM=${CMAKE_NM}" "-DCXXFILT=${TILELAB_CXXFILT}"
      "-DLIBC_SYMBOLS=${TILELAB_LIBC_SYMBOLS}" "-DSOURCES=${sources}" "-DBACKEND=${backend}"
      "-DSOURCE_CHECK=$<TARGET_FILE:tilelab-source-check>" "-DSOURCE_LAUNCHER=${launcher}"
      "-DSOURCE_ROOT=${root}" "-DSOURCE_FILES=${files}" -P "${_tilelab_cmake_dir}/tilelab_build_lab.cmake" PARENT_SCOPE)
endfunction()

# The sources and targets of a submission's lab at a tile width on a backend: its runner <target>, and where it has
# a performance gate on the GPU, <target>_gate: the same files built again with global loads cached in L2 only,
# raced against the gate's reference model built the same way (grader/CMakeLists.txt), so that only reuse through
# shared memory counts, not the L1 cache that makes a naive kernel fast on recent GPUs. Sets <out_build> to the
# build test's command and <out_program> to the command that grades the runner; where the submission lacks a file,
# commands that fail saying so.
function(_tilelab_add_lab_targets out_build out_program submission root lab tile_width backend target with_gate)
  set(sources "")
  foreach(file IN LISTS TILELAB_${lab}_FILES)
    # A link counts as there (even one to nothing): the source check then refuses it, naming it.
    if(NOT EXISTS "${root}/${file}" AND NOT IS_SYMLINK "${root}/${file}")
      set(fail -P "${_tilelab_cmake_dir}/tilelab_fail.cmake")
      set(${out_build} "${CMAKE_COMMAND}" "-DMESSAGE=missing file: ${file} is not in ${root}. A submission keeps the layout of labs/ (one folder per lab, with the same file names); add the file and run cmake again." ${fail} PARENT_SCOPE)
      set(${out_program} "${CMAKE_COMMAND}" "-DMESSAGE=not graded: a file of the lab is missing" ${fail} PARENT_SCOPE)
      return()
    endif()
    list(APPEND sources "${root}/${file}")
  endforeach()
  _tilelab_source_check(${submission} "${root}" ${lab} source_check launcher)
  set(compiled ${sources})
  if(backend STREQUAL "cpu")
    _tilelab_cpu_sources(${target} "${root}" ${source_check} compiled ${sources})
  endif()
  _tilelab_add_runner(${target} ${lab} ${tile_width} ${backend} "${launcher}" ${source_check} "" ${compiled})
  set(targets ${target})
  if(with_gate)
    _tilelab_add_runner(${target}_gate ${lab} ${tile_width} ${backend} "${launcher}" ${source_check}
                        "${TILELAB_GATE_CUDA_FLAGS}" ${compiled})
    list(APPEND targets ${target}_gate)
  endif()
  # One target per submission builds all its labs at once (grade.cmake, before the checks).
  if(NOT TARGET tilelab_${submission}_labs)
    add_custom_target(tilelab_${submission}_labs)
  endif()
  add_dependencies(tilelab_${submission}_labs ${targets})
  _tilelab_build_command(command "${root}" ${lab} ${backend} "${launcher}" "${targets}" "${sources}")
  set(${out_build} ${command} PARENT_SCOPE)
  # The checker (no student code) grades the lab's runner, which it starts in a sandbox of its own.
  set(${out_program} "$<TARGET_FILE:tilelab-checker-${backend}>" --lab ${TILELAB_${lab}_ID} --tile-width ${tile_width}
      --runner "$<TARGET_FILE:${target}>" PARENT_SCOPE)
endfunction()

# The checker's own limits for a test, to append to a checker command: it stops the lab's program a little before
# CTest's TIMEOUT would stop the checker, so the failure says why; and it writes its verdict where grade.cmake reads
# it. Nothing for a command that is not a checker (a missing lab).
function(_tilelab_checker_limits out_var timeout test_name)
  set(limits "")
  if(ARGN MATCHES "tilelab-checker")
    math(EXPR seconds "${timeout} * 9 / 10")
    set(limits --time-limit ${seconds} --verdict-file "${CMAKE_BINARY_DIR}/verdicts/${test_name}")
  endif()
  set(${out_var} ${ARGN} ${limits} PARENT_SCOPE)
endfunction()

# The suites a lab runs at a tile width (<out_var>): its registry suites less the gate away from
# TILELAB_PERF_TILE_WIDTH and less @p skip; and (<out_gpu_only>) those of them that only mean something on a GPU,
# on the CPU backend, registered there as tests that report themselves skipped, with the reason.
function(_tilelab_lab_suites out_var out_gpu_only lab tile_width backend skip)
  set(suites "")
  set(gpu_only "")
  foreach(suite IN LISTS TILELAB_${lab}_SUITES)
    if(suite IN_LIST skip OR (TILELAB_SUITE_${suite}_KIND STREQUAL "gate" AND
                              NOT tile_width EQUAL TILELAB_PERF_TILE_WIDTH))
      continue()
    endif()
    list(APPEND suites ${suite})
    if(backend STREQUAL "cpu" AND NOT TILELAB_SUITE_${suite}_GPU_ONLY STREQUAL "")
      list(APPEND gpu_only ${suite})
    endif()
  endforeach()
  set(${out_var} ${suites} PARENT_SCOPE)
  set(${out_gpu_only} ${gpu_only} PARENT_SCOPE)
endfunction()

# Whether any of the suites measures the GPU: in a batch, other submissions' checks share the GPU, and such a test
# holds it alone while it measures.
function(_tilelab_measures_gpu out_var backend)
  set(measures OFF)
  foreach(suite IN LISTS ARGN)
    if(backend STREQUAL "gpu" AND TILELAB_SUITE_${suite}_MEASURES_GPU)
      set(measures ON)
    endif()
  endforeach()
  set(${out_var} ${measures} PARENT_SCOPE)
endfunction()

# The performance gate at <prefix>.<suite>: the gate's runner (<target>_gate) raced against its reference.
function(_tilelab_add_gate_test prefix suite target labels)
  math(EXPR timeout "${TILELAB_TEST_TIMEOUT} * ${TILELAB_SUITE_${suite}_TIME_FACTOR}")
  string(REPLACE "$<TARGET_FILE:${target}>" "$<TARGET_FILE:${target}_gate>" program "${ARGN}")
  _tilelab_checker_limits(command ${timeout} ${prefix}.${suite} ${program})
  add_test(NAME ${prefix}.${suite} COMMAND ${command} --test-suite=${suite})
  # The checker's own limit leaves out any wait for its turn on the GPU in a batch; CTest's allows for it.
  math(EXPR timeout "${timeout} + ${TILELAB_GPU_QUEUE_SECONDS}")
  set_tests_properties(${prefix}.${suite} PROPERTIES LABELS "${labels};gpu;${suite}" TIMEOUT ${timeout}
                       SKIP_RETURN_CODE 77 FIXTURES_REQUIRED ${prefix}.built
                       ENVIRONMENT "TILELAB_MIN_SPEEDUP=${TILELAB_MIN_SPEEDUP};TILELAB_GATE_CUDA_FLAGS=${TILELAB_GATE_CUDA_FLAGS}")
  if(NOT TILELAB_GPU_LEASE)
    # Alone on the GPU: it compares timings that another kernel would disturb. Graded against a kit
    # (TILELAB_GPU_LEASE), the GPU lock does this for the measuring part alone.
    set_tests_properties(${prefix}.${suite} PROPERTIES RUN_SERIAL TRUE)
  endif()
endfunction()

# The lab's checks at a tile width as one series, the test <prefix>.checks: one checker and one lab's program (one
# CUDA context, which a GPU creates one at a time) for all of them, each check with its own limit, output and
# verdict, which the check's own test <prefix>.<suite> shows. The performance gate (a program of its own) is a test
# of its own. Checks that measure the GPU come last in the series: they hold it alone from their start to the
# series' end.
function(_tilelab_add_series prefix target tile_width backend labels suites gpu_only)
  set(series "")
  set(measuring_series "")
  set(series_timeout ${TILELAB_GPU_QUEUE_SECONDS})
  foreach(suite IN LISTS suites)
    if(TILELAB_SUITE_${suite}_ONE_TILE_WIDTH AND NOT tile_width EQUAL TILELAB_PERF_TILE_WIDTH)
      # Lab 04's host code is the same at every tile width: its measuring checks run at one, as the gate does.
      continue()
    elseif(suite IN_LIST gpu_only)
      _tilelab_add_gpu_only_test(${prefix}.${suite} "${TILELAB_SUITE_${suite}_GPU_ONLY}" "${labels};cpu;${suite}")
      continue()
    elseif(TILELAB_SUITE_${suite}_KIND STREQUAL "gate")
      _tilelab_add_gate_test(${prefix} ${suite} ${target} "${labels}" ${ARGN})
      continue()
    endif()
    math(EXPR timeout "${TILELAB_TEST_TIMEOUT} * ${TILELAB_SUITE_${suite}_TIME_FACTOR}")
    # The checker stops the lab's program a little before the check's time is up, so the failure says why.
    math(EXPR seconds "${timeout} * 9 / 10")
    set(request_limit 0)
    if(TILELAB_SUITE_${suite}_KIND MATCHES "^(correctness|structure)$")
      # Each multiply answers in well under a second on either backend: a kernel that never ends is stopped
      # after this long rather than at the check's limit (and, in a batch, does not hold the GPU that long).
      set(request_limit ${TILELAB_REQUEST_LIMIT})
    endif()
    _tilelab_measures_gpu(measures_gpu ${backend} ${suite})
    if(measures_gpu)
      list(APPEND measuring_series --suite ${suite}:${seconds}:${request_limit}:exclusive)
    else()
      list(APPEND series --suite ${suite}:${seconds}:${request_limit}:shared)
    endif()
    math(EXPR series_timeout "${series_timeout} + ${timeout}")
    add_test(NAME ${prefix}.${suite} COMMAND "$<TARGET_FILE:tilelab-checker-${backend}>" --show-verdict
             "${CMAKE_BINARY_DIR}/verdicts/${prefix}.${suite}")
    set_tests_properties(${prefix}.${suite} PROPERTIES LABELS "${labels};${backend};${suite}" TIMEOUT 30
                         SKIP_RETURN_CODE 77 FIXTURES_REQUIRED ${prefix}.checked)
  endforeach()
  if(series STREQUAL "" AND measuring_series STREQUAL "")
    return()
  endif()
  set(command ${ARGN})
  if(ARGN MATCHES "tilelab-checker")
    list(APPEND command --verdict-file "${CMAKE_BINARY_DIR}/verdicts/${prefix}" ${series} ${measuring_series})
  endif()
  add_test(NAME ${prefix}.checks COMMAND ${command})
  set_tests_properties(${prefix}.checks PROPERTIES LABELS "${labels};${backend};checks" TIMEOUT ${series_timeout}
                       FIXTURES_REQUIRED ${prefix}.built FIXTURES_SETUP ${prefix}.checked)
  if(NOT measuring_series STREQUAL "" AND NOT TILELAB_GPU_LEASE)
    # Alone on the GPU: cudaMemGetInfo sees the whole GPU (another test allocating at the same time would look
    # like a leak), and the clock check compares timings that another kernel would disturb. Graded against a
    # kit (TILELAB_GPU_LEASE), the GPU lock does this for the measuring checks alone.
    set_tests_properties(${prefix}.checks PROPERTIES RUN_SERIAL TRUE)
  endif()
endfunction()

# The checker command that runs the sanitized suite (eight shapes with partial tiles, see shapes.hpp) with the
# lab's runner under compute-sanitizer's @p tool; <program> already has its limits.
function(_tilelab_sanitizer_command out_var tool)
  set(${out_var} ${ARGN} --sanitizer "${TILELAB_COMPUTE_SANITIZER}" --sanitizer-tool ${tool} --test-suite=sanitized
      PARENT_SCOPE)
endfunction()

# compute-sanitizer's runs of a lab, <prefix>.<tool>, at TILELAB_SANITIZER_TILE_WIDTH: on the GPU where
# compute-sanitizer was found; on the CPU backend, tests that report themselves skipped.
function(_tilelab_add_sanitizer_tests prefix lab tile_width backend labels)
  if(NOT tile_width EQUAL TILELAB_SANITIZER_TILE_WIDTH)
    return()
  endif()
  foreach(tool IN LISTS TILELAB_${lab}_SANITIZER_TOOLS)
    if(backend STREQUAL "cpu")
      _tilelab_add_gpu_only_test(${prefix}.${tool} "${TILELAB_SANITIZER_GPU_ONLY}" "${labels};cpu;sanitizer;${tool}")
    elseif(TILELAB_COMPUTE_SANITIZER)
      math(EXPR timeout "${TILELAB_TEST_TIMEOUT} * 5")
      _tilelab_checker_limits(command ${timeout} ${prefix}.${tool} ${ARGN})
      _tilelab_sanitizer_command(command ${tool} ${command})
      math(EXPR timeout "${timeout} + ${TILELAB_GPU_QUEUE_SECONDS}")
      add_test(NAME ${prefix}.${tool} COMMAND ${command})
      set_tests_properties(${prefix}.${tool} PROPERTIES LABELS "${labels};gpu;sanitizer;${tool}"
                           TIMEOUT ${timeout} SKIP_RETURN_CODE 77 FIXTURES_REQUIRED ${prefix}.built)
    endif()
  endforeach()
endfunction()

# The self-test's expectations of a lab that must fail, one test <prefix>.<expect> (see tilelab_add_lab): the lab's
# suites (or @p only) in one checker, or compute-sanitizer's tool, must fail with output matching @p match.
function(_tilelab_add_expectation prefix expect match timeout target backend labels suites only)
  if(expect STREQUAL "fail-all")
    set(match "test cases: *[0-9]+ [|] *0 passed")
  endif()
  if(NOT timeout)
    math(EXPR timeout "${TILELAB_TEST_TIMEOUT} * 4")
  endif()
  _tilelab_measures_gpu(measures_gpu ${backend} ${suites})
  set(program ${ARGN})
  if(only STREQUAL "perf")
    string(REPLACE "$<TARGET_FILE:${target}>" "$<TARGET_FILE:${target}_gate>" program "${program}")
  endif()
  _tilelab_checker_limits(command ${timeout} ${prefix}.${expect} ${program})
  if(expect MATCHES "^(memcheck|racecheck|synccheck)-fails$")
    _tilelab_sanitizer_command(command ${CMAKE_MATCH_1} ${command})
    set(kind_labels gpu sanitizer)
  else()
    # The checker holds every lab's suites: run this lab's (or those asked for), none that needs a GPU here.
    if(only)
      set(suites ${only})
    endif()
    string(REPLACE ";" "," suites "${suites}")
    list(APPEND command --test-suite=${suites})
    set(kind_labels ${backend})
  endif()
  # A kernel that never ends must fail the expectation in time, before CTest's own limit below.
  tilelab_expect_failure_command(command MATCH "${match}" TIMEOUT ${timeout} COMMAND ${command})
  add_test(NAME ${prefix}.${expect} COMMAND ${command})
  math(EXPR timeout "${TILELAB_TEST_TIMEOUT} * 5")
  set_tests_properties(${prefix}.${expect} PROPERTIES LABELS "${labels};${kind_labels}" TIMEOUT ${timeout}
                       SKIP_REGULAR_EXPRESSION "SKIPPED: no usable CUDA GPU" FIXTURES_REQUIRED ${prefix}.built)
  if(measures_gpu)
    set_tests_properties(${prefix}.${expect} PROPERTIES RUN_SERIAL TRUE ENVIRONMENT
                         "TILELAB_MIN_SPEEDUP=${TILELAB_MIN_SPEEDUP};TILELAB_GATE_CUDA_FLAGS=${TILELAB_GATE_CUDA_FLAGS}")
  endif()
  if(expect MATCHES "-fails$" AND NOT TILELAB_COMPUTE_SANITIZER)
    set_tests_properties(${prefix}.${expect} PROPERTIES DISABLED TRUE)
  endif()
endfunction()

# tilelab_add_lab(SUBMISSION <name> ROOT <dir> LAB <folder> TILE_WIDTH <n> [BACKEND gpu|cpu]
#                 [EXPECT <mode>] [MATCH <regex>] [TIMEOUT <seconds>] [SUITES <suite>...] [SKIP_CHECKS <suite>...]
#                 [LABELS <label>...])
# Tests are named <submission>.<lab>.tw<n>[.cpu].<check>: the CPU backend's carry ".cpu" and the label cpu,
# the GPU backend's the label gpu.
#   pass              every check must pass (the graded submission, correct alternatives)
#   fail-all          every check must fail (the stubs)
#   fail              the checks (or SUITES) must fail with output matching MATCH (a kernel with one known bug)
#   build-fails       building must fail with output matching MATCH (a file that does not compile, or is missing)
#   <tool>-fails      compute-sanitizer's tool (memcheck, racecheck, synccheck) must report an error matching MATCH
function(tilelab_add_lab)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "SUBMISSION;ROOT;LAB;TILE_WIDTH;BACKEND;EXPECT;MATCH;TIMEOUT"
                        "SUITES;SKIP_CHECKS;LABELS")
  if(NOT arg_EXPECT)
    set(arg_EXPECT pass)
  endif()
  if(NOT arg_BACKEND)
    set(arg_BACKEND gpu)
  endif()
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
  _tilelab_lab_suites(suites gpu_only ${arg_LAB} ${arg_TILE_WIDTH} ${backend} "${arg_SKIP_CHECKS}")
  set(with_gate OFF)
  foreach(suite IN LISTS suites)
    if(backend STREQUAL "gpu" AND TILELAB_SUITE_${suite}_KIND STREQUAL "gate")
      set(with_gate ON)
    endif()
  endforeach()
  _tilelab_add_lab_targets(build_command program ${arg_SUBMISSION} "${arg_ROOT}" ${arg_LAB} ${arg_TILE_WIDTH} ${backend}
                           ${target} ${with_gate})

  if(arg_EXPECT STREQUAL "build-fails")
    tilelab_expect_failure_command(command MATCH "${arg_MATCH}" COMMAND ${build_command})
    add_test(NAME ${prefix}.build-fails COMMAND ${command})
    set_tests_properties(${prefix}.build-fails PROPERTIES LABELS "${labels};${backend};build" TIMEOUT 300
                         RESOURCE_LOCK tilelab_build_tree)
    return()
  endif()
  # Builds share one build tree, so they take turns; each build is itself parallel.
  add_test(NAME ${prefix}.build COMMAND ${build_command})
  set_tests_properties(${prefix}.build PROPERTIES LABELS "${labels};${backend};build" TIMEOUT 300
                       RESOURCE_LOCK tilelab_build_tree FIXTURES_SETUP ${prefix}.built)

  if(arg_EXPECT STREQUAL "pass")
    _tilelab_add_series(${prefix} ${target} ${arg_TILE_WIDTH} ${backend} "${labels}" "${suites}" "${gpu_only}"
                        ${program})
    _tilelab_add_sanitizer_tests(${prefix} ${arg_LAB} ${arg_TILE_WIDTH} ${backend} "${labels}" ${program})
  else()
    if(gpu_only)
      list(REMOVE_ITEM suites ${gpu_only})
    endif()
    _tilelab_add_expectation(${prefix} ${arg_EXPECT} "${arg_MATCH}" "${arg_TIMEOUT}" ${target} ${backend}
                             "${labels}" "${suites}" "${arg_SUITES}" ${program})
  endif()
endfunction()

# The one tile width a lab with its own configuration is registered at, among @p widths: TILELAB_PERF_TILE_WIDTH
# where it is one of them (so the performance gate runs), else the first.
function(tilelab_fixed_configuration_width out_var widths)
  if(TILELAB_PERF_TILE_WIDTH IN_LIST widths)
    set(${out_var} ${TILELAB_PERF_TILE_WIDTH} PARENT_SCOPE)
  else()
    list(GET widths 0 first)
    set(${out_var} ${first} PARENT_SCOPE)
  endif()
endfunction()

# tilelab_add_submission(NAME <name> ROOT <dir> [LABS <folder>...] [TILE_WIDTHS <n>...] [BACKENDS <b>...]
#                        [EXPECT ...] [MATCH <regex>] [SKIP_CHECKS <kind>...] [LABELS <label>...])
# Every lab of a folder laid out like labs/, at every tile width, on every backend (defaults: all labs,
# TILELAB_TILE_WIDTHS, TILELAB_BACKENDS).
function(tilelab_add_submission)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;ROOT;EXPECT;MATCH" "LABS;TILE_WIDTHS;BACKENDS;SKIP_CHECKS;LABELS")
  if(NOT arg_LABS)
    set(arg_LABS ${TILELAB_LABS})
  endif()
  if(NOT arg_TILE_WIDTHS)
    set(arg_TILE_WIDTHS ${TILELAB_TILE_WIDTHS})
  endif()
  if(NOT arg_BACKENDS)
    set(arg_BACKENDS ${TILELAB_BACKENDS})
  endif()
  foreach(backend IN LISTS arg_BACKENDS)
    foreach(lab IN LISTS arg_LABS)
      set(tile_widths ${arg_TILE_WIDTHS})
      if(lab IN_LIST TILELAB_FIXED_CONFIGURATION_LABS)
        tilelab_fixed_configuration_width(tile_widths "${arg_TILE_WIDTHS}")
      endif()
      foreach(tile_width IN LISTS tile_widths)
        tilelab_add_lab(SUBMISSION ${arg_NAME} ROOT "${arg_ROOT}" LAB ${lab} TILE_WIDTH ${tile_width} BACKEND ${backend}
                        EXPECT ${arg_EXPECT} MATCH "${arg_MATCH}" SKIP_CHECKS ${arg_SKIP_CHECKS} LABELS ${arg_LABELS})
      endforeach()
    endforeach()
  endforeach()
endfunction()

# tilelab_add_graded_submission(<root_var>): the submission TILELAB_SOURCE names (labs, solutions, or a folder laid
# out like labs/), registered as "graded", the tests grade.cmake turns into points; its folder in <root_var>.
function(tilelab_add_graded_submission root_var)
  if(TILELAB_SOURCE STREQUAL "labs" OR TILELAB_SOURCE STREQUAL "solutions")
    set(graded_root "${_tilelab_kit_source_dir}/${TILELAB_SOURCE}")
  else()
    get_filename_component(graded_root "${TILELAB_SOURCE}" ABSOLUTE BASE_DIR "${_tilelab_kit_source_dir}")
  endif()
  if(NOT IS_DIRECTORY "${graded_root}")
    message(FATAL_ERROR "TILELAB_SOURCE: '${TILELAB_SOURCE}' is not a folder (looked for ${graded_root})")
  endif()
  message(STATUS "TileLab: grading ${graded_root}")
  tilelab_add_submission(NAME graded ROOT "${graded_root}" LABELS graded)
  file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/verdicts")
  set(${root_var} "${graded_root}" PARENT_SCOPE)
endfunction()

# tilelab_add_mutant(NAME <name> LAB <folder> [FROM <folder>] [FILE <file>] FIND <text> REPLACE <text>
#                    [FIND2 <text> REPLACE2 <text>]
#                    MATCH <regex> [EXPECT <mode>] [TIMEOUT <seconds>] [SUITES <suite>...] [TILE_WIDTH <n>]
#                    [CPU_EXPECT <mode>|none] [CPU_MATCH <regex>])
# The lab's model answer (or the submission in FROM) with one bug put in (every FIND in FILE, default kernel.cu,
# replaced by REPLACE; then
# FIND2 by REPLACE2, for a bug that takes two edits). The
# grader must fail it with output matching MATCH: the message of the check that targets that bug. Configuring
# fails if FIND is not in the solution any more, so the mutants cannot drift away from the code they mutate.
# On the CPU backend the same mutant is expected to fail as CPU_EXPECT and CPU_MATCH say (default: as on the
# GPU); "none" leaves it out there (a bug only a GPU can show), as does a compute-sanitizer EXPECT. EXPECT none
# leaves it out on the GPU (a bug only the CPU backend can show).
function(tilelab_add_mutant)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;LAB;FROM;FILE;FIND;REPLACE;FIND2;REPLACE2;MATCH;EXPECT;TILE_WIDTH;TIMEOUT;CPU_EXPECT;CPU_MATCH"
                        "SUITES")
  if(NOT arg_EXPECT)
    set(arg_EXPECT fail)
  endif()
  if(NOT arg_TILE_WIDTH)
    set(arg_TILE_WIDTH 16)
  endif()
  if(NOT arg_FILE)
    set(arg_FILE kernel.cu)
  endif()
  if(NOT arg_CPU_EXPECT)
    set(arg_CPU_EXPECT ${arg_EXPECT})
    if(arg_EXPECT MATCHES "^(memcheck|racecheck|synccheck)-fails$")
      set(arg_CPU_EXPECT none)
    endif()
  endif()
  if(NOT DEFINED arg_CPU_MATCH)
    set(arg_CPU_MATCH "${arg_MATCH}")
  endif()
  if(NOT arg_FROM)
    set(arg_FROM "${PROJECT_SOURCE_DIR}/solutions")
  endif()
  set(root "${CMAKE_BINARY_DIR}/mutants/${arg_NAME}")
  foreach(file IN LISTS TILELAB_${arg_LAB}_FILES)
    set(solution "${arg_FROM}/${file}")
    set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${solution}")
    file(READ "${solution}" text)
    if(file STREQUAL "${arg_LAB}/${arg_FILE}")
      foreach(edit "" 2)
        if(edit STREQUAL "2" AND NOT DEFINED arg_FIND2)
          break()
        endif()
        string(FIND "${text}" "${arg_FIND${edit}}" found)
        if(found EQUAL -1)
          message(FATAL_ERROR "TileLab mutant '${arg_NAME}': '${arg_FIND${edit}}' is not in ${solution}")
        endif()
        string(REPLACE "${arg_FIND${edit}}" "${arg_REPLACE${edit}}" text "${text}")
      endforeach()
    endif()
    file(CONFIGURE OUTPUT "${root}/${file}" CONTENT "${text}" @ONLY)
  endforeach()
  if("gpu" IN_LIST TILELAB_BACKENDS AND NOT arg_EXPECT STREQUAL "none")
    tilelab_add_lab(SUBMISSION mutant-${arg_NAME} ROOT "${root}" LAB ${arg_LAB} TILE_WIDTH ${arg_TILE_WIDTH}
                    EXPECT ${arg_EXPECT} MATCH "${arg_MATCH}" TIMEOUT "${arg_TIMEOUT}" SUITES ${arg_SUITES}
                    LABELS selftest mutant)
  endif()
  if("cpu" IN_LIST TILELAB_BACKENDS AND NOT arg_CPU_EXPECT STREQUAL "none")
    tilelab_add_lab(SUBMISSION mutant-${arg_NAME} ROOT "${root}" LAB ${arg_LAB} TILE_WIDTH ${arg_TILE_WIDTH}
                    BACKEND cpu EXPECT ${arg_CPU_EXPECT} MATCH "${arg_CPU_MATCH}" TIMEOUT "${arg_TIMEOUT}"
                    SUITES ${arg_SUITES} LABELS selftest mutant)
  endif()
endfunction()
