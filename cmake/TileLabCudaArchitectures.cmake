# Chooses CMAKE_CUDA_ARCHITECTURES when the user did not: the local GPU ("native") where nvidia-smi sees one,
# otherwise real code for every architecture CUDA 13 supports from Turing on, plus PTX for the newest, so a
# build made on a machine without a GPU (CI, a Gradescope image) runs on any current card.
# Included before project(): once CUDA is enabled, CMake would already have picked its own default.
if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
  return()
endif()

find_program(TILELAB_NVIDIA_SMI nvidia-smi)
set(_tilelab_gpu_seen FALSE)
if(TILELAB_NVIDIA_SMI)
  execute_process(COMMAND "${TILELAB_NVIDIA_SMI}" --query-gpu=compute_cap --format=csv,noheader
                  RESULT_VARIABLE _tilelab_smi_result OUTPUT_VARIABLE _tilelab_smi_output ERROR_QUIET
                  TIMEOUT 20)
  if(_tilelab_smi_result EQUAL 0 AND _tilelab_smi_output MATCHES "[0-9]")
    set(_tilelab_gpu_seen TRUE)
  endif()
endif()

if(_tilelab_gpu_seen)
  set(CMAKE_CUDA_ARCHITECTURES native CACHE STRING "CUDA architectures to build for")
else()
  set(CMAKE_CUDA_ARCHITECTURES "75-real;80-real;86-real;89-real;90-real;100-real;120"
      CACHE STRING "CUDA architectures to build for")
endif()
message(STATUS "TileLab: CMAKE_CUDA_ARCHITECTURES not set; using ${CMAKE_CUDA_ARCHITECTURES}")
