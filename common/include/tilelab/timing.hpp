/// @file timing.hpp
/// @brief Timing GPU work with CUDA events, and the median of repeated timings.
#pragma once

#include "tilelab/cuda_check.hpp"
#include "tilelab/cuda_event.hpp"

#include <vector>

namespace tilelab {

/// Milliseconds that the GPU work queued by @p launch takes, between two events around it. Checks the launch
/// (cudaGetLastError) and waits for the work, so a fault shows here as a CudaError.
template <typename Launch>
float time_ms(Launch&& launch) {
    CudaEvent start;
    CudaEvent stop;
    start.record();
    launch();
    stop.record();
    TILELAB_CUDA_CHECK(cudaGetLastError());
    return elapsed_ms(start, stop);
}

/// The median of @p values (the mean of the middle two for an even count); 0 for none.
float median(std::vector<float> values);

}  // namespace tilelab
