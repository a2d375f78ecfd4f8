// Gate calibration, honest variant "split-micro-tile" (lab 06): register tiles written differently from the model.
// Thread (ty, tx) = (t / 16, t % 16) owns an 8 x 8 micro-tile split into four 4 x 4 quarters, rows 4 ty and
// 64 + 4 ty, columns 4 tx and 64 + 4 tx (onwards), rather than 8 consecutive rows and columns; M's tile is stored
// transposed (one row per k); no unrolling pragmas. Per k it reads 8 values of each tile for 64 multiply-adds, as
// the model does, so it must pass the gate.
#include <tilelab/labs.hpp>

namespace {
constexpr int kTile = REGISTER_BLOCK_TILE;
constexpr int kDepth = REGISTER_PHASE_DEPTH;
constexpr int kThreads = REGISTER_THREADS;
constexpr int kQuarter = kTile / 2;                 // the second quarter's offset
constexpr int kLoads = kTile * kDepth / kThreads;   // elements of each tile a thread stages per phase
static_assert(REGISTER_MICRO_TILE == 8 && kThreads == 256, "16 x 16 threads, 8 x 8 outputs each");
static_assert(kLoads * kThreads == kTile * kDepth, "the tiles divide evenly among the threads");

// Row (or column) of the block tile holding the micro-tile's i-th row (column), for a thread at @p base = 4 ty.
__device__ int quarter_offset(int base, int i) { return (i < 4 ? 0 : kQuarter) + base + i % 4; }
}  // namespace

__global__ void matmul_register_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float Ms_T[kDepth][kTile];  // Ms_T[k][r] = M(tile_row + r, phase + k)
    __shared__ float Ns[kDepth][kTile];
    const int t = threadIdx.x;
    const int ty = t / 16, tx = t % 16;
    const int tile_row = blockIdx.y * kTile, tile_col = blockIdx.x * kTile;

    float acc[8][8];
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;
    for (int phase = 0; phase < inner; phase += kDepth) {
        for (int load = 0; load < kLoads; ++load) {
            const int e = load * kThreads + t;
            const int mr = e / kDepth, mk = e % kDepth;
            Ms_T[mk][mr] = tile_row + mr < rows && phase + mk < inner ? M[(long long)(tile_row + mr) * inner + phase + mk]
                                                                      : 0.0f;
            const int nk = e / kTile, nc = e % kTile;
            Ns[nk][nc] = phase + nk < inner && tile_col + nc < cols ? N[(long long)(phase + nk) * cols + tile_col + nc]
                                                                    : 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < kDepth; ++k) {
            float a[8], b[8];
            for (int i = 0; i < 8; ++i) a[i] = Ms_T[k][quarter_offset(4 * ty, i)];
            for (int j = 0; j < 8; ++j) b[j] = Ns[k][quarter_offset(4 * tx, j)];
            for (int i = 0; i < 8; ++i)
                for (int j = 0; j < 8; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < 8; ++i) {
        const int r = tile_row + quarter_offset(4 * ty, i);
        if (r >= rows) continue;
        for (int j = 0; j < 8; ++j) {
            const int c = tile_col + quarter_offset(4 * tx, j);
            if (c < cols) P[(long long)r * cols + c] = acc[i][j];
        }
    }
}

void matmul_register_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 grid((cols + REGISTER_BLOCK_TILE - 1) / REGISTER_BLOCK_TILE,
                    (rows + REGISTER_BLOCK_TILE - 1) / REGISTER_BLOCK_TILE);
    matmul_register_tiled_kernel<<<grid, REGISTER_THREADS>>>(M, N, P, rows, inner, cols);
}
