// The performance gate's reset of the L2 cache's persistence controls (gate_l2.hpp).
#include "gate_l2.hpp"

#include <tilelab/cuda_check.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>

namespace tilelab::runner {

// Run by perf_fill, right before each timed request and outside the checker's clock, in the lab's program and in
// the reference's alike. Every call is checked. A GPU without persisting L2
// (cudaDevAttrMaxPersistingL2CacheSize 0: before compute capability 8.0, or a MIG instance) has nothing to reset. A
// stream's window is read first: where the runtime has none for that stream (reading it fails), nothing can have
// been set on it, and that error is taken off the runtime's last error so that the timed launches' check does not
// report it as theirs.
void gate_reset_persisting_l2() {
    int device = 0;
    TILELAB_CUDA_CHECK(cudaGetDevice(&device));
    int persisting_max = 0;
    TILELAB_CUDA_CHECK(cudaDeviceGetAttribute(&persisting_max, cudaDevAttrMaxPersistingL2CacheSize, device));
    if (persisting_max <= 0) return;
    TILELAB_CUDA_CHECK(cudaCtxResetPersistingL2Cache());
    std::size_t set_aside = 0;
    TILELAB_CUDA_CHECK(cudaDeviceGetLimit(&set_aside, cudaLimitPersistingL2CacheSize));
    if (set_aside != 0) TILELAB_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));
    for (cudaStream_t stream : {cudaStreamLegacy, cudaStreamPerThread}) {
        cudaStreamAttrValue window{};
        if (cudaStreamGetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &window) != cudaSuccess) {
            static_cast<void>(cudaGetLastError());  // no window on this stream to clear
            continue;
        }
        if (window.accessPolicyWindow.num_bytes == 0) continue;
        cudaStreamAttrValue cleared{};  // no window: no bytes, normal hits and misses
        cleared.accessPolicyWindow.base_ptr = nullptr;
        cleared.accessPolicyWindow.num_bytes = 0;
        cleared.accessPolicyWindow.hitRatio = 0.0f;
        cleared.accessPolicyWindow.hitProp = cudaAccessPropertyNormal;
        cleared.accessPolicyWindow.missProp = cudaAccessPropertyNormal;
        TILELAB_CUDA_CHECK(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &cleared));
    }
}

}  // namespace tilelab::runner
