# The lab registry (grader/labs.json) as C++: the facts the kit's C++ needs of each lab, written at configure time
# into a file that grader/src/lab_registry.cpp includes, so that no C++ file names a lab.
include_guard(GLOBAL)

# A JSON string as a C++ string literal (the registry's strings are prose: quotes and backslashes escaped).
function(_tilelab_cxx_string out text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  set(${out} "\"${text}\"" PARENT_SCOPE)
endfunction()

# Member <key> of the JSON object <json>, or <default> when it has none.
function(_tilelab_json_or out json default)
  string(JSON value ERROR_VARIABLE missing GET "${json}" ${ARGN})
  if(missing)
    set(value "${default}")
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

# tilelab_write_lab_table(<labs.json> <output .inc>): writes two lists of the registry's labs, in its order, each an
# X-macro the includer defines before it includes the file (an undefined one is left out):
#   TILELAB_LAB_ENTRY(<initializer>): one per lab, the initializer of tilelab::grader::LabEntry
#     (grader/src/lab_registry.hpp): id, folder, launcher, kernel, configuration {block_tile, phase_depth, threads}
#     (0s for TILE_WIDTH labs, else labs.hpp's constants by name, so the includer includes <tilelab/labs.hpp>),
#     needs_tile_multiples, uses_shared_tiles, gate {reference id, reference folder, reference_name, fraction}
#     ("" for no gate), minimum compute capability {major, minor, why} ({0, 0, ""}: any the build has code for),
#     kit_kernel (the lab whose model kernel the kit builds the lab with; "" for none);
#   TILELAB_KERNEL_LAB(<id>, <launcher>, <kernel>, <needs_tile_multiples>): the labs with a kernel of their own,
#     their names as C++ identifiers (grader/bench/bench.cu declares and times their launchers).
# The file is rewritten only when its text changes (no rebuild after a reconfigure), and labs.json is a configure
# dependency: editing it reconfigures. <output> must end in tilelab/lab_table.inc: the interface library
# tilelab_lab_table puts the folder above tilelab/ on its users' include path (#include <tilelab/lab_table.inc>).
function(tilelab_write_lab_table registry output)
  if(NOT output MATCHES "^(.*)/tilelab/lab_table[.]inc$")
    message(FATAL_ERROR "tilelab_write_lab_table: the output is <folder>/tilelab/lab_table.inc, not ${output}")
  endif()
  if(NOT TARGET tilelab_lab_table)
    add_library(tilelab_lab_table INTERFACE)
    target_include_directories(tilelab_lab_table INTERFACE "${CMAKE_MATCH_1}")
  endif()
  file(READ "${registry}" json)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${registry}")
  string(JSON count LENGTH "${json}" labs)
  math(EXPR last "${count} - 1")
  # Each lab's folder by id, for the gates' references.
  foreach(i RANGE ${last})
    string(JSON id GET "${json}" labs ${i} id)
    string(JSON _folder_${id} GET "${json}" labs ${i} folder)
  endforeach()
  set(entries "")
  set(kernels "")
  foreach(i RANGE ${last})
    string(JSON lab GET "${json}" labs ${i})
    string(JSON id GET "${lab}" id)
    string(JSON folder GET "${lab}" folder)
    string(JSON launcher GET "${lab}" launcher)
    _tilelab_json_or(kernel "${lab}" "" kernel)
    string(JSON configuration_type TYPE "${lab}" configuration)
    if(configuration_type STREQUAL "OBJECT")
      string(JSON block_tile GET "${lab}" configuration block_tile)
      string(JSON phase_depth GET "${lab}" configuration phase_depth)
      string(JSON threads GET "${lab}" configuration threads)
    else()
      string(JSON configuration GET "${lab}" configuration)
      if(NOT configuration STREQUAL "TILE_WIDTH")
        message(FATAL_ERROR "${registry}: ${id}'s configuration is \"TILE_WIDTH\" or an object of labs.hpp constants")
      endif()
      set(block_tile 0)
      set(phase_depth 0)
      set(threads 0)
    endif()
    string(JSON multiples GET "${lab}" needs_tile_multiples)
    string(JSON shared GET "${lab}" uses_shared_tiles)
    foreach(flag multiples shared)  # string(JSON) gives ON/OFF for true/false
      if(${flag})
        set(${flag} true)
      else()
        set(${flag} false)
      endif()
    endforeach()
    _tilelab_json_or(reference "${lab}" "" gate reference)
    if(reference STREQUAL "")
      set(gate "{\"\", \"\", \"\", 0.0}")
    else()
      if(NOT DEFINED _folder_${reference})
        message(FATAL_ERROR "${registry}: ${id}'s gate races \"${reference}\", which is no lab of the registry")
      endif()
      string(JSON reference_name GET "${lab}" gate reference_name)
      string(JSON fraction GET "${lab}" gate fraction)
      _tilelab_cxx_string(reference_name "${reference_name}")
      set(gate "{\"${reference}\", \"${_folder_${reference}}\", ${reference_name}, ${fraction}}")
    endif()
    _tilelab_json_or(version "${lab}" "" min_compute_capability version)
    if(version STREQUAL "")
      set(capability "{0, 0, \"\"}")
    else()
      if(NOT version MATCHES "^([0-9]+)[.]([0-9]+)$")
        message(FATAL_ERROR "${registry}: ${id}'s min_compute_capability version is major.minor, not \"${version}\"")
      endif()
      set(major "${CMAKE_MATCH_1}")
      set(minor "${CMAKE_MATCH_2}")
      string(JSON why GET "${lab}" min_compute_capability why)
      if(why MATCHES ";")
        # The skip message quotes it in "SKIPPED: no usable CUDA GPU (<reason>); ...", whose reason ends at ';'.
        message(FATAL_ERROR "${registry}: ${id}'s min_compute_capability why has a ';': say it without one")
      endif()
      _tilelab_cxx_string(why "${why}")
      set(capability "{${major}, ${minor}, ${why}}")
    endif()
    _tilelab_json_or(kit_kernel "${lab}" "" kit_kernel)
    string(APPEND entries "TILELAB_LAB_ENTRY({\"${id}\", \"${folder}\", \"${launcher}\", \"${kernel}\",\n"
                          "                  {${block_tile}, ${phase_depth}, ${threads}}, ${multiples}, ${shared},\n"
                          "                  ${gate},\n                  ${capability},\n"
                          "                  \"${kit_kernel}\"})\n")
    if(NOT kernel STREQUAL "")
      string(APPEND kernels "TILELAB_KERNEL_LAB(${id}, ${launcher}, ${kernel}, ${multiples})\n")
    endif()
  endforeach()
  file(RELATIVE_PATH source "${PROJECT_SOURCE_DIR}" "${registry}")
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
