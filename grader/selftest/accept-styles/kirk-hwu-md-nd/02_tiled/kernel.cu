/// @file grader/selftest/accept-styles/kirk-hwu-md-nd/02_tiled/kernel.cu
/// @brief Lab 02 as Kirk and Hwu, Programming Massively Parallel Processors (2nd ed., 2012), figure 5.12 writes the
/// tiled kernel (style: MatrixMulKernel's Md, Nd, Pd device pointers, named apart from the host's M, N, P; Mds/Nds;
/// bx, by, tx, ty; Row and Col; a loop `m` over Width / TILE_WIDTH phases with no boundary tests, since the
/// sizes are multiples of the tile; Pvalue), the book's square Width made rectangular (the rows of Md, the shared
/// dimension, the columns of Nd) and the kernel kept at the contract's name. The book's own
/// `#define TILE_WIDTH 16` is the kit's -DTILE_WIDTH here.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_kernel(const float* Md, const float* Nd, float* Pd, int Height, int Width, int NdWidth) {
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    int bx = blockIdx.x;
    int by = blockIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;

    // Identify the row and column of the Pd element to work on
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;

    float Pvalue = 0;
    // Loop over the Md and Nd tiles required to compute the Pd element
    for (int m = 0; m < Width / TILE_WIDTH; ++m) {
        // Collaborative loading of Md and Nd tiles into shared memory
        Mds[ty][tx] = Md[Row * Width + (m * TILE_WIDTH + tx)];
        Nds[ty][tx] = Nd[(m * TILE_WIDTH + ty) * NdWidth + Col];
        __syncthreads();

        for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
        __syncthreads();
    }
    Pd[Row * NdWidth + Col] = Pvalue;
    (void)Height;
}

void matmul_tiled(const float* Md, const float* Nd, float* Pd, int rows, int inner, int cols) {
    // Setup the execution configuration
    dim3 dimGrid(cols / TILE_WIDTH, rows / TILE_WIDTH);
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);

    // Launch the device computation threads!
    matmul_tiled_kernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, rows, inner, cols);
}
