// The performance gate's kit kernels (gate_device.hpp): they run in the timed program, before (fill) and after
// (digest) the kernel the checker times, the same in a lab's runner and in the gate's reference program.
#include "gate_device.hpp"

#include <tilelab/cuda_check.hpp>
#include <tilelab/gate_data.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>

namespace tilelab::runner {
namespace {

constexpr int threads = 256;
constexpr int blocks = 1024;  // grid-stride loops: enough blocks to fill any GPU, few atomics

__global__ void fill_kernel(float* M, float* N, std::uint64_t side, std::uint64_t seed, std::uint32_t set) {
    const std::uint64_t count = side * side;
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x) {
        M[i] = gate::operand_value(seed, set, gate::Operand::M, i, side);
        N[i] = gate::operand_value(seed, set, gate::Operand::N, i, side);
    }
}

// values[i] = P[places[i]], for the checker's samples of every result (gate_gather).
__global__ void gather_kernel(const float* P, const std::uint64_t* places, std::uint64_t count, float* values) {
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x)
        values[i] = P[places[i]];
}

// Leaf blockIdx.x of result blockIdx.y (tilelab/gate_data.hpp's result_digest): its four lane sums, as 8 words in
// leaves[(blockIdx.y * leaf_count + blockIdx.x) * 8 ...]. One block of 256 threads a leaf of 1024 elements.
__global__ void leaf_kernel(const float* P, std::uint64_t count, std::uint64_t leaf_count, std::uint32_t* leaves) {
    P += blockIdx.y * count;
    const std::uint64_t first = blockIdx.x * gate::result_leaf_elements;
    const std::uint64_t end = count < first + gate::result_leaf_elements ? count : first + gate::result_leaf_elements;
    unsigned long long sums[4] = {0, 0, 0, 0};
    for (std::uint64_t i = first + threadIdx.x; i < end; i += blockDim.x) {
        std::uint64_t lanes[4];
        gate::leaf_share(__float_as_uint(P[i]), i, lanes);
        for (int lane = 0; lane < 4; ++lane) sums[lane] += lanes[lane];
    }
    __shared__ unsigned long long block_sums[4];
    if (threadIdx.x < 4) block_sums[threadIdx.x] = 0;
    __syncthreads();  // the block's sums zeroed before any warp adds to them
    for (int lane = 0; lane < 4; ++lane) {
        unsigned long long part = sums[lane];
        for (int offset = 16; offset > 0; offset /= 2) part += __shfl_down_sync(0xffffffffu, part, offset);
        if ((threadIdx.x & 31) == 0) atomicAdd(block_sums + lane, part);  // wraps: a sum mod 2^64
    }
    __syncthreads();  // every warp's part added before the leaf is written
    if (threadIdx.x < 8) {
        const unsigned long long sum = block_sums[threadIdx.x / 2];
        leaves[(blockIdx.y * leaf_count + blockIdx.x) * 8 + threadIdx.x] =
            static_cast<std::uint32_t>(threadIdx.x % 2 == 0 ? sum >> 32 : sum);
    }
}

// The tree of result blockIdx.y over its leaves (in `from`, overwritten), level after level, its nodes in parallel,
// then its digest in digests[blockIdx.y]. One block a result: a level of 4096 leaves' parents in one round.
constexpr int tree_threads = 1024;

__global__ void __launch_bounds__(tree_threads)
    tree_kernel(std::uint32_t* from, std::uint32_t* to, std::uint64_t leaf_count, std::uint64_t count,
                            unsigned long long* digests) {
    from += blockIdx.y * leaf_count * 8;
    to += blockIdx.y * leaf_count * 8;
    std::uint64_t nodes = leaf_count;
    do {
        const std::uint64_t parents = gate::tree_parents(nodes);
        for (std::uint64_t p = threadIdx.x; p < parents; p += blockDim.x)
            gate::tree_node(from + p * gate::result_tree_arity * 8, gate::tree_children(nodes, p), to + p * 8);
        __syncthreads();  // this level written before the next reads it
        std::uint32_t* swap = from;
        from = to;
        to = swap;
        nodes = parents;
    } while (nodes > 1);
    if (threadIdx.x == 0) digests[blockIdx.y] = gate::tree_digest(from, count);
}

}  // namespace

void gate_fill(float* M, float* N, int n, std::uint64_t seed, std::uint32_t set) {
    fill_kernel<<<blocks, threads>>>(M, N, static_cast<std::uint64_t>(n), seed, set);
    TILELAB_CUDA_CHECK(cudaGetLastError());
    TILELAB_CUDA_CHECK(cudaDeviceSynchronize());
}

std::vector<float> gate_gather(const float* P, std::size_t elements, const std::vector<std::uint64_t>& places) {
    for (const std::uint64_t place : places)
        if (place >= elements) throw std::out_of_range("a sampled place past the gate's results");
    std::vector<float> values(places.size());
    if (places.empty()) return values;
    std::uint64_t* device_places = nullptr;
    float* device_values = nullptr;
    TILELAB_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&device_places), places.size() * sizeof *device_places));
    const cudaError_t allocated = cudaMalloc(reinterpret_cast<void**>(&device_values), values.size() * sizeof(float));
    // Freed whatever happens below: the first failure is the one reported.
    cudaError_t failed = allocated;
    if (failed == cudaSuccess)
        failed = cudaMemcpy(device_places, places.data(), places.size() * sizeof *device_places, cudaMemcpyHostToDevice);
    if (failed == cudaSuccess) {
        const auto count = static_cast<std::uint64_t>(places.size());
        gather_kernel<<<static_cast<unsigned>(std::min<std::uint64_t>((count + threads - 1) / threads, blocks)), threads>>>(
            P, device_places, count, device_values);
        failed = cudaGetLastError();
    }
    if (failed == cudaSuccess)
        failed = cudaMemcpy(values.data(), device_values, values.size() * sizeof(float), cudaMemcpyDeviceToHost);
    const cudaError_t freed_places = cudaFree(device_places);
    const cudaError_t freed_values = allocated == cudaSuccess ? cudaFree(device_values) : cudaSuccess;
    TILELAB_CUDA_CHECK(failed);
    TILELAB_CUDA_CHECK(freed_places);
    TILELAB_CUDA_CHECK(freed_values);
    return values;
}

std::vector<std::uint64_t> gate_digests(const float* P, std::size_t count, int sets) {
    // Scratch, kept: allocating in every timed request would add an allocation's cost to the time.
    static unsigned long long* digests = nullptr;
    static std::uint32_t* levels[2] = {nullptr, nullptr};
    static std::size_t capacity_sets = 0, capacity_words = 0;
    const std::uint64_t leaf_count = gate::result_leaves(count);
    const std::size_t words = static_cast<std::size_t>(sets) * leaf_count * 8;
    if (static_cast<std::size_t>(sets) > capacity_sets || words > capacity_words) {
        for (void* old : {static_cast<void*>(digests), static_cast<void*>(levels[0]), static_cast<void*>(levels[1])})
            if (old != nullptr) TILELAB_CUDA_CHECK(cudaFree(old));
        TILELAB_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&digests), sets * sizeof *digests));
        for (std::uint32_t*& level : levels) TILELAB_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&level), words * sizeof *level));
        capacity_sets = static_cast<std::size_t>(sets);
        capacity_words = words;
    }
    leaf_kernel<<<dim3(static_cast<unsigned>(leaf_count), static_cast<unsigned>(sets)), threads>>>(P, count, leaf_count,
                                                                                                    levels[0]);
    TILELAB_CUDA_CHECK(cudaGetLastError());
    tree_kernel<<<dim3(1, static_cast<unsigned>(sets)), tree_threads>>>(levels[0], levels[1], leaf_count, count, digests);
    TILELAB_CUDA_CHECK(cudaGetLastError());
    std::vector<unsigned long long> host(static_cast<std::size_t>(sets));
    TILELAB_CUDA_CHECK(cudaMemcpy(host.data(), digests, host.size() * sizeof *digests, cudaMemcpyDeviceToHost));
    return std::vector<std::uint64_t>(host.begin(), host.end());
}

}  // namespace tilelab::runner
