# The test commands of the checks that are not the checker's (grader/tools/tilelab_build_check.cpp): each writes
# its record, <build>/verdicts/<test>.json (grader/src/check_record.hpp), and its output beside it, <test>.log.
include_guard(GLOBAL)

# tilelab_record_command(<out_var> <test> <lab id> <tile width> <backend> <option>...): the command, as a CMake list,
# of tilelab-build-check writing <test>'s record, its <option>s saying what the check is: the build check's
# (TileLabRunner.cmake); --fail <message>, a lab with a missing file, which fails with the message; or --skip
# <reason>, a check that needs the other backend (a GPU's on the CPU backend, the CPU backend's emulator's on the GPU):
# skipped (exit 77), its record saying why, the check's name being the test's last part.
function(tilelab_record_command out_var test lab tile_width backend)
  set(${out_var} "$<TARGET_FILE:tilelab-build-check>" --record "${CMAKE_BINARY_DIR}/verdicts/${test}.json" --lab ${lab}
      --tile-width ${tile_width} --backend ${backend} ${ARGN} PARENT_SCOPE)
endfunction()
