/// @file grader/selftest/accept-styles/tile-template-flat/02_tiled/kernel.cu
/// @brief Lab 02 as a `template <int TILE>` __device__ body instantiated at TILE_WIDTH (the kit launches the lab's
/// own kernel), both tiles in one flat __shared__ array carved by pointers, an IDX(r, c, ld) indexing macro, a
/// constexpr __host__ __device__ ceil_div in an anonymous namespace, `#pragma unroll` over TILE, __launch_bounds__
/// before the kernel's name and a launch on cudaStreamPerThread (style: course solutions that generalise the tile).
#include <tilelab/labs.hpp>

namespace {
constexpr __host__ __device__ int ceil_div(int a, int b) { return (a + b - 1) / b; }

#define IDX(r, c, ld) ((r) * (ld) + (c))

template <int TILE>
__device__ __forceinline__ void tiled_product(const float* __restrict__ M, const float* __restrict__ N,
                                              float* __restrict__ P, int inner, int cols) {
    __shared__ float tiles[2 * TILE * TILE];  // M's tile, then N's, one flat array
    float* Ms = tiles;
    float* Ns = tiles + TILE * TILE;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < inner / TILE; ++t) {
        Ms[IDX(ty, tx, TILE)] = M[IDX(row, t * TILE + tx, inner)];
        Ns[IDX(ty, tx, TILE)] = N[IDX(t * TILE + ty, col, cols)];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) acc += Ms[IDX(ty, k, TILE)] * Ns[IDX(k, tx, TILE)];
        __syncthreads();
    }
    P[IDX(row, col, cols)] = acc;
}
}  // namespace

__global__ void __launch_bounds__(TILE_WIDTH * TILE_WIDTH)
matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    tiled_product<TILE_WIDTH>(M, N, P, inner, cols);
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(ceil_div(cols, TILE_WIDTH), ceil_div(rows, TILE_WIDTH));
    matmul_tiled_kernel<<<grid, block, 0, cudaStreamPerThread>>>(M, N, P, rows, inner, cols);
}
