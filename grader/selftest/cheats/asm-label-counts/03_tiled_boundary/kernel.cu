// CHEAT (red team, issue 27): the emulator's bookkeeping, reached without writing its name. A kernel that computes
// nothing (P stays wrong: add lab 01's loop and it is untiled code that earns 9 of 9) with two tiles declared and
// each written once; on the CPU
// backend only, it declares the emulator's shared-access recorder under a name of its own, bound by an asm label
// to the mangled symbol, spelled as two string literals ("_ZN7tile" "lab3cpu...") so that no "tilelab" appears
// in the source, and calls it twice per multiply-add on its own tile element (no race). The nm check sees only an
// undefined reference, which it allows. What it attacks: a source check that looks for the kit's names as
// written (tilelab::, tilelab_), and counts kept where the lab's code can call the function that keeps them.
#include <tilelab/labs.hpp>

#if defined(TILELAB_CPU_BACKEND)
void count_tile_access(const void* address, unsigned long bytes, bool write) asm("_ZN7tile" "lab3cpu18note_shared_accessEPKvmb");
#define COUNT(address, write) count_tile_access(address, sizeof(float), write)
#else
#define COUNT(address, write) ((void)0)
#endif

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty, col = blockIdx.x * TILE_WIDTH + tx;
    M_tile[ty][tx] = 0.0f;
    N_tile[ty][tx] = 0.0f;
    for (int k = 0; k < inner; k += TILE_WIDTH) {
        COUNT(&M_tile[ty][tx], true);
        COUNT(&N_tile[ty][tx], true);
    }
    if (row >= rows || col >= cols) return;
    for (int k = 0; k < inner; ++k) {
        COUNT(&M_tile[ty][tx], false);
        COUNT(&N_tile[ty][tx], false);
    }
    P[row * cols + col] = M_tile[ty][tx];
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
