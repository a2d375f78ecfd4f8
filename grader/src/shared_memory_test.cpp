// The tiled labs must keep their tiles in shared memory: naive code in a tiled stub fails here, with a message
// that says so, even on a GPU where its caches make it fast.
#include "lab_under_test.hpp"

#include <tilelab/cuda_check.hpp>
#include <tilelab/device_buffer.hpp>

#include <doctest/doctest.h>

#include <string>

namespace tilelab::grader {
namespace {

// The CPU backend learns a kernel's shared memory as the kernel runs: run it once on one tile first. Whatever
// goes wrong in that run is the correctness checks' business, not this one's.
void run_once_on_cpu_backend([[maybe_unused]] const LabUnderTest& lab) {
#ifdef TILELAB_CPU_BACKEND
    const int t = lab.tile_width;
    const std::size_t count = static_cast<std::size_t>(t) * t;
    DeviceBuffer<float> M(count), N(count), P(count);
    TILELAB_CUDA_CHECK(cudaMemset(M.data(), 0, count * sizeof(float)));
    TILELAB_CUDA_CHECK(cudaMemset(N.data(), 0, count * sizeof(float)));
    lab.launch(M.data(), N.data(), P.data(), t, t, t);
    static_cast<void>(cudaGetLastError());
    static_cast<void>(cudaDeviceSynchronize());
    static_cast<void>(cudaGetLastError());
#endif
}

}  // namespace

TEST_SUITE("shared-memory") {
    TEST_CASE("keeps a tile of M and a tile of N in shared memory") {
        const LabUnderTest& lab = lab_under_test();
        run_once_on_cpu_backend(lab);
        cudaFuncAttributes attributes{};
        TILELAB_CUDA_CHECK(cudaFuncGetAttributes(&attributes, lab.kernel));
        const std::size_t needed = 2 * static_cast<std::size_t>(lab.tile_width) * lab.tile_width * sizeof(float);
        const std::string found = std::to_string(attributes.sharedSizeBytes);
        // What the tile width means for how many blocks share a multiprocessor, from the occupancy API.
        const int threads = lab.tile_width * lab.tile_width;
        int blocks_per_sm = 0;
        TILELAB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, lab.kernel, threads, 0));
        MESSAGE(("TILE_WIDTH " + std::to_string(lab.tile_width) + ": " + std::to_string(threads) +
                 " threads and " + found + " bytes of static shared memory per block (two tiles need " +
                 std::to_string(needed) + "), " + std::to_string(attributes.numRegs) + " registers per thread; " +
                 std::to_string(blocks_per_sm) + " blocks (" + std::to_string(blocks_per_sm * threads) +
                 " threads) fit on one multiprocessor"));
        if (attributes.sharedSizeBytes < needed)
            FAIL_CHECK(("the kernel uses " + found + " bytes of static shared memory, but two TILE_WIDTH x TILE_WIDTH "
                        "float tiles need 2 * " + std::to_string(lab.tile_width) + " * " +
                        std::to_string(lab.tile_width) + " * 4 = " + std::to_string(needed) +
                        " bytes: this looks like untiled code in a tiled lab. Declare __shared__ float "
                        "M_tile[TILE_WIDTH][TILE_WIDTH] and N_tile the same way, and compute from them"));
    }
}

}  // namespace tilelab::grader
