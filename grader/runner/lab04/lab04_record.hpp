/// @file lab04_record.hpp
/// @brief The runner's access to the record the kit's lab 03 kernel keeps in lab 04 (recorded_kernel.cu).
#pragma once

#include <tilelab/kernel_record.hpp>

namespace tilelab::runner {

/// Zeroes the record, before a call of matmul_timed. Throws tilelab::CudaError if the device refuses.
void reset_lab04_record();
/// The record as the kernel left it (the device is idle: matmul_timed has returned). Throws tilelab::CudaError.
KernelRecord read_lab04_record();

}  // namespace tilelab::runner
