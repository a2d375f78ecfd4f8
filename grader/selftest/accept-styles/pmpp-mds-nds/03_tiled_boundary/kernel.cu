/// @file grader/selftest/accept-styles/pmpp-mds-nds/03_tiled_boundary/kernel.cu
/// @brief Lab 03 as Kirk, Hwu and El Hajj, Programming Massively Parallel Processors (4th ed.), chapter 5 write
/// the tiled kernel with boundary checks (style: Mds/Nds, bx/by/tx/ty, Row/Col, Pvalue, a `ph` loop bounded by
/// ceil(Width / (float)TILE_WIDTH), if/else tile loads), made rectangular with rows, inner and cols.
#include <tilelab/labs.hpp>

#include <cmath>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    int bx = blockIdx.x;
    int by = blockIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;

    // Identify the row and column of the P element to work on
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;

    // Loop over the M and N tiles required to compute the P element
    float Pvalue = 0;
    for (int ph = 0; ph < ceil(inner / (float)TILE_WIDTH); ++ph) {
        // Collaborative loading of M and N tiles into shared memory
        if ((Row < rows) && (ph * TILE_WIDTH + tx) < inner)
            Mds[ty][tx] = M[Row * inner + ph * TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0.0f;
        if ((ph * TILE_WIDTH + ty) < inner && Col < cols)
            Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * cols + Col];
        else
            Nds[ty][tx] = 0.0f;
        __syncthreads();

        for (int k = 0; k < TILE_WIDTH; ++k) {
            Pvalue += Mds[ty][k] * Nds[k][tx];
        }
        __syncthreads();
    }
    if ((Row < rows) && (Col < cols)) P[Row * cols + Col] = Pvalue;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    dim3 dimGrid(ceil(cols / (float)TILE_WIDTH), ceil(rows / (float)TILE_WIDTH), 1);
    matmul_tiled_boundary_kernel<<<dimGrid, dimBlock>>>(M, N, P, rows, inner, cols);
}
