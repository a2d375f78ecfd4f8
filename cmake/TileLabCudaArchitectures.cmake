# Chooses CMAKE_CUDA_ARCHITECTURES when the user did not: the local GPUs' own architectures where nvidia-smi sees
# one, otherwise real code for every architecture from Turing on that the CUDA compiler supports, plus PTX for the
# newest, so a build made on a machine without a GPU (CI, a Gradescope image) runs on any current card; with
# TILELAB_ONE_ARCHITECTURE (grade.cmake's own build), the newest alone, which nothing runs.
# Included by TileLabBackends.cmake once check_language(CUDA) has found the compiler and before CUDA is enabled
# (enable_language would pick CMake's own default). CMake 3.22 has no "native" (3.24) nor "all" (3.23): the
# architectures are asked of nvidia-smi and of the compiler here instead, the same list on every CMake.
include_guard(GLOBAL)
if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS} OR NOT CMAKE_CUDA_COMPILER)
  return()
endif()

# What this CUDA compiler can build real code for ("sm_75;sm_80;..."); empty where it cannot say (--list-gpu-code
# is CUDA 11's), and then nothing is left out.
execute_process(COMMAND "${CMAKE_CUDA_COMPILER}" --list-gpu-code RESULT_VARIABLE _tilelab_list_result
                OUTPUT_VARIABLE _tilelab_supported ERROR_QUIET TIMEOUT 60)
if(NOT _tilelab_list_result EQUAL 0)
  set(_tilelab_supported "")
endif()
string(REGEX MATCHALL "sm_[0-9]+" _tilelab_supported "${_tilelab_supported}")

# The local GPUs' compute capabilities ("9.0" -> 90), what "native" would build for.
set(_tilelab_caps "")
find_program(TILELAB_NVIDIA_SMI nvidia-smi)
if(TILELAB_NVIDIA_SMI)
  execute_process(COMMAND "${TILELAB_NVIDIA_SMI}" --query-gpu=compute_cap --format=csv,noheader
                  RESULT_VARIABLE _tilelab_smi_result OUTPUT_VARIABLE _tilelab_smi_output ERROR_QUIET TIMEOUT 20)
  if(_tilelab_smi_result EQUAL 0)
    string(REGEX MATCHALL "[0-9]+[.][0-9]+" _tilelab_caps "${_tilelab_smi_output}")
  endif()
endif()
set(_tilelab_local "")
foreach(_tilelab_cap IN LISTS _tilelab_caps)
  string(REPLACE "." "" _tilelab_architecture "${_tilelab_cap}")
  if(NOT _tilelab_supported OR "sm_${_tilelab_architecture}" IN_LIST _tilelab_supported)
    list(APPEND _tilelab_local ${_tilelab_architecture})
  else()
    # The checker then reports every GPU check skipped on this GPU, with the reason (device_requirements.cpp).
    message(WARNING "TileLab: this GPU (compute capability ${_tilelab_cap}) is older than any architecture "
                    "${CMAKE_CUDA_COMPILER} builds for (${_tilelab_supported}): "
                    "its GPU checks will be skipped; grade on the CPU backend, or with an older CUDA Toolkit")
  endif()
endforeach()
list(REMOVE_DUPLICATES _tilelab_local)

set(_tilelab_default "")
foreach(_tilelab_architecture 75 80 86 89 90 100 120)
  if(NOT _tilelab_supported OR "sm_${_tilelab_architecture}" IN_LIST _tilelab_supported)
    list(APPEND _tilelab_default ${_tilelab_architecture}-real)
    set(_tilelab_newest ${_tilelab_architecture})
  endif()
endforeach()
# The newest as PTX too, which the driver compiles for cards newer than the compiler.
list(REMOVE_ITEM _tilelab_default ${_tilelab_newest}-real)
list(APPEND _tilelab_default ${_tilelab_newest})
if(_tilelab_local)
  set(_tilelab_default "${_tilelab_local}")
elseif(TILELAB_ONE_ARCHITECTURE)  # grade.cmake without a GPU: nvcc's compile check; every GPU check is skipped
  set(_tilelab_default ${_tilelab_newest})
elseif(NOT EXISTS /dev/nvidiactl AND NOT EXISTS /proc/driver/nvidia/gpus)
  # No GPU here (no NVIDIA driver either, where nvidia-smi could be missing): the kit's own tests build each lab for
  # the newest architecture alone (tilelab_lab_cuda_architectures), since nothing here runs it and its build test is
  # nvcc's compile check; the kit's programs keep every architecture. Cached: a later configure finds
  # CMAKE_CUDA_ARCHITECTURES set and returns above.
  set(TILELAB_LAB_ARCHITECTURE_WITHOUT_GPU ${_tilelab_newest} CACHE INTERNAL
      "The architecture the kit's own tests build labs for where the machine has no GPU")
  if(TILELAB_SELFTEST)
    message(STATUS "TileLab: no GPU here: the kit's own tests build the labs for ${_tilelab_newest} alone")
  endif()
endif()
set(CMAKE_CUDA_ARCHITECTURES "${_tilelab_default}" CACHE STRING "CUDA architectures to build for")
message(STATUS "TileLab: CMAKE_CUDA_ARCHITECTURES not set; using ${CMAKE_CUDA_ARCHITECTURES}")
