/// @file grader/selftest/accept-styles/pmpp-coarse-factor/05_coarsened/kernel.cu
/// @brief Lab 05 as Hwu, Kirk and El Hajj, Programming Massively Parallel Processors (4th ed.), section 6.3
/// ("Thread coarsening") writes the coarsened tiled kernel (style: a COARSE_FACTOR macro; Mds/Nds; bx, by, tx, ty;
/// Pvalue[COARSE_FACTOR] initialised in a loop; a `ph` loop over phases; for each c, the element COARSE_FACTOR
/// outputs apart, c · stride from the thread's first; Mds loaded once per phase and reused for every output), turned
/// to the lab's contract: the book's thread coarsens along a row of P, one Nds tile per output; here it coarsens
/// down a column, so each Nds value it reads serves all its COARSE_FACTOR outputs, which lie 8 rows apart
/// (ty + c · 8) rather than in consecutive rows, in a 64 × 64 block tile of 512 threads whose (tx, ty) come from a
/// one-dimensional block. Boundary tests as in the book's chapter 5 exercise.
#include <tilelab/labs.hpp>

#define COARSE_FACTOR COARSENED_OUTPUTS

namespace {
constexpr int TILE = COARSENED_BLOCK_TILE;       // rows and columns of P per block
constexpr int DEPTH = COARSENED_PHASE_DEPTH;     // width of a phase
constexpr int ROW_STRIDE = TILE / COARSE_FACTOR; // 8: rows between a thread's outputs, and values of ty
static_assert(TILE * ROW_STRIDE == COARSENED_THREADS, "one thread per (ty, tx)");
static_assert(TILE * DEPTH == COARSENED_THREADS, "one element of each tile per thread per phase");
}  // namespace

__global__ void matmul_coarsened_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float Mds[TILE][DEPTH];
    __shared__ float Nds[DEPTH][TILE];

    int bx = blockIdx.x;
    int by = blockIdx.y;
    int tx = threadIdx.x % TILE;
    int ty = threadIdx.x / TILE;

    // Identify the column of the P elements to work on, and the first of the thread's rows
    int col = bx * TILE + tx;
    int rowStart = by * TILE + ty;

    // Initialize Pvalue for all output elements
    float Pvalue[COARSE_FACTOR];
    for (int c = 0; c < COARSE_FACTOR; ++c) Pvalue[c] = 0.0f;

    // Loop over the M and N tiles required to compute P elements
    for (int ph = 0; ph < (inner + DEPTH - 1) / DEPTH; ++ph) {
        // Collaborative loading of M and N tiles into shared memory: one element of each per thread
        const int mRow = by * TILE + threadIdx.x / DEPTH, mCol = ph * DEPTH + threadIdx.x % DEPTH;
        Mds[threadIdx.x / DEPTH][threadIdx.x % DEPTH] = mRow < rows && mCol < inner ? M[mRow * inner + mCol] : 0.0f;
        const int nRow = ph * DEPTH + ty;
        Nds[ty][tx] = nRow < inner && col < cols ? N[nRow * cols + col] : 0.0f;
        __syncthreads();

        for (int k = 0; k < DEPTH; ++k) {
            const float n = Nds[k][tx];
            for (int c = 0; c < COARSE_FACTOR; ++c) Pvalue[c] += Mds[ty + c * ROW_STRIDE][k] * n;
        }
        __syncthreads();
    }

    for (int c = 0; c < COARSE_FACTOR; ++c) {
        const int row = rowStart + c * ROW_STRIDE;
        if (row < rows && col < cols) P[row * cols + col] = Pvalue[c];
    }
}

void matmul_coarsened(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    dim3 dimGrid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    dim3 dimBlock(COARSENED_THREADS);
    matmul_coarsened_kernel<<<dimGrid, dimBlock>>>(M, N, P, rows, inner, cols);
}
