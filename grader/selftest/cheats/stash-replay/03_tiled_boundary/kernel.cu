// CHEAT (red team, issue 27): the launcher's answer, replayed by the kernel. The checker multiplies each shape
// twice on the same M and N: first with the student's launcher, then with the kit's own launch of the kernel. The
// launcher here computes P on the host (copies through cudaMemcpy, nothing else), keeps it in device memory and
// tells the kernel where, in a __device__ pointer; the kernel multiplies nothing: each thread copies the one
// element of P the contract gives it from that stash, when the shape and M's first element match the last
// launcher call. Every access is to device memory, each thread writes exactly its own element, all threads run:
// it is built to pass the checks that look at how P was computed, on the CPU backend and on a GPU alike.
#include <tilelab/labs.hpp>

#include <vector>

__device__ float* stash_P = nullptr;
__device__ int stash_shape[3] = {0, 0, 0};
__device__ float stash_m0 = 0;

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    const int row = blockIdx.y * TILE_WIDTH + threadIdx.y, col = blockIdx.x * TILE_WIDTH + threadIdx.x;
    if (row >= rows || col >= cols || stash_P == nullptr) return;
    if (stash_shape[0] != rows || stash_shape[1] != inner || stash_shape[2] != cols || stash_m0 != M[0]) return;
    P[row * cols + col] = stash_P[row * cols + col];
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    std::vector<float> m(std::size_t(rows) * inner), n(std::size_t(inner) * cols), p(std::size_t(rows) * cols);
    cudaMemcpy(m.data(), M, m.size() * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(n.data(), N, n.size() * sizeof(float), cudaMemcpyDeviceToHost);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            double sum = 0;
            for (int k = 0; k < inner; ++k) sum += double(m[std::size_t(r) * inner + k]) * n[std::size_t(k) * cols + c];
            p[std::size_t(r) * cols + c] = float(sum);
        }
    cudaMemcpy(P, p.data(), p.size() * sizeof(float), cudaMemcpyHostToDevice);
    static float* stash = nullptr;
    cudaFree(stash);
    cudaMalloc(&stash, p.size() * sizeof(float));
    cudaMemcpy(stash, p.data(), p.size() * sizeof(float), cudaMemcpyHostToDevice);
    const int shape[3] = {rows, inner, cols};
#ifdef TILELAB_CPU_BACKEND
    stash_P = stash;
    for (int i = 0; i < 3; ++i) stash_shape[i] = shape[i];
    stash_m0 = m[0];
#else
    cudaMemcpyToSymbol(stash_P, &stash, sizeof stash);
    cudaMemcpyToSymbol(stash_shape, shape, sizeof shape);
    cudaMemcpyToSymbol(stash_m0, &m[0], sizeof(float));
#endif
}
