// Cheat: naive code in the tiled lab that, on the CPU backend only, declares the emulator's own bookkeeping
// function for shared-memory accesses and calls it from its loop, so that the emulator counts tile reads and
// writes that never happened and the shared-memory check passes.
// Stopped by: the source check (a lab may not test TILELAB_CPU_BACKEND, nor name namespace tilelab::cpu or the
// emulator's functions, with or without the namespace).
#include <tilelab/labs.hpp>

#include <cstddef>

#if defined(TILELAB_CPU_BACKEND)
namespace tilelab::cpu {
void note_shared_access(const void* address, std::size_t bytes, bool write) noexcept;
}
#endif

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int k = 0; k < inner; ++k) {
#if defined(TILELAB_CPU_BACKEND)
        // What a tiled kernel's loads and reads would have recorded, with no tile used.
        if (k % TILE_WIDTH == 0) {
            tilelab::cpu::note_shared_access(&M_tile[threadIdx.y][threadIdx.x], sizeof(float), true);
            tilelab::cpu::note_shared_access(&N_tile[threadIdx.y][threadIdx.x], sizeof(float), true);
        }
        tilelab::cpu::note_shared_access(&M_tile[threadIdx.y][k % TILE_WIDTH], sizeof(float), false);
        tilelab::cpu::note_shared_access(&N_tile[k % TILE_WIDTH][threadIdx.x], sizeof(float), false);
#endif
        sum += M[row * inner + k] * N[k * cols + col];
    }
    P[row * cols + col] = sum;
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
