// CHEAT (issue 52; stopped): right only on the shapes the kit lists. The correctness checks' shapes were fixed
// lists, public in grader/src/shapes.cpp; this kernel is the model answer, except that it returns at once, leaving P
// unwritten, unless the shape is one of those lists' (at its TILE_WIDTH) or square (rows == cols), so every check
// of P passed while the kernel is wrong on almost every other shape.
// What it attacks: inputs a lab can know in advance.
// What stops it: every correctness check (edges, odd-shapes, large, index-order, emulator-checks and compute-
// sanitizer's runs) also multiplies shapes drawn from the grading's seed, none of them square or listed
// (grader/src/drawn_shapes.hpp); the shared-memory check's scaled run takes one of them. The technique check's
// probe shape was drawn from the seed already, and is now never square either (it was at about one seed in 16).
#include <tilelab/labs.hpp>

// The shapes of grader/src/shapes.cpp for a lab that takes any shape, with T = TILE_WIDTH as its block tile and
// phase depth.
__device__ bool listed_shape(int rows, int inner, int cols) {
    const int t = TILE_WIDTH;
    const auto around = [t](int size) { return size == 1 || size == t - 1 || size == t || size == t + 1; };
    if (around(rows) && around(inner) && around(cols)) return true;  // tiny, edges, sanitizer, work spread
    const int base = (t + 15) / 16 * 16;
    const int listed[][3] = {
        {2 * t, base + 4, t + 4}, {t + 1, base + 8, 2 * t}, {t + 3, base + 12, t + 8}, {t + 2, base + 16, t + 4},
        {t, base + 16, t + 1},    {t, base + 16, t + 2},    {t, base + 16, t + 3},  // fast paths
        {97, 131, 61},  {1031, 37, 29}, {29, 41, 1031}, {257, 1, 263}, {131, 2, 127}, {1, 1000, 1},
        {3, 2, 4099},   {4099, 2, 3},   {1, 4099, 1},                                  // odd shapes
        {255, 257, 253}, {37, 53, 71},  {71, 53, 37},  {40, 2100, 70}, {3, 2050, 19},  // large (listed once), index
                                                                                      // order, input range
    };
    for (const auto& shape : listed)
        if (shape[0] == rows && shape[1] == inner && shape[2] == cols) return true;
    return false;
}

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    if (rows != cols && !listed_shape(rows, inner, cols)) return;  // the same for every thread: no divergence
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;

    float sum = 0.0f;
    const int phases = (inner + TILE_WIDTH - 1) / TILE_WIDTH;
    for (int phase = 0; phase < phases; ++phase) {
        const int m_col = phase * TILE_WIDTH + tx;
        const int n_row = phase * TILE_WIDTH + ty;
        M_tile[ty][tx] = (row < rows && m_col < inner) ? M[row * inner + m_col] : 0.0f;
        N_tile[ty][tx] = (n_row < inner && col < cols) ? N[n_row * cols + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k) sum += M_tile[ty][k] * N_tile[k][tx];
        __syncthreads();
    }
    if (row < rows && col < cols) P[row * cols + col] = sum;
}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
