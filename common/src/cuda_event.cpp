#include "tilelab/cuda_event.hpp"

namespace tilelab {

float elapsed_ms(const CudaEvent& start, const CudaEvent& stop) {
    TILELAB_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    float ms = 0.0f;
    TILELAB_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    return ms;
}

}  // namespace tilelab
