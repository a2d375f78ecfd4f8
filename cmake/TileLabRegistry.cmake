# The lab registry (grader/labs.json) as CMake variables, read with string(JSON) (CMake 3.19+), so that a lab is
# declared once, there, and nowhere in the kit's CMake. Sets, in the scope that includes this file:
#   TILELAB_LABS                        the labs' folders, in order
#   TILELAB_<folder>_ID                 lab01, ...
#   TILELAB_<folder>_FILES              the submission's files of the lab (<folder>/kernel.cu)
#   TILELAB_<folder>_SUITES             its checks' suites, each a CTest test (not "build", not compute-sanitizer's)
#   TILELAB_<folder>_SANITIZER_TOOLS    its compute-sanitizer suites (memcheck, racecheck, synccheck)
#   TILELAB_<folder>_LAUNCHER, _KERNEL  the contract's names (no kernel: host code, graded with a kit kernel)
#   TILELAB_<folder>_BLOCK_TILE, _THREADS  the labs.hpp constants of a lab configured by its own (0: the contract's)
#   TILELAB_<folder>_KIT_KERNEL         the folder of the lab whose model kernel the kit builds into this lab
#   TILELAB_<folder>_GATE_RUNG_REFERENCES  the folders of the labs whose model answers the performance gate's rungs
#                                       race, one per rung, bottom to top (the rungs' suites are the lab's SUITES of
#                                       kind gate, in the same order)
#   TILELAB_<folder>_TECHNIQUE_REFERENCE  the folder of the lab whose model answer the technique check compares with
#   TILELAB_<folder>_MIN_COMPUTE_CAPABILITY  "major.minor" ("": any GPU)
# The rest of an entry is the C++ table's (grader/tools/tilelab_lab_table.cpp), which also checks the entry.
#   TILELAB_FIXED_CONFIGURATION_LABS    the labs configured by their own constants, not TILE_WIDTH
#   TILELAB_SUITE_<suite>_KIND, _TIME_FACTOR (1 unless given), _MEASURES_GPU, _ONE_TILE_WIDTH (ON/OFF),
#   TILELAB_SUITE_<suite>_GPU_ONLY      why the suite is skipped on the CPU backend ("" when it is not)
#   TILELAB_SUITE_<suite>_CPU_ONLY      why the suite is skipped on the GPU backend ("" when it is not)
#   TILELAB_GATE_SUITES                 the suites of kind gate (every rung of every lab's gate is raced by one)
#   TILELAB_SANITIZER_GPU_ONLY          why compute-sanitizer's suites are skipped on the CPU backend
include_guard(GLOBAL)

get_filename_component(TILELAB_REGISTRY "${CMAKE_CURRENT_LIST_DIR}/../grader/labs.json" ABSOLUTE)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${TILELAB_REGISTRY}")

# The value at a JSON path, or @p default where there is none.
function(_tilelab_json out_var json default)
  string(JSON value ERROR_VARIABLE error GET "${json}" ${ARGN})
  if(error)
    set(value "${default}")
  endif()
  set(${out_var} "${value}" PARENT_SCOPE)
endfunction()

# The elements of the JSON array at a path (of each element, its @p member where that is not ""), as a CMake list:
# none where there is no array.
function(_tilelab_json_list out_var json member)
  set(items "")
  string(JSON count ERROR_VARIABLE error LENGTH "${json}" ${ARGN})
  if(NOT error AND count GREATER 0)
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      string(JSON item GET "${json}" ${ARGN} ${i} ${member})
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
  set(gate_suites "")
  foreach(i RANGE ${last})
    string(JSON suite MEMBER "${json}" suites ${i})
    foreach(field_default kind= time_factor=1 measures_gpu=OFF one_tile_width=OFF gpu_only= cpu_only=)
      string(REGEX MATCH "^[^=]*" field "${field_default}")
      string(REGEX REPLACE ".*=" "" default "${field_default}")
      _tilelab_json(value "${json}" "${default}" suites ${suite} ${field})
      string(TOUPPER ${field} name)
      set(TILELAB_SUITE_${suite}_${name} "${value}" PARENT_SCOPE)
      set(${field}_of_${suite} "${value}")
    endforeach()
    if(kind_of_${suite} STREQUAL "gate")
      list(APPEND gate_suites ${suite})
    endif()
  endforeach()
  set(TILELAB_GATE_SUITES ${gate_suites} PARENT_SCOPE)
  string(JSON sanitizer_gpu_only GET "${json}" sanitizer_gpu_only)
  set(TILELAB_SANITIZER_GPU_ONLY "${sanitizer_gpu_only}" PARENT_SCOPE)

  # First the folders, by which the labs name one another below.
  _tilelab_json_list(labs "${json}" folder labs)
  _tilelab_json_list(ids "${json}" id labs)
  foreach(folder id IN ZIP_LISTS labs ids)
    set(folder_of_${id} ${folder})
  endforeach()
  set(fixed "")
  set(i 0)
  foreach(folder IN LISTS labs)
    set(entry labs ${i})
    math(EXPR i "${i} + 1")
    set(suites "")
    set(sanitizer_tools "")
    string(JSON count LENGTH "${json}" ${entry} checks)
    math(EXPR last "${count} - 1")
    foreach(check RANGE ${last})
      _tilelab_json_list(check_suites "${json}" "" ${entry} checks ${check} suites)
      foreach(suite IN LISTS check_suites)
        if(kind_of_${suite} STREQUAL "sanitizer")
          list(APPEND sanitizer_tools ${suite})
        elseif(NOT kind_of_${suite} STREQUAL "build")
          list(APPEND suites ${suite})
        endif()
      endforeach()
    endforeach()
    # A suite may make several checks (the technique check joins every rung of a speed check): one test each.
    list(REMOVE_DUPLICATES suites)
    _tilelab_json_list(files "${json}" "" ${entry} files)
    list(TRANSFORM files PREPEND "${folder}/")
    foreach(field id launcher kernel kit_kernel)
      _tilelab_json(${field} "${json}" "" ${entry} ${field})
    endforeach()
    # A configuration of the lab's own is an object (its labs.hpp constants); else the string "TILE_WIDTH".
    _tilelab_json(block_tile "${json}" 0 ${entry} configuration block_tile)  # "TILE_WIDTH" has none
    _tilelab_json(threads "${json}" 0 ${entry} configuration threads)
    if(NOT block_tile STREQUAL "0")
      list(APPEND fixed ${folder})
    endif()
    # Each rung of the gate races one lab's model (its suites are the checks', above).
    _tilelab_json_list(references "${json}" reference ${entry} gate rungs)
    list(TRANSFORM references PREPEND folder_of_)
    set(gate_rung_references "")
    foreach(reference IN LISTS references)
      list(APPEND gate_rung_references ${${reference}})
    endforeach()
    _tilelab_json(technique_reference "${json}" "" ${entry} technique reference)
    _tilelab_json(min_compute_capability "${json}" "" ${entry} min_compute_capability version)
    foreach(field id files suites sanitizer_tools launcher kernel block_tile threads min_compute_capability
                  gate_rung_references)
      string(TOUPPER ${field} name)
      set(TILELAB_${folder}_${name} "${${field}}" PARENT_SCOPE)
    endforeach()
    set(TILELAB_${folder}_KIT_KERNEL "${folder_of_${kit_kernel}}" PARENT_SCOPE)
    set(TILELAB_${folder}_TECHNIQUE_REFERENCE "${folder_of_${technique_reference}}" PARENT_SCOPE)
  endforeach()
  set(TILELAB_LABS ${labs} PARENT_SCOPE)
  set(TILELAB_FIXED_CONFIGURATION_LABS ${fixed} PARENT_SCOPE)
endfunction()

_tilelab_read_registry("${TILELAB_REGISTRY}")
