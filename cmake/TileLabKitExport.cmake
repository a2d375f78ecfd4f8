# Makes this build a "kit" that many submissions are graded against without building it again
# (grader/batch.sh): the targets a lab's runner links and the programs its tests run are exported from this build
# tree, and the settings they were built with are written next to them. grader/submission/CMakeLists.txt reads
# both; a submission's build then compiles only its own lab files.
include_guard(GLOBAL)

# tilelab_export_kit(): call once every kit target exists (after the graded submission has been registered, which
# creates the labs' adapters and kit kernels).
function(tilelab_export_kit)
  set(targets tilelab-sandbox-compile tilelab-source-check tilelab-build-check)
  foreach(backend IN LISTS TILELAB_BACKENDS)
    list(APPEND targets tilelab-checker-${backend} tilelab_lab_support_${backend} tilelab_runtime_${backend}
         tilelab_runner_main_${backend})
  endforeach()
  if("cpu" IN_LIST TILELAB_BACKENDS)
    list(APPEND targets tilelab-cuda-to-cpp tilelab_boost_context)
  endif()
  if("gpu" IN_LIST TILELAB_BACKENDS)
    list(APPEND targets tilelab-runner-host-gpu tilelab_runner_module_entry_gpu)
  endif()
  # The labs' adapters and kit kernels (TileLabRunner.cmake), as many as the labs registered so far created.
  get_property(kit_objects GLOBAL PROPERTY TILELAB_KIT_OBJECTS)
  list(APPEND targets ${kit_objects})
  export(TARGETS ${targets} FILE "${CMAKE_BINARY_DIR}/tilelab-kit-targets.cmake")

  # The settings a submission's build must share with the kit: compilers, flags, and the grading options.
  set(settings "# Written by the TileLab kit build (cmake/TileLabKitExport.cmake); read by grader/submission.\n")
  foreach(variable TILELAB_BACKENDS TILELAB_TILE_WIDTHS TILELAB_TEST_TIMEOUT TILELAB_REQUEST_LIMIT TILELAB_REQUEST_CPU_LIMIT TILELAB_GPU_REQUEST_LIMIT
                   TILELAB_PERF_TILE_WIDTH
                   TILELAB_MIN_SPEEDUP TILELAB_GATE_CUDA_FLAGS TILELAB_SANITIZER_TILE_WIDTH TILELAB_COMPUTE_SANITIZER TILELAB_RUNNER_MODULES
                   TILELAB_CXXFILT TILELAB_CPU_FMA_FLAGS CMAKE_BUILD_TYPE CMAKE_CXX_COMPILER CMAKE_CXX_FLAGS CMAKE_CUDA_COMPILER
                   CMAKE_CUDA_FLAGS CMAKE_CUDA_ARCHITECTURES CMAKE_CUDA_HOST_COMPILER CMAKE_NM)
    if(DEFINED ${variable})
      string(APPEND settings "set(${variable} [==[${${variable}}]==])\n")
    endif()
  endforeach()
  string(APPEND settings "set(TILELAB_KIT_SOURCE_DIR [==[${PROJECT_SOURCE_DIR}]==])\n"
                         "set(TILELAB_KIT_BUILD_DIR [==[${CMAKE_BINARY_DIR}]==])\n")
  file(WRITE "${CMAKE_BINARY_DIR}/tilelab-kit-settings.cmake" "${settings}")
endfunction()
