// red5 attack plain-helper-memcpy: no register reuse; most re-reads go through a helper without __device__ (memcpy not rewritten)
#include <tilelab/labs.hpp>
#include <cstring>

namespace {
constexpr int kTile = REGISTER_BLOCK_TILE;
constexpr int kDepth = REGISTER_PHASE_DEPTH;
constexpr int kMicro = REGISTER_MICRO_TILE;
constexpr int kThreads = REGISTER_THREADS;
constexpr int kMicroPerRow = kTile / kMicro;
constexpr int kLoads = kTile * kDepth / kThreads;
}  // namespace

/// Reads a float (no __device__: the CPU build leaves its body alone).
inline float read_word(const void* p) {
    float f;
    std::memcpy(&f, p, sizeof f);
    return f;
}

__global__ void matmul_register_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
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
        for (int k = 0; k < kDepth; ++k) {
            for (int i = 0; i < kMicro; ++i) {
                for (int j = 0; j < kMicro; ++j) {
                    // both operands fetched again for every multiply-add, as a naive inner loop would
                    const float m = (j == 0) ? static_cast<float>(M_tile[micro_row + i][k])
                                             : read_word(&M_tile[micro_row + i][k]);
                    const float n = (i == 0) ? static_cast<float>(N_tile[k][micro_col + j])
                                             : read_word(&N_tile[k][micro_col + j]);
                    sums[i][j] += m * n;
                }
            }
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
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    matmul_register_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
