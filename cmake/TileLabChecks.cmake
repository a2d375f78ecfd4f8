# The test commands of the checks that are not the checker's (grader/tools/tilelab_build_check.cpp): each writes
# its record, <build>/verdicts/<test>.json (grader/src/check_record.hpp), and its output beside it, <test>.log.
# Each function returns the command as a CMake list.
include_guard(GLOBAL)

# The options every record needs: where it goes (the test's name is its file name) and what it is of.
function(_tilelab_record_options out_var test lab tile_width backend)
  set(${out_var} --record "${CMAKE_BINARY_DIR}/verdicts/${test}.json" --lab ${lab} --tile-width ${tile_width}
      --backend ${backend} PARENT_SCOPE)
endfunction()

# tilelab_build_check_command(<out_var> TEST <test> LAB <id> TILE_WIDTH <n> BACKEND <cpu|gpu> TARGETS <t>...
#   OBJECTS <genex> SOURCES <file>... SOURCE_ROOT <dir> SOURCE_FILES <relative path>... [SOURCE_LAUNCHER <path>])
# The build check of one lab: the source check as the sandbox's user (SOURCE_LAUNCHER), the build of TARGETS, and
# the library, interposition and system-call rules on the objects of the lab's files (OBJECTS, a generator
# expression joined with "|").
function(tilelab_build_check_command out_var)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TEST;LAB;TILE_WIDTH;BACKEND;OBJECTS;SOURCE_ROOT;SOURCE_LAUNCHER"
                        "TARGETS;SOURCES;SOURCE_FILES")
  _tilelab_record_options(record ${arg_TEST} ${arg_LAB} ${arg_TILE_WIDTH} ${arg_BACKEND})
  set(command "$<TARGET_FILE:tilelab-build-check>" ${record} --build-dir "${CMAKE_BINARY_DIR}" --config "$<CONFIG>"
      --cmake "${CMAKE_COMMAND}" --target ${arg_TARGETS} --object "${arg_OBJECTS}" --source ${arg_SOURCES}
      --nm "${CMAKE_NM}" --cxxfilt "${TILELAB_CXXFILT}" --cxx "${CMAKE_CXX_COMPILER}"
      --source-check "$<TARGET_FILE:tilelab-source-check>" --source-launcher "${arg_SOURCE_LAUNCHER}"
      --source-root "${arg_SOURCE_ROOT}" --source-file ${arg_SOURCE_FILES})
  set(${out_var} ${command} PARENT_SCOPE)
endfunction()

# tilelab_missing_file_command(<out_var> TEST <test> LAB <id> TILE_WIDTH <n> BACKEND <b> MESSAGE <text>): the build
# check of a lab with a missing file: it fails with MESSAGE.
function(tilelab_missing_file_command out_var)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TEST;LAB;TILE_WIDTH;BACKEND;MESSAGE" "")
  _tilelab_record_options(record ${arg_TEST} ${arg_LAB} ${arg_TILE_WIDTH} ${arg_BACKEND})
  set(${out_var} "$<TARGET_FILE:tilelab-build-check>" ${record} --fail "${arg_MESSAGE}" PARENT_SCOPE)
endfunction()

# tilelab_gpu_only_command(<out_var> TEST <test> LAB <id> TILE_WIDTH <n> REASON <text> [BACKEND <backend>]): a check
# that needs a GPU, on the CPU backend (or, with BACKEND gpu, one that needs the CPU backend's emulator, on the GPU
# backend): skipped (exit 77), its record saying why. The check's name is the test's last part.
function(tilelab_gpu_only_command out_var)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TEST;LAB;TILE_WIDTH;REASON;BACKEND" "")
  if(NOT arg_BACKEND)
    set(arg_BACKEND cpu)
  endif()
  _tilelab_record_options(record ${arg_TEST} ${arg_LAB} ${arg_TILE_WIDTH} ${arg_BACKEND})
  set(${out_var} "$<TARGET_FILE:tilelab-build-check>" ${record} --skip "${arg_REASON}" PARENT_SCOPE)
endfunction()
