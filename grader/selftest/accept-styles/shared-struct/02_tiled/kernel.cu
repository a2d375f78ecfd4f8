/// Lab 02, tiled kernel (sizes multiples of TILE_WIDTH): both tiles members of one __shared__ struct, barriers
/// through cooperative_groups (this_thread_block().sync()), the phases walked by a while loop, #pragma unroll on
/// the tile product.
#include <tilelab/labs.hpp>

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

namespace {
struct Tiles {
    float m[TILE_WIDTH][TILE_WIDTH];
    float n[TILE_WIDTH][TILE_WIDTH];
};
}  // namespace

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ Tiles tiles;
    cg::thread_block block = cg::this_thread_block();
    const int tx = static_cast<int>(block.thread_index().x);
    const int ty = static_cast<int>(block.thread_index().y);
    const int row = static_cast<int>(block.group_index().y) * TILE_WIDTH + ty;
    const int col = static_cast<int>(block.group_index().x) * TILE_WIDTH + tx;

    float acc = 0.0f;
    int phase = 0;
    while (phase < inner) {
        tiles.m[ty][tx] = M[row * inner + phase + tx];
        tiles.n[ty][tx] = N[(phase + ty) * cols + col];
        block.sync();
#pragma unroll
        for (int k = 0; k < TILE_WIDTH; ++k) acc += tiles.m[ty][k] * tiles.n[k][tx];
        block.sync();
        phase += TILE_WIDTH;
    }
    P[row * cols + col] = acc;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
