// Accepted style: lab 06's register tiles with the results staged through shared memory before a coalesced store
// of the block tile (the epilogue of CUTLASS and of many tuned SGEMM tutorials). Its sums pass through shared memory,
// where the technique check's probe looks for operands: one that looks like an operand by chance may be replaced
// (grader/checks/technique_check.cpp allows a few).
/// @file solutions/06_register_tiled/kernel.cu
/// @brief Lab 06 model answer: 2D register tiling, each thread an 8 × 8 micro-tile of P in registers.
#include <tilelab/labs.hpp>

namespace {
constexpr int kTile = REGISTER_BLOCK_TILE;    // rows and columns of P per block
constexpr int kDepth = REGISTER_PHASE_DEPTH;  // inner-dimension elements per phase
constexpr int kMicro = REGISTER_MICRO_TILE;   // rows and columns of P per thread
constexpr int kThreads = REGISTER_THREADS;
constexpr int kMicroPerRow = kTile / kMicro;  // micro-tiles across the block tile
// Each thread stages the same number of elements of each tile per phase.
constexpr int kLoads = kTile * kDepth / kThreads;
static_assert(kLoads * kThreads == kTile * kDepth, "the tiles divide evenly among the threads");
}  // namespace

/// Computes a kTile × kTile tile of P; thread t owns the kMicro × kMicro micro-tile at micro-row t / kMicroPerRow,
/// micro-column t % kMicroPerRow. Per phase the threads stage M_tile (kTile × kDepth) and N_tile (kDepth × kTile),
/// kLoads elements each, zero outside M and N; then, for each k, a thread copies kMicro values of M_tile's column
/// k and kMicro of N_tile's row k into registers and forms their kMicro² products: 2·kMicro shared-memory reads
/// for kMicro² multiply-adds. Threads still reach both barriers where their micro-tile is outside P.
__global__ void __launch_bounds__(REGISTER_THREADS)
    matmul_register_tiled_kernel(const float* __restrict__ M, const float* __restrict__ N, float* __restrict__ P,
                                 int rows, int inner, int cols) {
    __shared__ float M_tile[kTile][kDepth];
    __shared__ float N_tile[kDepth][kTile];

    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * kTile;
    const int tile_col = blockIdx.x * kTile;
    const int micro_row = (t / kMicroPerRow) * kMicro;  // within the block tile
    const int micro_col = (t % kMicroPerRow) * kMicro;

    float sums[kMicro][kMicro] = {};
    float m_values[kMicro], n_values[kMicro];
    for (int phase = 0; phase < inner; phase += kDepth) {
#pragma unroll
        for (int load = 0; load < kLoads; ++load) {
            // Element e of each tile, row-major: consecutive threads take consecutive elements (coalesced).
            const int e = load * kThreads + t;
            const int m_row = e / kDepth, m_col = e % kDepth;
            const int m_r = tile_row + m_row, m_k = phase + m_col;
            M_tile[m_row][m_col] = (m_r < rows && m_k < inner) ? M[m_r * inner + m_k] : 0.0f;
            const int n_row = e / kTile, n_col = e % kTile;
            const int n_k = phase + n_row, n_c = tile_col + n_col;
            N_tile[n_row][n_col] = (n_k < inner && n_c < cols) ? N[n_k * cols + n_c] : 0.0f;
        }
        __syncthreads();  // the tiles are complete before any thread reads them

#pragma unroll
        for (int k = 0; k < kDepth; ++k) {
#pragma unroll
            for (int i = 0; i < kMicro; ++i) m_values[i] = M_tile[micro_row + i][k];
#pragma unroll
            for (int j = 0; j < kMicro; ++j) n_values[j] = N_tile[k][micro_col + j];
#pragma unroll
            for (int i = 0; i < kMicro; ++i)
#pragma unroll
                for (int j = 0; j < kMicro; ++j) sums[i][j] += m_values[i] * n_values[j];
        }
        __syncthreads();  // every thread is done with the tiles before the next phase overwrites them
    }
    // The block's results go through shared memory, so that the stores to P are whole rows: consecutive threads on
    // consecutive columns (an epilogue in CUTLASS's manner), whatever the micro-tile layout. A quarter of the block
    // tile at a time, to stay within 48 KB of static shared memory.
    constexpr int kPartRows = kTile / 4;
    __shared__ float P_tile[kPartRows][kTile + 1];  // +1: a thread's micro-tile column does not fall in one bank
    for (int part = 0; part < kTile; part += kPartRows) {
        if (micro_row >= part && micro_row < part + kPartRows) {
#pragma unroll
            for (int i = 0; i < kMicro; ++i)
#pragma unroll
                for (int j = 0; j < kMicro; ++j) P_tile[micro_row - part + i][micro_col + j] = sums[i][j];
        }
        __syncthreads();  // this quarter of the block tile is in P_tile before any thread copies it out
        for (int e = t; e < kPartRows * kTile; e += kThreads) {
            const int row = tile_row + part + e / kTile, col = tile_col + e % kTile;
            if (row < rows && col < cols) P[row * cols + col] = P_tile[e / kTile][e % kTile];
        }
        __syncthreads();  // every thread has copied its elements out before the next quarter overwrites P_tile
    }
}

void matmul_register_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(REGISTER_THREADS);
    const dim3 grid((cols + REGISTER_BLOCK_TILE - 1) / REGISTER_BLOCK_TILE,
                    (rows + REGISTER_BLOCK_TILE - 1) / REGISTER_BLOCK_TILE);
    matmul_register_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
