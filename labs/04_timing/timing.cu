/// @file labs/04_timing/timing.cu
/// @brief Lab 04: the host code that runs and times your lab 03 kernel. The handout is README.md in this folder.
#include <tilelab/cuda_check.hpp>
#include <tilelab/cuda_event.hpp>
#include <tilelab/device_buffer.hpp>
#include <tilelab/labs.hpp>

/// Multiplies host matrices on the GPU with matmul_tiled_boundary_kernel and returns the kernel's time in ms.
float matmul_timed(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // TODO(student): step 1, allocate device memory for M, N and P (sizes in std::size_t).
    // TODO(student): step 2, copy M and N to the device.
    // TODO(student): step 3, a grid that covers P for any shape.
    // TODO(student): step 4, record a start event, launch the kernel, record a stop event, check the launch.
    // TODO(student): step 5, wait for the stop event and read the elapsed milliseconds.
    // TODO(student): step 6, copy P back to the host and free the device memory.
    return 0.0f;
}
