// The performance gate's kit kernels (gate_device.hpp): they run in the timed program, before (fill) and after
// (digest) the kernel the checker times, the same in a lab's runner and in the gate's reference program.
#include "gate_device.hpp"

#include <tilelab/cuda_check.hpp>
#include <tilelab/gate_data.hpp>

#include <cuda_runtime.h>

namespace tilelab::runner {
namespace {

constexpr int threads = 256;
constexpr int blocks = 1024;  // grid-stride loops: enough blocks to fill any GPU, few atomics

__global__ void fill_kernel(float* M, float* N, std::uint64_t count, std::uint64_t seed, std::uint32_t set) {
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x) {
        M[i] = gate::operand_value(seed, set, gate::Operand::M, i);
        N[i] = gate::operand_value(seed, set, gate::Operand::N, i);
    }
}

// Block row blockIdx.y digests result blockIdx.y into sums[blockIdx.y].
__global__ void digest_kernel(const float* P, std::uint64_t count, unsigned long long* sums) {
    P += blockIdx.y * count;
    std::uint64_t part = 0;
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x)
        part += gate::digest_share(__float_as_uint(P[i]), i);
    for (int offset = 16; offset > 0; offset /= 2) part += __shfl_down_sync(0xffffffffu, part, offset);
    if ((threadIdx.x & 31) == 0) atomicAdd(sums + blockIdx.y, static_cast<unsigned long long>(part));  // wraps: a sum mod 2^64
}

}  // namespace

void gate_fill(float* M, float* N, int n, std::uint64_t seed, std::uint32_t set) {
    const std::uint64_t count = static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(n);
    fill_kernel<<<blocks, threads>>>(M, N, count, seed, set);
    TILELAB_CUDA_CHECK(cudaGetLastError());
    TILELAB_CUDA_CHECK(cudaDeviceSynchronize());
}

std::vector<std::uint64_t> gate_digests(const float* P, std::size_t count, int sets) {
    // Scratch words, kept: allocating in every timed request would add an allocation's cost to the time.
    static unsigned long long* sums = nullptr;
    static int capacity = 0;
    if (sets > capacity) {
        if (sums != nullptr) TILELAB_CUDA_CHECK(cudaFree(sums));
        sums = nullptr;
        TILELAB_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&sums), sets * sizeof *sums));
        capacity = sets;
    }
    TILELAB_CUDA_CHECK(cudaMemsetAsync(sums, 0, sets * sizeof *sums));
    digest_kernel<<<dim3(blocks / 4, static_cast<unsigned>(sets)), threads>>>(P, count, sums);
    TILELAB_CUDA_CHECK(cudaGetLastError());
    std::vector<unsigned long long> host(static_cast<std::size_t>(sets));
    TILELAB_CUDA_CHECK(cudaMemcpy(host.data(), sums, host.size() * sizeof *sums, cudaMemcpyDeviceToHost));
    return std::vector<std::uint64_t>(host.begin(), host.end());
}

}  // namespace tilelab::runner
