# The lab registry (grader/labs.json) as CMake variables, read with string(JSON) (CMake 3.19+), so that a lab is
# declared once, there, and nowhere in the kit's CMake. Sets, in the scope that includes this file:
#   TILELAB_LABS                        the labs' folders, in order
#   TILELAB_<folder>_ID                 lab01, ...
#   TILELAB_<folder>_FILES              the submission's files of the lab (<folder>/kernel.cu)
#   TILELAB_<folder>_SUITES             its checks' suites, each a CTest test (not "build", not compute-sanitizer's)
#   TILELAB_<folder>_SANITIZER_TOOLS    its compute-sanitizer suites (memcheck, racecheck, synccheck)
#   TILELAB_<folder>_LAUNCHER, _KERNEL  the contract's names (no kernel: host code, graded with a kit kernel)
#   TILELAB_<folder>_BLOCK_TILE, _THREADS  the labs.hpp constants of a lab configured by its own
#   TILELAB_<folder>_KIT_KERNEL         the folder of the lab whose model kernel the kit builds into this lab
#   TILELAB_<folder>_GATE_REFERENCE     the folder of the lab whose model answer the performance gate races
#   TILELAB_<folder>_MIN_COMPUTE_CAPABILITY  "major.minor" ("": any GPU)
# The rest of an entry is the C++ table's (grader/tools/tilelab_lab_table.cpp), which also checks the entry.
#   TILELAB_FIXED_CONFIGURATION_LABS    the labs configured by their own constants, not TILE_WIDTH
#   TILELAB_SUITE_<suite>_KIND, _TIME_FACTOR (1 unless given), _MEASURES_GPU, _ONE_TILE_WIDTH (ON/OFF),
#   TILELAB_SUITE_<suite>_GPU_ONLY      why the suite is skipped on the CPU backend ("" when it is not)
#   TILELAB_SANITIZER_GPU_ONLY          why compute-sanitizer's suites are skipped on the CPU backend
include_guard(GLOBAL)

set(TILELAB_REGISTRY "${CMAKE_CURRENT_LIST_DIR}/../grader/labs.json")
get_filename_component(TILELAB_REGISTRY "${TILELAB_REGISTRY}" ABSOLUTE)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${TILELAB_REGISTRY}")

# The value at a JSON path, or @p default where there is none.
function(_tilelab_json out_var json default)
  string(JSON value ERROR_VARIABLE error GET "${json}" ${ARGN})
  if(error)
    set(value "${default}")
  endif()
  set(${out_var} "${value}" PARENT_SCOPE)
endfunction()

# The elements of the JSON array at a path, as a CMake list (none where there is no array).
function(_tilelab_json_list out_var json)
  set(items "")
  string(JSON count ERROR_VARIABLE error LENGTH "${json}" ${ARGN})
  if(NOT error AND count GREATER 0)
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      string(JSON item GET "${json}" ${ARGN} ${i})
      list(APPEND items "${item}")
    endforeach()
  endif()
  set(${out_var} "${items}" PARENT_SCOPE)
endfunction()

# Sets this file's variables (above) in the caller's scope; a function, so nothing else leaks.
function(_tilelab_read_registry path)
  file(READ "${path}" json)
  string(JSON count LENGTH "${json}" suites)
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON suite MEMBER "${json}" suites ${i})
    foreach(field_default kind= time_factor=1 measures_gpu=OFF one_tile_width=OFF gpu_only=)
      string(REGEX REPLACE "=.*" "" field "${field_default}")
      string(REGEX REPLACE ".*=" "" default "${field_default}")
      _tilelab_json(value "${json}" "${default}" suites ${suite} ${field})
      string(TOUPPER ${field} name)
      set(TILELAB_SUITE_${suite}_${name} "${value}" PARENT_SCOPE)
      set(${field}_of_${suite} "${value}")
    endforeach()
  endforeach()
  string(JSON sanitizer_gpu_only GET "${json}" sanitizer_gpu_only)
  set(TILELAB_SANITIZER_GPU_ONLY "${sanitizer_gpu_only}" PARENT_SCOPE)

  string(JSON count LENGTH "${json}" labs)
  math(EXPR last "${count} - 1")
  set(labs "")
  foreach(i RANGE ${last})  # first the folders, by which the labs name one another below
    string(JSON folder GET "${json}" labs ${i} folder)
    string(JSON id GET "${json}" labs ${i} id)
    list(APPEND labs ${folder})
    set(folder_of_${id} ${folder})
  endforeach()
  set(fixed "")
  foreach(i RANGE ${last})
    list(GET labs ${i} folder)
    set(suites "")
    set(sanitizer_tools "")
    string(JSON count LENGTH "${json}" labs ${i} checks)
    math(EXPR last_check "${count} - 1")
    foreach(check RANGE ${last_check})
      _tilelab_json_list(check_suites "${json}" labs ${i} checks ${check} suites)
      foreach(suite IN LISTS check_suites)
        if(kind_of_${suite} STREQUAL "sanitizer")
          list(APPEND sanitizer_tools ${suite})
        elseif(NOT kind_of_${suite} STREQUAL "build")
          list(APPEND suites ${suite})
        endif()
      endforeach()
    endforeach()
    _tilelab_json_list(files "${json}" labs ${i} files)
    list(TRANSFORM files PREPEND "${folder}/")
    foreach(field id launcher kernel kit_kernel)
      _tilelab_json(${field} "${json}" "" labs ${i} ${field})
    endforeach()
    # A configuration of the lab's own is an object (its labs.hpp constants); else the string "TILE_WIDTH".
    _tilelab_json(block_tile "${json}" "" labs ${i} configuration block_tile)  # "TILE_WIDTH" has none
    _tilelab_json(threads "${json}" "" labs ${i} configuration threads)
    if(NOT block_tile STREQUAL "")
      list(APPEND fixed ${folder})
    endif()
    _tilelab_json(gate_reference "${json}" "" labs ${i} gate reference)
    _tilelab_json(min_compute_capability "${json}" "" labs ${i} min_compute_capability version)
    foreach(field id files suites sanitizer_tools launcher kernel block_tile threads min_compute_capability)
      string(TOUPPER ${field} name)
      set(TILELAB_${folder}_${name} "${${field}}" PARENT_SCOPE)
    endforeach()
    set(TILELAB_${folder}_KIT_KERNEL "${folder_of_${kit_kernel}}" PARENT_SCOPE)
    set(TILELAB_${folder}_GATE_REFERENCE "${folder_of_${gate_reference}}" PARENT_SCOPE)
  endforeach()
  set(TILELAB_LABS ${labs} PARENT_SCOPE)
  set(TILELAB_FIXED_CONFIGURATION_LABS ${fixed} PARENT_SCOPE)
endfunction()

_tilelab_read_registry("${TILELAB_REGISTRY}")
