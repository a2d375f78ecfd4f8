# Which backends this build has. The CPU backend (the emulator in common/cpu) needs only a C++ compiler and
# Boost.Context, so it is always there; the GPU backend needs a CUDA compiler. TILELAB_BACKENDS lists the
# backends whose tests are registered: every lab is graded on each.
include_guard(GLOBAL)
include(CheckLanguage)

check_language(CUDA)
if(CMAKE_CUDA_COMPILER)
  # Before CUDA is enabled: it decides CMAKE_CUDA_ARCHITECTURES only if the user did not.
  include("${CMAKE_CURRENT_LIST_DIR}/TileLabCudaArchitectures.cmake")
  enable_language(CUDA)
  set(_tilelab_backends cpu gpu)
else()
  message(STATUS "TileLab: no CUDA compiler found; grading with the CPU backend only")
  set(_tilelab_backends cpu)
endif()
set(TILELAB_BACKENDS "${_tilelab_backends}" CACHE STRING
    "Backends the labs are graded on: cpu (the emulator, any machine), gpu (needs nvcc; checks skip without a GPU)")
foreach(backend IN LISTS TILELAB_BACKENDS)
  if(NOT backend MATCHES "^(cpu|gpu)$")
    message(FATAL_ERROR "TILELAB_BACKENDS: '${backend}' is not a backend (cpu, gpu)")
  endif()
endforeach()
if("gpu" IN_LIST TILELAB_BACKENDS AND NOT CMAKE_CUDA_COMPILER)
  message(FATAL_ERROR "TILELAB_BACKENDS has gpu, but no CUDA compiler was found (set CMAKE_CUDA_COMPILER)")
endif()

if("gpu" IN_LIST TILELAB_BACKENDS)
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  find_package(CUDAToolkit REQUIRED)
  find_program(TILELAB_CUOBJDUMP cuobjdump HINTS "${CUDAToolkit_BIN_DIR}"
               DOC "cuobjdump, for the GPU backend's shared-memory check (it reads the kernel's machine code)")
  if(NOT TILELAB_CUOBJDUMP)
    # Only a machine with a GPU runs the GPU backend's checks; elsewhere they are skipped, and the warning, shown on
    # every grade, would only be noise.
    find_program(_tilelab_nvidia_smi nvidia-smi)
    set(_tilelab_gpus "")
    if(_tilelab_nvidia_smi)
      execute_process(COMMAND "${_tilelab_nvidia_smi}" -L OUTPUT_VARIABLE _tilelab_gpus ERROR_QUIET)
    endif()
    if(_tilelab_gpus MATCHES "GPU [0-9]")
      message(WARNING "TileLab: cuobjdump not found: the GPU backend's shared-memory check will fail every lab")
    else()
      message(STATUS "TileLab: cuobjdump not found; no GPU here, so no check needs it (the GPU's checks are skipped)")
    endif()
  endif()
  find_program(TILELAB_COMPUTE_SANITIZER compute-sanitizer HINTS "${CUDAToolkit_BIN_DIR}"
               DOC "compute-sanitizer, for the memcheck, racecheck and synccheck tests (none: those tests are left out)")
endif()

if("cpu" IN_LIST TILELAB_BACKENDS)
  # Found by hand rather than with find_package(Boost): CMake 4 dropped FindBoost, and only this header and one
  # library are needed (Debian: libboost-context-dev; macOS: brew install boost).
  find_path(TILELAB_BOOST_INCLUDE_DIR boost/context/fiber.hpp DOC "Boost headers, for the CPU backend's fibers")
  find_library(TILELAB_BOOST_CONTEXT_LIBRARY NAMES boost_context DOC "Boost.Context, for the CPU backend's fibers")
  if(NOT TILELAB_BOOST_INCLUDE_DIR OR NOT TILELAB_BOOST_CONTEXT_LIBRARY)
    message(FATAL_ERROR "TileLab: the CPU backend needs Boost.Context (Debian/Ubuntu: apt-get install "
                        "libboost-context-dev; macOS: brew install boost), or leave it out with -DTILELAB_BACKENDS=gpu")
  endif()
  add_library(tilelab_boost_context INTERFACE)
  target_include_directories(tilelab_boost_context SYSTEM INTERFACE "${TILELAB_BOOST_INCLUDE_DIR}")
  target_link_libraries(tilelab_boost_context INTERFACE "${TILELAB_BOOST_CONTEXT_LIBRARY}")
endif()
