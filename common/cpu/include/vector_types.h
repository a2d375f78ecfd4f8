/// @file vector_types.h
/// @brief The CPU backend's stand-in for CUDA's <vector_types.h>: CUDA's vector types (uint3, dim3, float2, float4), which the stand-in runtime defines
/// (cuda_runtime.h, force-included into every lab source). Here so that CUDA's own header, which may be on the
/// host compiler's path, is never mixed with the stand-in's definitions.
#pragma once

#include <cuda_runtime.h>
