/// Lab 03, tiled kernel for any shape, with its tiles in dynamic shared memory: one
/// `alignas(16) extern __shared__ float smem[]`, viewed as two TILE_WIDTH x TILE_WIDTH arrays through references
/// to arrays (`float (&Mds)[T][T] = *reinterpret_cast<float (*)[T][T]>(smem)`), so that the body indexes them as
/// 2-D tiles; the launcher passes 2 * T * T * sizeof(float) bytes as the third <<< >>> argument.
#include <tilelab/labs.hpp>

namespace {
constexpr int T = TILE_WIDTH;
using Tile = float[T][T];
}  // namespace

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    alignas(16) extern __shared__ float smem[];
    Tile& Mds = *reinterpret_cast<Tile*>(smem);
    Tile& Nds = *reinterpret_cast<Tile*>(smem + T * T);

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float acc = 0.0f;
    for (int phase = 0; phase < inner; phase += T) {
        Mds[ty][tx] = (row < rows && phase + tx < inner) ? M[row * inner + phase + tx] : 0.0f;
        Nds[ty][tx] = (phase + ty < inner && col < cols) ? N[(phase + ty) * cols + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < T; ++k) acc += Mds[ty][k] * Nds[k][tx];
        __syncthreads();
    }
    if (row < rows && col < cols) P[row * cols + col] = acc;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(T, T);
    const dim3 grid((cols + T - 1) / T, (rows + T - 1) / T);
    matmul_tiled_boundary_kernel<<<grid, block, 2 * T * T * sizeof(float)>>>(M, N, P, rows, inner, cols);
}
