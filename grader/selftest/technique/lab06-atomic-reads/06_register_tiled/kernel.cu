/// Red team: lab 06 with no register tiling and no register reuse at all. Each of a thread's 64 outputs is its own
/// dot product (lab 03's inner loop): both operands of every multiply-add are read from the tiles again. The reads
/// of k = 1 .. 7 go through integer atomics (atomicOr(..., 0) returns the tile element unchanged), which the CPU
/// backend's count of shared-memory reads does not see; only k = 0's reads are ordinary.
#include <tilelab/labs.hpp>

namespace {
constexpr int kTile = REGISTER_BLOCK_TILE;
constexpr int kDepth = REGISTER_PHASE_DEPTH;
constexpr int kMicro = REGISTER_MICRO_TILE;
constexpr int kThreads = REGISTER_THREADS;
constexpr int kMicroPerRow = kTile / kMicro;
constexpr int kLoads = kTile * kDepth / kThreads;
}  // namespace

__device__ float quiet_read(float* element) {
    return __int_as_float(atomicOr(reinterpret_cast<int*>(element), 0));
}

__global__ void __launch_bounds__(REGISTER_THREADS)
    matmul_register_tiled_kernel(const float* __restrict__ M, const float* __restrict__ N, float* __restrict__ P,
                                 int rows, int inner, int cols) {
    __shared__ float M_tile[kTile][kDepth];
    __shared__ float N_tile[kDepth][kTile];

    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * kTile;
    const int tile_col = blockIdx.x * kTile;
    const int micro_row = (t / kMicroPerRow) * kMicro;
    const int micro_col = (t % kMicroPerRow) * kMicro;

    float sums[kMicro][kMicro] = {};
    for (int phase = 0; phase < inner; phase += kDepth) {
        for (int load = 0; load < kLoads; ++load) {
            const int e = load * kThreads + t;
            const int m_row = e / kDepth, m_col = e % kDepth;
            const int m_r = tile_row + m_row, m_k = phase + m_col;
            M_tile[m_row][m_col] = (m_r < rows && m_k < inner) ? M[m_r * inner + m_k] : 0.0f;
            const int n_row = e / kTile, n_col = e % kTile;
            const int n_k = phase + n_row, n_c = tile_col + n_col;
            N_tile[n_row][n_col] = (n_k < inner && n_c < cols) ? N[n_k * cols + n_c] : 0.0f;
        }
        __syncthreads();
        for (int i = 0; i < kMicro; ++i)
            for (int j = 0; j < kMicro; ++j) {
                float sum = M_tile[micro_row + i][0] * N_tile[0][micro_col + j];
                for (int k = 1; k < kDepth; ++k)
                    sum += quiet_read(&M_tile[micro_row + i][k]) * quiet_read(&N_tile[k][micro_col + j]);
                sums[i][j] += sum;
            }
        __syncthreads();
    }
    for (int i = 0; i < kMicro; ++i) {
        const int row = tile_row + micro_row + i;
        for (int j = 0; j < kMicro; ++j) {
            const int col = tile_col + micro_col + j;
            if (row < rows && col < cols) P[row * cols + col] = sums[i][j];
        }
    }
}

void matmul_register_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(REGISTER_THREADS);
    const dim3 grid((cols + REGISTER_BLOCK_TILE - 1) / REGISTER_BLOCK_TILE,
                    (rows + REGISTER_BLOCK_TILE - 1) / REGISTER_BLOCK_TILE);
    matmul_register_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
