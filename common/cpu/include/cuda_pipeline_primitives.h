/// @file cuda_pipeline_primitives.h
/// @brief The CPU backend's stand-in for CUDA's <cuda_pipeline_primitives.h>: the asynchronous-copy primitives
/// (__pipeline_memcpy_async, __pipeline_commit, __pipeline_wait_prior), which the stand-in <cuda_pipeline.h> emulates.
#pragma once

#include <cuda_pipeline.h>
