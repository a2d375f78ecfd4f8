/// @file device_launch_parameters.h
/// @brief The CPU backend's stand-in for CUDA's <device_launch_parameters.h>: threadIdx, blockIdx, blockDim and gridDim, which the stand-in runtime defines
/// (cuda_runtime.h, force-included into every lab source). Here so that CUDA's own header, which may be on the
/// host compiler's path, is never mixed with the stand-in's definitions.
#pragma once

#include <cuda_runtime.h>
