// The performance gate's reset of the L2 cache's persistence controls (grader/runner/gate_l2.hpp), on a GPU: a
// program that set aside L2 for persisting accesses and gave the default streams an access policy window over its
// data has neither once the reset has run, and the runtime's last error is clean for the timed launches' check.
// Without a GPU it reports itself skipped.
#include "gate_l2.hpp"

#include <tilelab/cuda_check.hpp>

#include <cuda_runtime_api.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>

namespace {

// The access policy window of @p stream, or none when the runtime has none for it (reading it fails).
bool window_of(cudaStream_t stream, cudaAccessPolicyWindow& window) {
    cudaStreamAttrValue value{};
    if (cudaStreamGetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &value) != cudaSuccess) {
        static_cast<void>(cudaGetLastError());
        return false;
    }
    window = value.accessPolicyWindow;
    return true;
}

}  // namespace

TEST_SUITE("gpu-gate-l2") {
    TEST_CASE("the gate's reset leaves no persisting L2 set-aside and no access policy window on the default streams") {
        int devices = 0;
        if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
            static_cast<void>(cudaGetLastError());
            MESSAGE("SKIPPED: no usable CUDA GPU");
            return;
        }
        int device = 0, persisting_max = 0, window_max = 0;
        REQUIRE(cudaGetDevice(&device) == cudaSuccess);
        REQUIRE(cudaDeviceGetAttribute(&persisting_max, cudaDevAttrMaxPersistingL2CacheSize, device) == cudaSuccess);
        REQUIRE(cudaDeviceGetAttribute(&window_max, cudaDevAttrMaxAccessPolicyWindowSize, device) == cudaSuccess);
        if (persisting_max <= 0 || window_max <= 0) {
            MESSAGE("this GPU has no persisting L2: nothing to reset");
            CHECK_NOTHROW(tilelab::runner::gate_reset_persisting_l2());
            return;
        }
        const std::size_t bytes = std::min<std::size_t>(static_cast<std::size_t>(window_max), std::size_t{4} << 20);
        void* data = nullptr;
        REQUIRE(cudaMalloc(&data, bytes) == cudaSuccess);
        // What a lab's code could leave behind: L2 set aside, and a window that keeps its data there.
        REQUIRE(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, static_cast<std::size_t>(persisting_max)) == cudaSuccess);
        int windows_set = 0;
        for (cudaStream_t stream : {cudaStreamLegacy, cudaStreamPerThread}) {
            cudaStreamAttrValue value{};
            value.accessPolicyWindow.base_ptr = data;
            value.accessPolicyWindow.num_bytes = bytes;
            value.accessPolicyWindow.hitRatio = 1.0f;
            value.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
            value.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
            if (cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &value) == cudaSuccess) {
                ++windows_set;
                cudaAccessPolicyWindow window{};
                REQUIRE(window_of(stream, window));
                CHECK(window.num_bytes == bytes);
            } else {
                static_cast<void>(cudaGetLastError());  // no window on this stream: nothing a lab could leave there
            }
        }
        MESSAGE("windows set before the reset: " << windows_set << " of the 2 default streams");
        REQUIRE(cudaMemset(data, 0, bytes) == cudaSuccess);  // accesses through the window
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);

        CHECK_NOTHROW(tilelab::runner::gate_reset_persisting_l2());

        std::size_t set_aside = 1;
        CHECK(cudaDeviceGetLimit(&set_aside, cudaLimitPersistingL2CacheSize) == cudaSuccess);
        CHECK(set_aside == 0);
        for (cudaStream_t stream : {cudaStreamLegacy, cudaStreamPerThread}) {
            cudaAccessPolicyWindow window{};
            if (window_of(stream, window)) CHECK(window.num_bytes == 0);
        }
        CHECK(cudaGetLastError() == cudaSuccess);  // nothing left for the timed launches' check to report
        CHECK_NOTHROW(tilelab::runner::gate_reset_persisting_l2());  // and again, with nothing to reset
        CHECK(cudaFree(data) == cudaSuccess);
    }
}
