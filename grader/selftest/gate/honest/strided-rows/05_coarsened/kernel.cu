// Gate calibration, honest variant "strided-rows" (lab 05): the coarsened kernel with a different thread-to-output
// mapping and no unrolling pragmas. Thread t owns column t % 64 of the block tile and the 8 rows t / 64, t / 64 + 8,
// ... t / 64 + 56 (8 apart rather than consecutive), and stages its tile elements column-major in M. It reads each
// N_tile value once per k and uses it for its 8 outputs, as lab 05 asks: about 9 shared-memory reads per 8
// multiply-adds where lab 03 needs 16, so it must pass the gate.
#include <tilelab/labs.hpp>

namespace {
constexpr int kTile = COARSENED_BLOCK_TILE;
constexpr int kDepth = COARSENED_PHASE_DEPTH;
constexpr int kOutputs = COARSENED_OUTPUTS;
constexpr int kThreads = COARSENED_THREADS;
constexpr int kRowStride = kThreads / kTile;  // 8: the rows of one thread lie this far apart
static_assert(kRowStride * kOutputs == kTile, "the strided rows cover the block tile");
static_assert(kTile * kDepth == kThreads, "one element of each tile per thread");
}  // namespace

__global__ void matmul_coarsened_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ float Ms[kTile][kDepth];
    __shared__ float Ns[kDepth][kTile];
    const int t = threadIdx.x;
    const int first_row = t / kTile, col = t % kTile;
    const int block_row = blockIdx.y * kTile, block_col = blockIdx.x * kTile;
    // Staged elements: M's column-major within the tile (consecutive threads go down a column), N's row-major.
    const int ms_row = t % kTile, ms_k = t / kTile;
    const int ns_k = t / kTile, ns_col = t % kTile;

    float out[kOutputs];
    for (int i = 0; i < kOutputs; ++i) out[i] = 0.0f;
    for (int base = 0; base < inner; base += kDepth) {
        const int mr = block_row + ms_row, mk = base + ms_k;
        Ms[ms_row][ms_k] = mr < rows && mk < inner ? M[(long long)mr * inner + mk] : 0.0f;
        const int nk = base + ns_k, nc = block_col + ns_col;
        Ns[ns_k][ns_col] = nk < inner && nc < cols ? N[(long long)nk * cols + nc] : 0.0f;
        __syncthreads();
        for (int k = 0; k < kDepth; ++k) {
            const float n = Ns[k][col];
            for (int i = 0; i < kOutputs; ++i) out[i] += Ms[first_row + i * kRowStride][k] * n;
        }
        __syncthreads();
    }
    for (int i = 0; i < kOutputs; ++i) {
        const int r = block_row + first_row + i * kRowStride, c = block_col + col;
        if (r < rows && c < cols) P[(long long)r * cols + c] = out[i];
    }
}

void matmul_coarsened(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 grid((cols + COARSENED_BLOCK_TILE - 1) / COARSENED_BLOCK_TILE,
                    (rows + COARSENED_BLOCK_TILE - 1) / COARSENED_BLOCK_TILE);
    matmul_coarsened_kernel<<<grid, COARSENED_THREADS>>>(M, N, P, rows, inner, cols);
}
