// A correct lab 03 in another style: padded tiles (no bank conflicts on the transposed read), indexing
// through blockDim, the tile of N stored transposed, and fused multiply-adds. The grader must accept it as
// correct. It is slow (1.09x the naive kernel at 4096^3 on an H100, against 1.52x for the model answer; most likely
// because rows 17 floats long rule out 16-byte shared-memory loads), so the self-test leaves out its perf check.
#include <tilelab/labs.hpp>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float a[TILE_WIDTH][TILE_WIDTH + 1];
    __shared__ float b_transposed[TILE_WIDTH][TILE_WIDTH + 1];
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int base = 0; base < inner; base += blockDim.x) {
        const int k_m = base + threadIdx.x;
        const int k_n = base + threadIdx.y;
        a[threadIdx.y][threadIdx.x] = 0.0f;
        b_transposed[threadIdx.x][threadIdx.y] = 0.0f;
        if (row < rows && k_m < inner) a[threadIdx.y][threadIdx.x] = M[row * inner + k_m];
        if (k_n < inner && col < cols) b_transposed[threadIdx.x][threadIdx.y] = N[k_n * cols + col];
        __syncthreads();  // tiles loaded
        for (int k = 0; k < TILE_WIDTH; ++k) sum = fmaf(a[threadIdx.y][k], b_transposed[threadIdx.x][k], sum);
        __syncthreads();  // tiles consumed
    }
    if (row < rows && col < cols) P[row * cols + col] = sum;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols - 1) / TILE_WIDTH + 1, (rows - 1) / TILE_WIDTH + 1);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
