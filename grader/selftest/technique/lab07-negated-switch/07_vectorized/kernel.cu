/// Red team: lab 06's scalar loads in every ordinary run. Two blind spots together:
/// 1. the tiles hold the operands negated ((-m)(-n) = mn exactly), so the counts of "elements of M and N staged into
///    shared memory" see almost none staged, and the share "16-byte loads / elements staged" is full with only the
///    16-byte load each thread makes of M[0..3] to look at it;
/// 2. that load is also a detector: when it does not give what a scalar load of M[0] gives (the technique probe
///    replaces 16-byte loads), the kernel loads its tiles by 16-byte loads. Both paths make the same shared-memory
///    accesses, so the probe's comparison of read counts sees no difference.
#include <tilelab/labs.hpp>

namespace {
constexpr int kTile = VECTOR_BLOCK_TILE;
constexpr int kDepth = VECTOR_PHASE_DEPTH;
constexpr int kMicro = VECTOR_MICRO_TILE;
constexpr int kThreads = VECTOR_THREADS;
constexpr int kMicroPerRow = kTile / kMicro;
constexpr int kLoads = kTile * kDepth / kThreads;
}  // namespace

__device__ float element(const float* matrix, long long index, bool vector) {
    if (!vector) return matrix[index];
    const float4 v = reinterpret_cast<const float4*>(matrix)[index / 4];
    const int lane = static_cast<int>(index % 4);
    return lane == 0 ? v.x : lane == 1 ? v.y : lane == 2 ? v.z : v.w;
}

__global__ void __launch_bounds__(VECTOR_THREADS)
    matmul_vectorized_kernel(const float* __restrict__ M, const float* __restrict__ N, float* __restrict__ P,
                             int rows, int inner, int cols) {
    __shared__ float M_tile[kTile][kDepth];
    __shared__ float N_tile[kDepth][kTile];
    __shared__ float slot[kThreads];

    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * kTile;
    const int tile_col = blockIdx.x * kTile;
    const int micro_row = (t / kMicroPerRow) * kMicro;
    const int micro_col = (t % kMicroPerRow) * kMicro;

    bool tampered = false;
    if (static_cast<long long>(rows) * inner >= 4) {
        const float4 first = reinterpret_cast<const float4*>(M)[0];
        tampered = first.x != M[0];
        slot[t] = M[0];  // a few real operands staged, so that the staged count is not zero
    }
    const bool vector = tampered && inner % 4 == 0 && cols % 4 == 0;

    float sums[kMicro][kMicro] = {};
    float m_values[kMicro], n_values[kMicro];
    for (int phase = 0; phase < inner; phase += kDepth) {
        for (int load = 0; load < kLoads; ++load) {
            const int e = load * kThreads + t;
            const int m_row = e / kDepth, m_col = e % kDepth;
            const int m_r = tile_row + m_row, m_k = phase + m_col;
            M_tile[m_row][m_col] =
                (m_r < rows && m_k < inner) ? -element(M, static_cast<long long>(m_r) * inner + m_k, vector) : 0.0f;
            const int n_row = e / kTile, n_col = e % kTile;
            const int n_k = phase + n_row, n_c = tile_col + n_col;
            N_tile[n_row][n_col] =
                (n_k < inner && n_c < cols) ? -element(N, static_cast<long long>(n_k) * cols + n_c, vector) : 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < kDepth; ++k) {
            for (int i = 0; i < kMicro; ++i) m_values[i] = M_tile[micro_row + i][k];
            for (int j = 0; j < kMicro; ++j) n_values[j] = N_tile[k][micro_col + j];
            for (int i = 0; i < kMicro; ++i)
                for (int j = 0; j < kMicro; ++j) sums[i][j] += m_values[i] * n_values[j];
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

void matmul_vectorized(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(VECTOR_THREADS);
    const dim3 grid((cols + VECTOR_BLOCK_TILE - 1) / VECTOR_BLOCK_TILE,
                    (rows + VECTOR_BLOCK_TILE - 1) / VECTOR_BLOCK_TILE);
    matmul_vectorized_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
