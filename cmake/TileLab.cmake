# The one place that knows how a lab becomes tests. Each (submission, lab, tile width) gets:
#   - an executable, left out of `all`, made of the lab's kernel.cu, the lab's adapter and the grader;
#   - a CTest test "<submission>.<lab>.tw<N>.build" that builds it, so a file that does not compile (or is
#     missing) fails that lab's tests, with the compiler's output, and every other lab is still graded;
#   - the checks, which run only once that build test has passed (a CTest fixture).
include_guard(GLOBAL)

set(TILELAB_GRADER_SUITES tiny edges odd-shapes large index-order)
set(_tilelab_cmake_dir "${CMAKE_CURRENT_LIST_DIR}")

# "01_naive" -> "lab01"
function(_tilelab_lab_id folder out_var)
  string(REGEX MATCH "^[0-9]+" number "${folder}")
  if(number STREQUAL "")
    message(FATAL_ERROR "TileLab: lab folder '${folder}' does not start with its number")
  endif()
  set(${out_var} "lab${number}" PARENT_SCOPE)
endfunction()

# A test command that runs COMMAND (a "|"-separated list) and passes only if it fails with output matching MATCH.
function(_tilelab_expect_failure_command out_var command match)
  set(${out_var} "${CMAKE_COMMAND}" "-DCOMMAND=${command}" "-DMATCH=${match}"
      -P "${_tilelab_cmake_dir}/tilelab_expect_failure.cmake" PARENT_SCOPE)
endfunction()

# tilelab_add_lab(SUBMISSION <name> ROOT <dir> LAB <folder> TILE_WIDTH <n>
#                 [EXPECT pass|fail-all|fail|build-fails] [MATCH <regex>] [LABELS <label>...])
#   pass        every check must pass (the graded submission, the solutions, correct alternatives)
#   fail-all    every check must fail (the stubs)
#   fail        the checks must fail with output matching MATCH (a kernel with one known bug)
#   build-fails building must fail with output matching MATCH (a file that does not compile, or is missing)
function(tilelab_add_lab)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "SUBMISSION;ROOT;LAB;TILE_WIDTH;EXPECT;MATCH" "LABELS")
  if(NOT arg_EXPECT)
    set(arg_EXPECT pass)
  endif()
  _tilelab_lab_id("${arg_LAB}" lab_id)
  set(target "tilelab_${arg_SUBMISSION}_${lab_id}_tw${arg_TILE_WIDTH}")
  set(prefix "${arg_SUBMISSION}.${lab_id}.tw${arg_TILE_WIDTH}")
  set(source "${arg_ROOT}/${arg_LAB}/kernel.cu")
  set(labels ${arg_LABELS} ${lab_id} tw${arg_TILE_WIDTH})

  if(EXISTS "${source}")
    add_executable(${target} EXCLUDE_FROM_ALL "${source}" "${PROJECT_SOURCE_DIR}/grader/adapters/${arg_LAB}.cpp")
    target_compile_definitions(${target} PRIVATE TILE_WIDTH=${arg_TILE_WIDTH})
    target_link_libraries(${target} PRIVATE tilelab::grader_main)
    set(build_command "${CMAKE_COMMAND}" --build "${CMAKE_BINARY_DIR}" --target ${target} --config $<CONFIG>)
  else()
    set(build_command "${CMAKE_COMMAND}"
        "-DMESSAGE=missing file: ${arg_LAB}/kernel.cu is not in ${arg_ROOT}. A submission keeps the layout of labs/ (one folder per lab, each with its kernel.cu); add the file and run cmake again."
        -P "${_tilelab_cmake_dir}/tilelab_fail.cmake")
  endif()

  if(arg_EXPECT STREQUAL "build-fails")
    string(REPLACE ";" "|" joined "${build_command}")
    _tilelab_expect_failure_command(command "${joined}" "${arg_MATCH}")
    add_test(NAME ${prefix}.build-fails COMMAND ${command})
    set_tests_properties(${prefix}.build-fails PROPERTIES LABELS "${labels};cpu;build" TIMEOUT 300
                         RESOURCE_LOCK tilelab_build_tree)
    return()
  endif()

  # Builds share one build tree, so they take turns; each build is itself parallel.
  add_test(NAME ${prefix}.build COMMAND ${build_command})
  set_tests_properties(${prefix}.build PROPERTIES LABELS "${labels};cpu;build" TIMEOUT 300
                       RESOURCE_LOCK tilelab_build_tree FIXTURES_SETUP ${prefix}.built)

  if(arg_EXPECT STREQUAL "pass")
    foreach(suite IN LISTS TILELAB_GRADER_SUITES)
      if(TARGET ${target})
        set(command $<TARGET_FILE:${target}> --test-suite=${suite})
      else()
        set(command "${CMAKE_COMMAND}" "-DMESSAGE=not graded: the lab's file is missing" -P
            "${_tilelab_cmake_dir}/tilelab_fail.cmake")
      endif()
      add_test(NAME ${prefix}.${suite} COMMAND ${command})
      set(timeout ${TILELAB_TEST_TIMEOUT})
      if(suite STREQUAL "large")
        math(EXPR timeout "${timeout} * 2")
      endif()
      set_tests_properties(${prefix}.${suite} PROPERTIES LABELS "${labels};gpu;${suite}" TIMEOUT ${timeout}
                           SKIP_RETURN_CODE 77 FIXTURES_REQUIRED ${prefix}.built)
    endforeach()
    return()
  endif()

  # fail-all and fail: one process runs every suite; the stubs must pass none of them.
  if(arg_EXPECT STREQUAL "fail-all")
    set(arg_MATCH "test cases: *[0-9]+ [|] *0 passed")
  endif()
  _tilelab_expect_failure_command(command "$<TARGET_FILE:${target}>" "${arg_MATCH}")
  add_test(NAME ${prefix}.${arg_EXPECT} COMMAND ${command})
  math(EXPR timeout "${TILELAB_TEST_TIMEOUT} * 4")
  set_tests_properties(${prefix}.${arg_EXPECT} PROPERTIES LABELS "${labels};gpu" TIMEOUT ${timeout}
                       SKIP_REGULAR_EXPRESSION "SKIPPED: no usable CUDA GPU" FIXTURES_REQUIRED ${prefix}.built)
endfunction()

# tilelab_add_submission(NAME <name> ROOT <dir> [LABS <folder>...] [TILE_WIDTHS <n>...] [EXPECT ...]
#                        [MATCH <regex>] [LABELS <label>...])
# Every lab of a folder laid out like labs/, at every tile width (defaults: all labs, TILELAB_TILE_WIDTHS).
function(tilelab_add_submission)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;ROOT;EXPECT;MATCH" "LABS;TILE_WIDTHS;LABELS")
  if(NOT arg_LABS)
    set(arg_LABS ${TILELAB_LABS})
  endif()
  if(NOT arg_TILE_WIDTHS)
    set(arg_TILE_WIDTHS ${TILELAB_TILE_WIDTHS})
  endif()
  foreach(lab IN LISTS arg_LABS)
    foreach(tile_width IN LISTS arg_TILE_WIDTHS)
      tilelab_add_lab(SUBMISSION ${arg_NAME} ROOT "${arg_ROOT}" LAB ${lab} TILE_WIDTH ${tile_width}
                      EXPECT ${arg_EXPECT} MATCH "${arg_MATCH}" LABELS ${arg_LABELS})
    endforeach()
  endforeach()
endfunction()

# tilelab_add_mutant(NAME <name> LAB <folder> FIND <text> REPLACE <text> MATCH <regex>
#                    [EXPECT fail|build-fails] [TILE_WIDTH <n>])
# The lab's model answer with one bug put in (every FIND replaced by REPLACE). The grader must fail it with
# output matching MATCH: the message of the check that targets that bug. Configuring fails if FIND is not in
# the solution any more, so the mutants cannot drift away from the code they mutate.
function(tilelab_add_mutant)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;LAB;FIND;REPLACE;MATCH;EXPECT;TILE_WIDTH" "")
  if(NOT arg_EXPECT)
    set(arg_EXPECT fail)
  endif()
  if(NOT arg_TILE_WIDTH)
    set(arg_TILE_WIDTH 16)
  endif()
  set(solution "${PROJECT_SOURCE_DIR}/solutions/${arg_LAB}/kernel.cu")
  set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${solution}")
  file(READ "${solution}" text)
  string(FIND "${text}" "${arg_FIND}" found)
  if(found EQUAL -1)
    message(FATAL_ERROR "TileLab mutant '${arg_NAME}': '${arg_FIND}' is not in ${solution}")
  endif()
  string(REPLACE "${arg_FIND}" "${arg_REPLACE}" text "${text}")
  set(root "${CMAKE_BINARY_DIR}/mutants/${arg_NAME}")
  file(CONFIGURE OUTPUT "${root}/${arg_LAB}/kernel.cu" CONTENT "${text}" @ONLY)
  tilelab_add_lab(SUBMISSION mutant-${arg_NAME} ROOT "${root}" LAB ${arg_LAB} TILE_WIDTH ${arg_TILE_WIDTH}
                  EXPECT ${arg_EXPECT} MATCH "${arg_MATCH}" LABELS selftest mutant)
endfunction()
