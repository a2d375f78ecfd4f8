/// @file grader/bench/context_starts.cu
/// @brief scripts/context-starts.sh's program: a CUDA context's start while other processes use the GPU.
///
///   context_starts start          creates a context, prints "start <seconds>"
///   context_starts load <until>   creates a context, then repeats a small multiply (its own allocations, copies,
///                                 launch and frees, as a grader's request does) until the monotonic clock reads
///                                 <until> seconds; prints "load <requests>"
/// Both wait as the grader's programs do (cudaDeviceScheduleBlockingSync), with the environment's
/// CUDA_DEVICE_MAX_CONNECTIONS.
#include <tilelab/cuda_check.hpp>

#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

double now_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// One thread per element of P (rows x cols), as lab 01's model does.
__global__ void multiply(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows || col >= cols) return;
    float sum = 0;
    for (int k = 0; k < inner; ++k) sum += M[row * inner + k] * N[k * cols + col];
    P[row * cols + col] = sum;
}

/// One request as a grader's runner makes it: three buffers, three uploads, a launch, a wait, a download, frees.
void one_request(std::vector<float>& host_M, std::vector<float>& host_N, std::vector<float>& host_P, int rows,
                 int inner, int cols) {
    float *M = nullptr, *N = nullptr, *P = nullptr;
    TILELAB_CUDA_CHECK(cudaMalloc(&M, host_M.size() * sizeof(float)));
    TILELAB_CUDA_CHECK(cudaMalloc(&N, host_N.size() * sizeof(float)));
    TILELAB_CUDA_CHECK(cudaMalloc(&P, host_P.size() * sizeof(float)));
    TILELAB_CUDA_CHECK(cudaMemcpy(M, host_M.data(), host_M.size() * sizeof(float), cudaMemcpyHostToDevice));
    TILELAB_CUDA_CHECK(cudaMemcpy(N, host_N.data(), host_N.size() * sizeof(float), cudaMemcpyHostToDevice));
    TILELAB_CUDA_CHECK(cudaMemcpy(P, host_P.data(), host_P.size() * sizeof(float), cudaMemcpyHostToDevice));
    const dim3 block(16, 16), grid((cols + 15) / 16, (rows + 15) / 16);
    multiply<<<grid, block>>>(M, N, P, rows, inner, cols);
    TILELAB_CUDA_CHECK(cudaGetLastError());
    TILELAB_CUDA_CHECK(cudaDeviceSynchronize());
    TILELAB_CUDA_CHECK(cudaMemcpy(host_P.data(), P, host_P.size() * sizeof(float), cudaMemcpyDeviceToHost));
    TILELAB_CUDA_CHECK(cudaFree(M));
    TILELAB_CUDA_CHECK(cudaFree(N));
    TILELAB_CUDA_CHECK(cudaFree(P));
}

}  // namespace

int main(int argc, char** argv) {
    const std::string role = argc > 1 ? argv[1] : "";
    if (role != "start" && !(role == "load" && argc > 2)) {
        std::fprintf(stderr, "usage: context_starts start | context_starts load <until, monotonic seconds>\n");
        return 2;
    }
    const double started = now_seconds();
    TILELAB_CUDA_CHECK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
    TILELAB_CUDA_CHECK(cudaFree(nullptr));  // creates the context
    if (role == "start") {
        std::printf("start %.3f\n", now_seconds() - started);
        return 0;
    }
    const double until = std::strtod(argv[2], nullptr);
    const int rows = 65, inner = 33, cols = 47;  // an odd shape of the edges suite's size
    std::vector<float> M(rows * inner, 1.0f), N(inner * cols, 1.0f), P(rows * cols, -1.0f);
    long requests = 0;
    for (; now_seconds() < until; ++requests) one_request(M, N, P, rows, inner, cols);
    std::printf("load %ld\n", requests);
    return 0;
}
