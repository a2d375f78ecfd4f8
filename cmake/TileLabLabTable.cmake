# The lab registry (grader/labs.json, read by TileLabRegistry.cmake) as C++: the facts the kit's C++ needs of each
# lab, written at configure time into a file that grader/src/lab_registry.cpp includes, so that no C++ file names a
# lab.
include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/TileLabRegistry.cmake")

# A registry string as a C++ string literal (the registry's strings are prose: quotes and backslashes escaped).
function(_tilelab_cxx_string out text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  set(${out} "\"${text}\"" PARENT_SCOPE)
endfunction()

# tilelab_write_lab_table(): writes <build>/generated/tilelab/lab_table.inc: two X-macro lists of the registry's
# labs, in its order, each left out unless the includer defines it:
#   TILELAB_LAB_ENTRY(<initializer>): one per lab, a tilelab::grader::LabEntry (grader/src/lab_registry.hpp says
#     what each field is), with labs.hpp's constants by name (the includer includes <tilelab/labs.hpp>);
#   TILELAB_KERNEL_LAB(<id>, <launcher>, <kernel>, <needs_tile_multiples>): the labs with a kernel of their own, as
#     C++ identifiers (grader/bench/bench.cu declares and times their launchers).
# The file is rewritten only when its text changes (no rebuild after a reconfigure). The interface library
# tilelab_lab_table puts its folder on its users' include path (#include <tilelab/lab_table.inc>).
function(tilelab_write_lab_table)
  set(output "${CMAKE_BINARY_DIR}/generated/tilelab/lab_table.inc")
  add_library(tilelab_lab_table INTERFACE)
  target_include_directories(tilelab_lab_table INTERFACE "${CMAKE_BINARY_DIR}/generated")
  set(entries "")
  set(kernels "")
  foreach(folder IN LISTS TILELAB_LABS)
    foreach(field ID LAUNCHER KERNEL BLOCK_TILE PHASE_DEPTH THREADS NEEDS_TILE_MULTIPLES USES_SHARED_TILES)
      string(TOLOWER ${field} name)
      set(${name} "${TILELAB_${folder}_${field}}")
    endforeach()
    if(block_tile STREQUAL "")  # a TILE_WIDTH lab
      set(block_tile 0)
      set(phase_depth 0)
      set(threads 0)
    endif()
    foreach(flag needs_tile_multiples uses_shared_tiles)  # string(JSON) gives ON/OFF for true/false
      if(${flag})
        set(${flag} true)
      else()
        set(${flag} false)
      endif()
    endforeach()
    set(gate "{\"\", \"\", \"\", 0.0}")
    set(reference "${TILELAB_${folder}_GATE_REFERENCE}")
    if(reference)
      _tilelab_cxx_string(name "${TILELAB_${folder}_GATE_REFERENCE_NAME}")
      set(gate "{\"${TILELAB_${reference}_ID}\", \"${reference}\", ${name}, ${TILELAB_${folder}_GATE_FRACTION}}")
    endif()
    set(capability "{0, 0, \"\"}")
    if(TILELAB_${folder}_MIN_COMPUTE_CAPABILITY MATCHES "^([0-9]+)[.]([0-9]+)$")
      _tilelab_cxx_string(why "${TILELAB_${folder}_MIN_COMPUTE_CAPABILITY_WHY}")
      set(capability "{${CMAKE_MATCH_1}, ${CMAKE_MATCH_2}, ${why}}")
    endif()
    set(kit_kernel "")
    if(TILELAB_${folder}_KIT_KERNEL)
      set(kit_kernel ${TILELAB_${TILELAB_${folder}_KIT_KERNEL}_ID})
    endif()
    string(APPEND entries "TILELAB_LAB_ENTRY({\"${id}\", \"${folder}\", \"${launcher}\", \"${kernel}\",\n"
                          "                  {${block_tile}, ${phase_depth}, ${threads}}, ${needs_tile_multiples}, "
                          "${uses_shared_tiles},\n                  ${gate},\n                  ${capability},\n"
                          "                  \"${kit_kernel}\"})\n")
    if(NOT kernel STREQUAL "")
      string(APPEND kernels "TILELAB_KERNEL_LAB(${id}, ${launcher}, ${kernel}, ${needs_tile_multiples})\n")
    endif()
  endforeach()
  file(RELATIVE_PATH source "${PROJECT_SOURCE_DIR}" "${TILELAB_REGISTRY}")
  string(CONCAT text "// Generated from ${source} by cmake/TileLabLabTable.cmake at configure time: edit the "
         "registry, not this.\n#ifdef TILELAB_LAB_ENTRY\n${entries}#endif\n#ifdef TILELAB_KERNEL_LAB\n${kernels}#endif\n")
  if(EXISTS "${output}")
    file(READ "${output}" old)
    if(old STREQUAL text)
      return()
    endif()
  endif()
  file(WRITE "${output}" "${text}")
endfunction()
