// Cheat: the launcher copies M and N into the kit's own HostMatrix, calls the kit's float64 reference product
// (tilelab::reference_matmul, the very answer the grader compares with), rounds it to float and copies it
// into P. The kernel is empty.
// Stopped by: the runner has none of the grader's code (the build fails: the lab calls the grader's own code).
#include <tilelab/labs.hpp>
#include <tilelab/reference.hpp>

#include <cstddef>
#include <vector>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    tilelab::HostMatrix m(rows, inner);
    tilelab::HostMatrix n(inner, cols);
    cudaMemcpy(m.data(), M, m.size() * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(n.data(), N, n.size() * sizeof(float), cudaMemcpyDeviceToHost);
    const tilelab::ReferenceProduct answer = tilelab::reference_matmul(m, n);
    std::vector<float> p(answer.value.size());
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = static_cast<float>(answer.value[i]);
    cudaMemcpy(P, p.data(), p.size() * sizeof(float), cudaMemcpyHostToDevice);
}
