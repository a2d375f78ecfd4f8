/// @file grader/selftest/accept-styles/samples-matrixmul/02_tiled/kernel.cu
/// @brief Lab 02 as the CUDA Samples' matrixMul writes it (style: a kernel template on BLOCK_SIZE, here a
/// __device__ template instantiated at TILE_WIDTH since the kit launches the lab's own kernel; a, b stepping by
/// aStep and bStep from aBegin to aEnd; As/Bs tiles; #pragma unroll on the inner product).
#include <tilelab/labs.hpp>

/**
 * Matrix multiplication (CUDA Kernel) on the device: C = A * B
 * wA is A's width and wB is B's width
 */
template <int BLOCK_SIZE>
__device__ void MatrixMulCUDA(float* C, const float* A, const float* B, int wA, int wB) {
    // Block index
    int bx = blockIdx.x;
    int by = blockIdx.y;
    // Thread index
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    // Index of the first sub-matrix of A processed by the block
    int aBegin = wA * BLOCK_SIZE * by;
    // Index of the last sub-matrix of A processed by the block
    int aEnd = aBegin + wA - 1;
    // Step size used to iterate through the sub-matrices of A
    int aStep = BLOCK_SIZE;
    // Index of the first sub-matrix of B processed by the block
    int bBegin = BLOCK_SIZE * bx;
    // Step size used to iterate through the sub-matrices of B
    int bStep = BLOCK_SIZE * wB;
    // Csub is used to store the element of the block sub-matrix that is computed by the thread
    float Csub = 0;
    // Loop over all the sub-matrices of A and B required to compute the block sub-matrix
    for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
        // Declaration of the shared memory array As used to store the sub-matrix of A
        __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
        // Declaration of the shared memory array Bs used to store the sub-matrix of B
        __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
        // Load the matrices from device memory to shared memory; each thread loads one element of each matrix
        As[ty][tx] = A[a + wA * ty + tx];
        Bs[ty][tx] = B[b + wB * ty + tx];
        // Synchronize to make sure the matrices are loaded
        __syncthreads();
        // Multiply the two matrices together; each thread computes one element of the block sub-matrix
#pragma unroll
        for (int k = 0; k < BLOCK_SIZE; ++k) Csub += As[ty][k] * Bs[k][tx];
        // Synchronize to make sure that the preceding computation is done before loading two new sub-matrices
        // of A and B in the next iteration
        __syncthreads();
    }
    // Write the block sub-matrix to device memory; each thread writes one element
    int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    C[c + wB * ty + tx] = Csub;
}

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    static_cast<void>(rows);  // the grid covers the rows; the samples' kernel does not need their count
    MatrixMulCUDA<TILE_WIDTH>(P, M, N, inner, cols);
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // Setup execution parameters
    const int block_size = TILE_WIDTH;
    dim3 threads(block_size, block_size);
    dim3 grid(cols / threads.x, rows / threads.y);
    matmul_tiled_kernel<<<grid, threads>>>(M, N, P, rows, inner, cols);
}
