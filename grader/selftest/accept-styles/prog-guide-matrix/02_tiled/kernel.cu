/// @file grader/selftest/accept-styles/prog-guide-matrix/02_tiled/kernel.cu
/// @brief Lab 02 as the CUDA C++ Programming Guide's "Shared Memory" matrix multiplication writes it (style: a
/// Matrix struct with width, height, stride and elements; __device__ GetElement, SetElement and GetSubMatrix; the
/// __shared__ arrays declared inside the loop over sub-matrices; BLOCK_SIZE for the tile width).
#include <tilelab/labs.hpp>

#define BLOCK_SIZE TILE_WIDTH

// Matrices are stored in row-major order: M(row, col) = *(M.elements + row * M.stride + col)
typedef struct {
    int width;
    int height;
    int stride;
    float* elements;
} Matrix;

// Get a matrix element
__device__ float GetElement(const Matrix A, int row, int col) { return A.elements[row * A.stride + col]; }

// Set a matrix element
__device__ void SetElement(Matrix A, int row, int col, float value) { A.elements[row * A.stride + col] = value; }

// Get the BLOCK_SIZExBLOCK_SIZE sub-matrix Asub of A that is located col sub-matrices to the right and row
// sub-matrices down from the upper-left corner of A
__device__ Matrix GetSubMatrix(Matrix A, int row, int col) {
    Matrix Asub;
    Asub.width = BLOCK_SIZE;
    Asub.height = BLOCK_SIZE;
    Asub.stride = A.stride;
    Asub.elements = &A.elements[A.stride * BLOCK_SIZE * row + BLOCK_SIZE * col];
    return Asub;
}

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    // The Guide's kernel takes three Matrix values; the lab's contract takes pointers and sizes.
    const Matrix A = {inner, rows, inner, const_cast<float*>(M)};
    const Matrix B = {cols, inner, cols, const_cast<float*>(N)};
    const Matrix C = {cols, rows, cols, P};

    // Block row and column
    int blockRow = blockIdx.y;
    int blockCol = blockIdx.x;
    // Each thread block computes one sub-matrix Csub of C
    Matrix Csub = GetSubMatrix(C, blockRow, blockCol);
    // Each thread computes one element of Csub by accumulating results into Cvalue
    float Cvalue = 0;
    // Thread row and column within Csub
    int row = threadIdx.y;
    int col = threadIdx.x;
    // Loop over all the sub-matrices of A and B that are required to compute Csub
    for (int m = 0; m < (A.width / BLOCK_SIZE); ++m) {
        Matrix Asub = GetSubMatrix(A, blockRow, m);
        Matrix Bsub = GetSubMatrix(B, m, blockCol);
        // Shared memory used to store Asub and Bsub respectively
        __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
        // Each thread loads one element of each sub-matrix
        As[row][col] = GetElement(Asub, row, col);
        Bs[row][col] = GetElement(Bsub, row, col);
        // Synchronize to make sure the sub-matrices are loaded before starting the computation
        __syncthreads();
        for (int e = 0; e < BLOCK_SIZE; ++e) Cvalue += As[row][e] * Bs[e][col];
        // Synchronize to make sure that the preceding computation is done before loading two new sub-matrices
        __syncthreads();
    }
    // Write Csub to device memory; each thread writes one element
    SetElement(Csub, row, col, Cvalue);
}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
    dim3 dimGrid(cols / dimBlock.x, rows / dimBlock.y);
    matmul_tiled_kernel<<<dimGrid, dimBlock>>>(M, N, P, rows, inner, cols);
}
