# The one place that knows how a lab becomes tests. Each (submission, lab, tile width) gets:
#   - a program, left out of `all`, made of the lab's files from the submission, the lab's adapter
#     (grader/adapters/<lab>.cpp) and the lab's checks;
#   - a CTest test "<submission>.<lab>.tw<N>.build" that builds it, so a file that does not compile (or is
#     missing) fails that lab's tests, with the compiler's output, and every other lab is still graded;
#   - a test "<prefix>.checks" that runs the lab's checks one after another in one checker (a series, see
#     grader/src/suite_series.hpp), once that build test has passed (a CTest fixture), and one test per check
#     suite that shows that check's output and verdict; the performance gate and compute-sanitizer's runs are
#     tests of their own.
include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/TileLabChecks.cmake")

# The labs, in order. For each: the submission files it is built from, and the kinds of checks it gets.
set(TILELAB_LABS 01_naive 02_tiled 03_tiled_boundary 04_timing 05_coarsened 06_register_tiled 07_vectorized 08_warp_tiled)
set(TILELAB_01_naive_FILES 01_naive/kernel.cu)
set(TILELAB_01_naive_CHECKS correctness)
set(TILELAB_02_tiled_FILES 02_tiled/kernel.cu)
set(TILELAB_02_tiled_CHECKS correctness shared-memory perf)
set(TILELAB_03_tiled_boundary_FILES 03_tiled_boundary/kernel.cu)
set(TILELAB_03_tiled_boundary_CHECKS correctness shared-memory perf)
# Lab 04 is built with the kit's own lab 03 kernel (_tilelab_lab04_kernel), not the submission's.
set(TILELAB_04_timing_FILES 04_timing/timing.cu)
set(TILELAB_04_timing_CHECKS timing)
set(TILELAB_05_coarsened_FILES 05_coarsened/kernel.cu)
set(TILELAB_05_coarsened_CHECKS correctness perf)
set(TILELAB_06_register_tiled_FILES 06_register_tiled/kernel.cu)
set(TILELAB_06_register_tiled_CHECKS correctness perf)
set(TILELAB_07_vectorized_FILES 07_vectorized/kernel.cu)
set(TILELAB_07_vectorized_CHECKS correctness perf)
set(TILELAB_08_warp_tiled_FILES 08_warp_tiled/kernel.cu)
set(TILELAB_08_warp_tiled_CHECKS correctness pipeline perf)


# Labs whose configuration is their own (constants in common/include/tilelab/labs.hpp), not TILE_WIDTH: built and
# graded at one tile width only, TILELAB_PERF_TILE_WIDTH where the build has it (else the first of
# TILELAB_TILE_WIDTHS), so the test names keep their shape (graded.lab05.tw16.cpu.edges) and no check repeats.
set(TILELAB_FIXED_CONFIGURATION_LABS 05_coarsened 06_register_tiled 07_vectorized 08_warp_tiled)

# Each kind of check: its doctest suites (one CTest test each) and the object library holding them.
set(TILELAB_correctness_SUITES tiny edges odd-shapes large index-order)
set(TILELAB_shared-memory_SUITES shared-memory)
set(TILELAB_pipeline_SUITES pipeline)
set(TILELAB_perf_SUITES perf)
set(TILELAB_timing_SUITES timing-results timing-clock timing-memory timing-errors)

# The kinds of checks each backend builds, and the suites that only mean something on a GPU: on the CPU backend
# they are registered as tests that report themselves skipped, with the reason. (Lab 04's clock check compares GPU
# timings; on the CPU backend its timing-results checks the time against the events' own instead.)
set(TILELAB_gpu_CHECK_KINDS correctness shared-memory pipeline perf timing)
set(TILELAB_cpu_CHECK_KINDS correctness shared-memory pipeline timing)
set(TILELAB_cpu_GPU_ONLY_SUITES perf timing-clock)
set(TILELAB_GPU_ONLY_REASON_perf "the performance gate compares GPU timings")
set(TILELAB_GPU_ONLY_REASON_timing-clock "it compares GPU timings; on the CPU backend timing-results checks the returned time against the events' own, on the emulator's device clock")
set(TILELAB_GPU_ONLY_REASON_sanitizer "compute-sanitizer checks kernels on a GPU (the CPU backend checks races and barriers itself)")

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

# "01_naive" -> "lab01"
function(_tilelab_lab_id folder out_var)
  string(REGEX MATCH "^[0-9]+" number "${folder}")
  if(number STREQUAL "")
    message(FATAL_ERROR "TileLab: lab folder '${folder}' does not start with its number")
  endif()
  set(${out_var} "lab${number}" PARENT_SCOPE)
endfunction()

# The kinds of checks a lab gets at a tile width: the performance gate only at TILELAB_PERF_TILE_WIDTH.
function(_tilelab_checks lab tile_width out_var)
  set(checks ${TILELAB_${lab}_CHECKS})
  if(NOT tile_width EQUAL TILELAB_PERF_TILE_WIDTH)
    list(REMOVE_ITEM checks perf)
  endif()
  set(${out_var} ${checks} PARENT_SCOPE)
endfunction()

# A test command that runs COMMAND (a "|"-separated list) and passes only if it fails with output matching MATCH.
function(_tilelab_expect_failure_command out_var command match)
  set(${out_var} "${CMAKE_COMMAND}" "-DCOMMAND=${command}" "-DMATCH=${match}"
      -P "${_tilelab_cmake_dir}/tilelab_expect_failure.cmake" PARENT_SCOPE)
endfunction()

# A test that reports itself skipped on the CPU backend, saying why (the check needs a GPU), in its record.
function(_tilelab_add_gpu_only_test name lab tile_width reason labels)
  tilelab_gpu_only_command(command TEST ${name} LAB ${lab} TILE_WIDTH ${tile_width} REASON "${reason}")
  add_test(NAME ${name} COMMAND ${command})
  set_tests_properties(${name} PROPERTIES LABELS "${labels}" SKIP_RETURN_CODE 77)
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

# The adapter of a lab on a backend (grader/runner/adapters): kit code, the same for every submission and tile
# width (the runner is told the tile width), so compiled once, with the kit, and linked into every runner of it.
function(_tilelab_adapter lab backend out_var)
  set(adapter tilelab_adapter_${lab}_${backend})
  if(NOT TARGET ${adapter})
    set(source "${_tilelab_kit_source_dir}/grader/runner/adapters/${lab}.cu")
    if(backend STREQUAL "cpu")
      _tilelab_cpu_sources(${adapter} "${_tilelab_kit_source_dir}/grader/runner/adapters" "" source "${source}")
    endif()
    add_library(${adapter} OBJECT "${source}")
    target_link_libraries(${adapter} PRIVATE tilelab_runner_main_${backend})
  endif()
  set(${out_var} ${adapter} PARENT_SCOPE)
endfunction()

# Lab 04's lab 03 kernel on a backend at a tile width: the kit's copy of the model answer
# (solutions/03_tiled_boundary, in grader/runner/lab04/recorded_kernel.cu), built into the kit under the contract's
# names and instrumented to record its launches, so that lab 04 grades the student's host code alone, with a kernel
# whose launches the checker can see. Kit code, built once per backend and tile width, as the adapters are.
function(_tilelab_lab04_kernel backend tile_width out_var)
  set(library tilelab_lab04_kernel_${backend}_tw${tile_width})
  if(NOT TARGET ${library})
    set(folder "${_tilelab_kit_source_dir}/grader/runner/lab04")
    set(source "${folder}/recorded_kernel.cu")
    if(backend STREQUAL "cpu")
      _tilelab_cpu_sources(${library} "${folder}" "" source "${source}")
    endif()
    add_library(${library} OBJECT "${source}")
    target_compile_definitions(${library} PRIVATE TILE_WIDTH=${tile_width})
    target_include_directories(${library} PRIVATE "${folder}")
    target_link_libraries(${library} PRIVATE tilelab_lab_support_${backend})
  endif()
  set(${out_var} ${library} PARENT_SCOPE)
endfunction()

# A "|"-separated checker command that runs the sanitized suite (eight shapes with partial tiles, see shapes.hpp) with
# the lab's runner under compute-sanitizer's TOOL.
function(_tilelab_sanitizer_command out_var tool program)
  set(${out_var} "${program}|--sanitizer|${TILELAB_COMPUTE_SANITIZER}|--sanitizer-tool|${tool}|--test-suite=sanitized" PARENT_SCOPE)
endfunction()

# The checker's own limits for a test ("|"-separated, to append to a checker command): it stops the lab's program
# a little before CTest's TIMEOUT would stop the checker, so the failure says why; and it writes its verdict
# where grade.cmake reads it. Nothing for a command that is not a checker (a missing lab).
function(_tilelab_checker_limits out_var program timeout test_name)
  set(limits "")
  if(program MATCHES "tilelab-checker")
    math(EXPR seconds "${timeout} * 9 / 10")
    set(limits "|--time-limit|${seconds}|--verdict-file|${CMAKE_BINARY_DIR}/verdicts/${test_name}")
  endif()
  set(${out_var} "${limits}" PARENT_SCOPE)
endfunction()

# tilelab_add_lab(SUBMISSION <name> ROOT <dir> LAB <folder> TILE_WIDTH <n> [BACKEND gpu|cpu]
#                 [EXPECT <mode>] [MATCH <regex>] [TIMEOUT <seconds>] [SUITES <suite>...] [SKIP_CHECKS <kind>...]
#                 [LABELS <label>...])
# Tests are named <submission>.<lab>.tw<n>[.cpu].<check>: the CPU backend's carry ".cpu" and the label cpu,
# the GPU backend's the label gpu.
#   pass              every check must pass (the graded submission, correct alternatives)
#   fail-all          every check must fail (the stubs)
#   fail              the checks (or SUITES) must fail with output matching MATCH (a kernel with one known bug)
#   build-fails       building must fail with output matching MATCH (a file that does not compile, or is missing)
#   <tool>-fails      compute-sanitizer's tool (memcheck, racecheck, synccheck) must report an error matching MATCH
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
  _tilelab_lab_id("${arg_LAB}" lab_id)
  _tilelab_checks(${arg_LAB} ${arg_TILE_WIDTH} checks)
  if(arg_SKIP_CHECKS)
    list(REMOVE_ITEM checks ${arg_SKIP_CHECKS})
  endif()
  set(target "tilelab_${arg_SUBMISSION}_${lab_id}_tw${arg_TILE_WIDTH}")
  set(prefix "${arg_SUBMISSION}.${lab_id}.tw${arg_TILE_WIDTH}")
  set(gpu_only_suites "")
  if(backend STREQUAL "cpu")
    string(APPEND target "_cpu")
    string(APPEND prefix ".cpu")
    foreach(kind IN LISTS checks)
      foreach(suite IN LISTS TILELAB_${kind}_SUITES)
        if(suite IN_LIST TILELAB_cpu_GPU_ONLY_SUITES)
          list(APPEND gpu_only_suites ${suite})
        endif()
      endforeach()
    endforeach()
    set(checks_built "")
    foreach(kind IN LISTS checks)
      if(kind IN_LIST TILELAB_cpu_CHECK_KINDS)
        list(APPEND checks_built ${kind})
      endif()
    endforeach()
  else()
    set(checks_built ${checks})
  endif()
  set(labels ${arg_LABELS} ${lab_id} tw${arg_TILE_WIDTH})

  set(sources "")
  set(missing "")
  foreach(file IN LISTS TILELAB_${arg_LAB}_FILES)
    # A link counts as there (even one to nothing): the source check then refuses it, naming it.
    if(EXISTS "${arg_ROOT}/${file}" OR IS_SYMLINK "${arg_ROOT}/${file}")
      list(APPEND sources "${arg_ROOT}/${file}")
    elseif(NOT missing)
      set(missing "${file}")
    endif()
  endforeach()

  if(NOT missing)
    set(lab_sources ${sources})
    # The source check (tilelab-source-check, src/source_policy.hpp): what the lab's files may include and name,
    # and no link in their folders, on the files as written, run as the sandbox's user before anything compiles
    # or rewrites them; once per submission and lab (it is the same on every backend and tile width).
    set(source_check tilelab_${arg_SUBMISSION}_${lab_id}_source_check)
    set(source_check_command "$<TARGET_FILE:tilelab-source-check>" "${arg_ROOT}" ${TILELAB_${arg_LAB}_FILES})
    _tilelab_sandbox_compile_path(launcher)
    file(REAL_PATH "${arg_ROOT}" real_root)
    file(REAL_PATH "${_tilelab_kit_source_dir}/solutions" real_solutions)
    if(real_root STREQUAL real_solutions)
      # The kit's own model answers, which grade.cmake closes to the sandbox's user when it grades a submission
      # as root: the kit's code, compiled and checked with the build's own rights.
      set(launcher "")
    endif()
    if(launcher)
      list(PREPEND source_check_command "${launcher}")
    endif()
    if(NOT TARGET ${source_check})
      add_custom_target(${source_check} COMMAND ${source_check_command}
                        COMMENT "source check of ${arg_SUBMISSION}'s ${arg_LAB}" VERBATIM)
      add_dependencies(${source_check} tilelab-sandbox-compile tilelab-source-check)
    endif()
    if(backend STREQUAL "cpu")
      _tilelab_cpu_sources(${target} "${arg_ROOT}" ${source_check} sources ${sources})
    endif()
    _tilelab_adapter(${arg_LAB} ${backend} adapter)
    # The lab's files alone, so the build check can see what they define; then the runner around them.
    add_library(${target}_lab OBJECT EXCLUDE_FROM_ALL ${sources})
    target_compile_definitions(${target}_lab PRIVATE TILE_WIDTH=${arg_TILE_WIDTH})
    target_link_libraries(${target}_lab PRIVATE tilelab_lab_support_${backend})
    # Compiled as an unprivileged user of its own when the build runs as root: hostile source never runs a
    # compiler that can write the kit (tilelab-sandbox-compile).
    set_target_properties(${target}_lab PROPERTIES CXX_COMPILER_LAUNCHER "${launcher}" CUDA_COMPILER_LAUNCHER "${launcher}")
    add_dependencies(${target}_lab tilelab-sandbox-compile ${source_check})
    add_executable(${target} EXCLUDE_FROM_ALL $<TARGET_OBJECTS:${adapter}>)
    target_link_libraries(${target} PRIVATE ${target}_lab tilelab_runner_main_${backend} tilelab_lab_support_${backend})
    if(arg_LAB STREQUAL "04_timing")
      _tilelab_lab04_kernel(${backend} ${arg_TILE_WIDTH} lab04_kernel)
      target_sources(${target} PRIVATE $<TARGET_OBJECTS:${lab04_kernel}>)
    endif()
    set(built_targets ${target})
    if(perf IN_LIST checks_built)
      # The performance gate's runner: the same files built again with global loads cached in L2 only, raced
      # against the previous stage's model kernel built the same way (a program of its own, grader/CMakeLists.txt),
      # so that only reuse through shared memory counts, not the L1 cache that makes a naive kernel fast on recent
      # GPUs.
      add_library(${target}_gate_lab OBJECT EXCLUDE_FROM_ALL ${sources})
      target_compile_definitions(${target}_gate_lab PRIVATE TILE_WIDTH=${arg_TILE_WIDTH})
      target_compile_options(${target}_gate_lab PRIVATE ${TILELAB_GATE_CUDA_FLAGS})
      target_link_libraries(${target}_gate_lab PRIVATE tilelab_lab_support_${backend})
      set_target_properties(${target}_gate_lab PROPERTIES CUDA_COMPILER_LAUNCHER "${launcher}")
      add_dependencies(${target}_gate_lab tilelab-sandbox-compile ${source_check})
      add_executable(${target}_gate EXCLUDE_FROM_ALL $<TARGET_OBJECTS:${adapter}>)
      target_link_libraries(${target}_gate PRIVATE ${target}_gate_lab tilelab_runner_main_${backend}
                            tilelab_lab_support_${backend})
      list(APPEND built_targets ${target}_gate)
    endif()
    # One target per submission builds all its labs at once (grade.cmake, before the checks).
    if(NOT TARGET tilelab_${arg_SUBMISSION}_labs)
      add_custom_target(tilelab_${arg_SUBMISSION}_labs)
    endif()
    add_dependencies(tilelab_${arg_SUBMISSION}_labs ${built_targets})
    tilelab_build_check_command(build_command TEST ${prefix}.build LAB ${lab_id} TILE_WIDTH ${arg_TILE_WIDTH}
        BACKEND ${backend} TARGETS ${built_targets} OBJECTS "$<JOIN:$<TARGET_OBJECTS:${target}_lab>,|>"
        SOURCES ${lab_sources} SOURCE_ROOT "${arg_ROOT}" SOURCE_FILES ${TILELAB_${arg_LAB}_FILES}
        SOURCE_LAUNCHER "${launcher}")
  else()
    tilelab_missing_file_command(build_command TEST ${prefix}.build LAB ${lab_id} TILE_WIDTH ${arg_TILE_WIDTH}
        BACKEND ${backend}
        MESSAGE "missing file: ${missing} is not in ${arg_ROOT}. A submission keeps the layout of labs/ (one folder per lab, with the same file names); add the file and run cmake again.")
  endif()

  if(arg_EXPECT STREQUAL "build-fails")
    string(REPLACE ";" "|" joined "${build_command}")
    _tilelab_expect_failure_command(command "${joined}" "${arg_MATCH}")
    add_test(NAME ${prefix}.build-fails COMMAND ${command})
    set_tests_properties(${prefix}.build-fails PROPERTIES LABELS "${labels};${backend};build" TIMEOUT 300
                         RESOURCE_LOCK tilelab_build_tree)
    return()
  endif()

  # Builds share one build tree, so they take turns; each build is itself parallel.
  add_test(NAME ${prefix}.build COMMAND ${build_command})
  set_tests_properties(${prefix}.build PROPERTIES LABELS "${labels};${backend};build" TIMEOUT 300
                       RESOURCE_LOCK tilelab_build_tree FIXTURES_SETUP ${prefix}.built)
  if(missing)
    set(program "$<TARGET_FILE:tilelab-build-check>|--fail|not graded: a file of the lab is missing")
  else()
    # The checker (no student code) grades the lab's runner, which it starts in a sandbox of its own.
    set(program "$<TARGET_FILE:tilelab-checker-${backend}>|--lab|${lab_id}|--tile-width|${arg_TILE_WIDTH}|--runner|$<TARGET_FILE:${target}>")
  endif()

  if(arg_EXPECT STREQUAL "pass")
    # The lab's checks at this tile width run as one series, the test <prefix>.checks: one checker and one lab's
    # program (one CUDA context, which a GPU creates one at a time) for all of them, each check with its own limit,
    # output and verdict, which the check's own test shows. The performance gate (a program of its own) and the
    # compute-sanitizer runs are tests of their own. Checks that measure the GPU come last in the series: they
    # hold it alone from their start to the series' end.
    set(series "")
    set(measuring_series "")
    set(series_timeout ${TILELAB_GPU_QUEUE_SECONDS})
    foreach(kind IN LISTS checks)
      foreach(suite IN LISTS TILELAB_${kind}_SUITES)
        if(suite MATCHES "^timing-(clock|memory|errors)$" AND NOT arg_TILE_WIDTH EQUAL TILELAB_PERF_TILE_WIDTH)
          # Lab 04's host code is the same at every tile width: its measuring checks run at one, as the gate does.
          continue()
        endif()
        if(suite IN_LIST gpu_only_suites)
          if(kind STREQUAL "perf")
            set(suite_labels "${labels};cpu;perf")
          else()
            set(suite_labels "${labels};cpu;${suite}")
          endif()
          _tilelab_add_gpu_only_test(${prefix}.${suite} ${lab_id} ${arg_TILE_WIDTH} "${TILELAB_GPU_ONLY_REASON_${suite}}"
                                     "${suite_labels}")
          continue()
        endif()
        set(timeout ${TILELAB_TEST_TIMEOUT})
        if(suite MATCHES "^(large|perf|timing-)")
          math(EXPR timeout "${timeout} * 2")
        endif()
        set(measures_gpu OFF)
        if(backend STREQUAL "gpu" AND (kind STREQUAL "perf" OR suite MATCHES "^timing-(memory|errors|clock)$"))
          # In a batch, other submissions' checks share the GPU: this one holds it alone while it measures.
          set(measures_gpu ON)
        endif()
        if(kind STREQUAL "perf")
          _tilelab_checker_limits(limits "${program}" ${timeout} ${prefix}.${suite})
          string(REPLACE "$<TARGET_FILE:${target}>" "$<TARGET_FILE:${target}_gate>" suite_program "${program}")
          string(REPLACE "|" ";" command "${suite_program}${limits}|--test-suite=${suite}")
          add_test(NAME ${prefix}.${suite} COMMAND ${command})
          # The checker's own limit leaves out any wait for its turn on the GPU in a batch; CTest's allows for it.
          math(EXPR timeout "${timeout} + ${TILELAB_GPU_QUEUE_SECONDS}")
          set_tests_properties(${prefix}.${suite} PROPERTIES LABELS "${labels};gpu;perf" TIMEOUT ${timeout}
                               SKIP_RETURN_CODE 77 FIXTURES_REQUIRED ${prefix}.built
                               ENVIRONMENT "TILELAB_MIN_SPEEDUP=${TILELAB_MIN_SPEEDUP};TILELAB_GATE_CUDA_FLAGS=${TILELAB_GATE_CUDA_FLAGS}")
          if(NOT TILELAB_GPU_LEASE)
            # Alone on the GPU: it compares timings that another kernel would disturb. Graded against a kit
            # (TILELAB_GPU_LEASE), the GPU lock does this for the measuring part alone.
            set_tests_properties(${prefix}.${suite} PROPERTIES RUN_SERIAL TRUE)
          endif()
          continue()
        endif()
        # The checker stops the lab's program a little before the check's time is up, so the failure says why.
        math(EXPR seconds "${timeout} * 9 / 10")
        set(request_limit 0)
        if(kind MATCHES "^(correctness|shared-memory|pipeline)$")
          # Each multiply answers in well under a second on either backend: a kernel that never ends is stopped
          # after this long rather than at the check's limit (and, in a batch, does not hold the GPU that long).
          set(request_limit ${TILELAB_REQUEST_LIMIT})
        endif()
        if(measures_gpu)
          string(APPEND measuring_series "|--suite|${suite}:${seconds}:${request_limit}:exclusive")
        else()
          string(APPEND series "|--suite|${suite}:${seconds}:${request_limit}:shared")
        endif()
        math(EXPR series_timeout "${series_timeout} + ${timeout}")
        add_test(NAME ${prefix}.${suite} COMMAND "$<TARGET_FILE:tilelab-checker-${backend}>" --show-verdict
                 "${CMAKE_BINARY_DIR}/verdicts/${prefix}.${suite}")
        set_tests_properties(${prefix}.${suite} PROPERTIES LABELS "${labels};${backend};${suite}" TIMEOUT 30
                             SKIP_RETURN_CODE 77 FIXTURES_REQUIRED ${prefix}.checked)
      endforeach()
    endforeach()
    if(NOT series STREQUAL "" OR NOT measuring_series STREQUAL "")
      set(series_command "${program}")
      if(program MATCHES "tilelab-checker")
        string(APPEND series_command "|--verdict-file|${CMAKE_BINARY_DIR}/verdicts/${prefix}${series}${measuring_series}")
      endif()
      string(REPLACE "|" ";" command "${series_command}")
      add_test(NAME ${prefix}.checks COMMAND ${command})
      set_tests_properties(${prefix}.checks PROPERTIES LABELS "${labels};${backend};checks" TIMEOUT ${series_timeout}
                           FIXTURES_REQUIRED ${prefix}.built FIXTURES_SETUP ${prefix}.checked)
      if(NOT measuring_series STREQUAL "" AND NOT TILELAB_GPU_LEASE)
        # Alone on the GPU: cudaMemGetInfo sees the whole GPU (another test allocating at the same time would look
        # like a leak), and the clock check compares timings that another kernel would disturb. Graded against a
        # kit (TILELAB_GPU_LEASE), the GPU lock does this for the measuring checks alone.
        set_tests_properties(${prefix}.checks PROPERTIES RUN_SERIAL TRUE)
      endif()
    endif()
    if(backend STREQUAL "cpu" AND arg_TILE_WIDTH EQUAL TILELAB_SANITIZER_TILE_WIDTH AND correctness IN_LIST checks)
      foreach(tool memcheck racecheck synccheck)
        _tilelab_add_gpu_only_test(${prefix}.${tool} ${lab_id} ${arg_TILE_WIDTH} "${TILELAB_GPU_ONLY_REASON_sanitizer}"
                                   "${labels};cpu;sanitizer;${tool}")
      endforeach()
    elseif(TILELAB_COMPUTE_SANITIZER AND arg_TILE_WIDTH EQUAL TILELAB_SANITIZER_TILE_WIDTH AND
           correctness IN_LIST checks)
      foreach(tool memcheck racecheck synccheck)
        math(EXPR timeout "${TILELAB_TEST_TIMEOUT} * 5")
        _tilelab_checker_limits(limits "${program}" ${timeout} ${prefix}.${tool})
        _tilelab_sanitizer_command(command ${tool} "${program}${limits}")
        string(REPLACE "|" ";" command "${command}")
        math(EXPR timeout "${timeout} + ${TILELAB_GPU_QUEUE_SECONDS}")
        add_test(NAME ${prefix}.${tool} COMMAND ${command})
        set_tests_properties(${prefix}.${tool} PROPERTIES LABELS "${labels};gpu;sanitizer;${tool}"
                             TIMEOUT ${timeout} SKIP_RETURN_CODE 77 FIXTURES_REQUIRED ${prefix}.built)
      endforeach()
    endif()
    return()
  endif()

  # The other modes run one process and expect it to fail in a given way.
  if(arg_EXPECT STREQUAL "fail-all")
    set(arg_MATCH "test cases: *[0-9]+ [|] *0 passed")
  endif()
  if(NOT arg_TIMEOUT)
    math(EXPR arg_TIMEOUT "${TILELAB_TEST_TIMEOUT} * 4")
  endif()
  _tilelab_checker_limits(limits "${program}" ${arg_TIMEOUT} ${prefix}.${arg_EXPECT})
  if(arg_EXPECT MATCHES "^(memcheck|racecheck|synccheck)-fails$")
    _tilelab_sanitizer_command(command ${CMAKE_MATCH_1} "${program}${limits}")
    set(kind_labels gpu sanitizer)
  else()
    set(command "${program}${limits}")
    if(arg_SUITES STREQUAL "perf")
      string(REPLACE "$<TARGET_FILE:${target}>" "$<TARGET_FILE:${target}_gate>" command "${command}")
    endif()
    # The checker holds every lab's suites: run this lab's (or those asked for), none that needs a GPU here.
    set(suites ${arg_SUITES})
    if(NOT suites)
      foreach(kind IN LISTS checks_built)
        list(APPEND suites ${TILELAB_${kind}_SUITES})
      endforeach()
      if(gpu_only_suites)
        list(REMOVE_ITEM suites ${gpu_only_suites})
      endif()
    endif()
    string(REPLACE ";" "," suites "${suites}")
    string(APPEND command "|--test-suite=${suites}")
    set(kind_labels ${backend})
  endif()
  _tilelab_expect_failure_command(command "${command}" "${arg_MATCH}")
  # A kernel that never ends must fail the expectation in time, before CTest's own limit below.
  list(INSERT command 1 "-DTIMEOUT=${arg_TIMEOUT}")
  add_test(NAME ${prefix}.${arg_EXPECT} COMMAND ${command})
  math(EXPR timeout "${TILELAB_TEST_TIMEOUT} * 5")
  set_tests_properties(${prefix}.${arg_EXPECT} PROPERTIES LABELS "${labels};${kind_labels}" TIMEOUT ${timeout}
                       SKIP_REGULAR_EXPRESSION "SKIPPED: no usable CUDA GPU" FIXTURES_REQUIRED ${prefix}.built)
  if((perf IN_LIST checks OR timing IN_LIST checks) AND backend STREQUAL "gpu")
    set_tests_properties(${prefix}.${arg_EXPECT} PROPERTIES RUN_SERIAL TRUE ENVIRONMENT
                         "TILELAB_MIN_SPEEDUP=${TILELAB_MIN_SPEEDUP};TILELAB_GATE_CUDA_FLAGS=${TILELAB_GATE_CUDA_FLAGS}")
  endif()
  if(arg_EXPECT MATCHES "-fails$" AND NOT arg_EXPECT STREQUAL "build-fails" AND NOT TILELAB_COMPUTE_SANITIZER)
    set_tests_properties(${prefix}.${arg_EXPECT} PROPERTIES DISABLED TRUE)
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
