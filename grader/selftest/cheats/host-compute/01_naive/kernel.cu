// Cheat: the launcher copies M and N to the host, computes P on the CPU and copies it back; the kernel is
// empty. Where the grader only called the launcher and checked P, the right P earned every point.
// Stopped by: the contract launch (the kit launches the kernel itself; an empty kernel computes nothing).
#include <tilelab/labs.hpp>

#include <cstddef>
#include <vector>

__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {}

void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    std::vector<float> m(static_cast<std::size_t>(rows) * inner);
    std::vector<float> n(static_cast<std::size_t>(inner) * cols);
    std::vector<float> p(static_cast<std::size_t>(rows) * cols);
    cudaMemcpy(m.data(), M, m.size() * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(n.data(), N, n.size() * sizeof(float), cudaMemcpyDeviceToHost);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            float sum = 0.0f;
            for (int k = 0; k < inner; ++k)
                sum += m[static_cast<std::size_t>(r) * inner + k] * n[static_cast<std::size_t>(k) * cols + c];
            p[static_cast<std::size_t>(r) * cols + c] = sum;
        }
    cudaMemcpy(P, p.data(), p.size() * sizeof(float), cudaMemcpyHostToDevice);
}
