/// @file cuda_runtime.h
/// @brief The CPU backend's stand-in for cuda_runtime.h: the runtime API and CUDA's kernel language
/// (qualifiers, threadIdx and friends, __syncthreads, launches), force-included into every lab source that
/// this backend compiles, as nvcc does with NVIDIA's header.
#pragma once

#include <cuda_runtime_api.h>
#include <tilelab/cpu/kernel_language.hpp>
