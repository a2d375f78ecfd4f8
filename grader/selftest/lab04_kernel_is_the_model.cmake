# Lab 04's lab 03 kernel (grader/runner/lab04/recorded_kernel.cu) holds a copy of the model answer, so that a kit
# shipped without solutions/ builds it: this fails when the copy and solutions/03_tiled_boundary/kernel.cu differ.
#   cmake -DMODEL=<solutions/03_tiled_boundary/kernel.cu> -DKIT_COPY=<grader/runner/lab04/recorded_kernel.cu> -P this
file(READ "${MODEL}" model)
string(REPLACE "__global__ void matmul_tiled_boundary_kernel(" "__device__ void tilelab_lab03_model_body(" model "${model}")
file(READ "${KIT_COPY}" copy)
set(begin "// --- begin: solutions/03_tiled_boundary/kernel.cu, its kernel renamed ---\n")
set(end "// --- end: solutions/03_tiled_boundary/kernel.cu ---")
string(FIND "${copy}" "${begin}" at)
string(FIND "${copy}" "${end}" stop)
if(at EQUAL -1 OR stop EQUAL -1)
  message(FATAL_ERROR "${KIT_COPY}: the markers around the model answer are missing")
endif()
string(LENGTH "${begin}" skip)
math(EXPR at "${at} + ${skip}")
math(EXPR length "${stop} - ${at}")
string(SUBSTRING "${copy}" ${at} ${length} copied)
if(NOT copied STREQUAL model)
  message(FATAL_ERROR "lab 04's kernel (${KIT_COPY}) is not the model answer any more: copy "
                      "${MODEL} between its markers, with the kernel renamed to __device__ void tilelab_lab03_model_body(")
endif()
message(STATUS "lab 04's kernel is the model answer of lab 03")
