# The self-test's mutants (mutants.cmake): a model answer with one known bug, which the grader must fail for that
# bug's reason. Registered with tilelab_add_lab (cmake/TileLab.cmake) in one of its expectation modes
# (expectations.cmake).
include_guard(GLOBAL)

# tilelab_add_mutant(NAME <name> LAB <folder> [FROM <folder>] [FILE <file>] FIND <text> REPLACE <text>
#                    [FIND2 <text> REPLACE2 <text>]
#                    MATCH <regex> [TABLE_MATCH <regex>] [EXPECT <mode>] [TIMEOUT <seconds>] [SUITES <suite>...]
#                    [TILE_WIDTH <n>] [CPU_EXPECT <mode>|none] [CPU_MATCH <regex>] [CPU_TABLE_MATCH <regex>])
# The lab's model answer (or the submission in FROM) with one bug put in (every FIND in FILE, default kernel.cu,
# replaced by REPLACE; then FIND2 by REPLACE2, for a bug that takes two edits). The grader must fail it with output
# matching MATCH: the message of the check that targets that bug. Configuring fails if FIND is not in the solution
# any more, so the mutants cannot drift away from the code they mutate.
# TABLE_MATCH, where given, must match the line the points table shows for the failed check (its record's hint, else
# its message): what a student reads first names the bug's real cause.
# On the CPU backend the same mutant is expected to fail as CPU_EXPECT, CPU_MATCH and CPU_TABLE_MATCH say (default:
# as on the GPU); "none" leaves it out there (a bug only a GPU can show), as does a compute-sanitizer EXPECT. EXPECT none
# leaves it out on the GPU (a bug only the CPU backend can show).
function(tilelab_add_mutant)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;LAB;FROM;FILE;FIND;REPLACE;FIND2;REPLACE2;MATCH;TABLE_MATCH;EXPECT;TILE_WIDTH;TIMEOUT;CPU_EXPECT;CPU_MATCH;CPU_TABLE_MATCH"
                        "SUITES")
  _tilelab_default(arg_EXPECT fail)
  _tilelab_default(arg_TILE_WIDTH 16)
  _tilelab_default(arg_FILE kernel.cu)
  if(NOT arg_CPU_EXPECT)
    set(arg_CPU_EXPECT ${arg_EXPECT})
    if(arg_EXPECT MATCHES "^(memcheck|racecheck|synccheck)-fails$")
      set(arg_CPU_EXPECT none)
    endif()
  endif()
  if(NOT DEFINED arg_CPU_MATCH)
    set(arg_CPU_MATCH "${arg_MATCH}")
  endif()
  if(NOT DEFINED arg_CPU_TABLE_MATCH)
    set(arg_CPU_TABLE_MATCH "${arg_TABLE_MATCH}")
  endif()
  _tilelab_default(arg_FROM "${PROJECT_SOURCE_DIR}/solutions")
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
                    EXPECT ${arg_EXPECT} MATCH "${arg_MATCH}" TABLE_MATCH "${arg_TABLE_MATCH}" TIMEOUT "${arg_TIMEOUT}"
                    SUITES ${arg_SUITES}
                    LABELS selftest mutant)
  endif()
  if("cpu" IN_LIST TILELAB_BACKENDS AND NOT arg_CPU_EXPECT STREQUAL "none")
    tilelab_add_lab(SUBMISSION mutant-${arg_NAME} ROOT "${root}" LAB ${arg_LAB} TILE_WIDTH ${arg_TILE_WIDTH}
                    BACKEND cpu EXPECT ${arg_CPU_EXPECT} MATCH "${arg_CPU_MATCH}" TABLE_MATCH "${arg_CPU_TABLE_MATCH}"
                    TIMEOUT "${arg_TIMEOUT}"
                    SUITES ${arg_SUITES} LABELS selftest mutant)
  endif()
endfunction()
