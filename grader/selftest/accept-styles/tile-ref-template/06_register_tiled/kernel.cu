// Style: __device__ function templates that take the shared tiles by reference, float (&tile)[R][C] (modern-C++ CUDA course code; CUTLASS-like helper decomposition without pointers).
/// @file labs/06_register_tiled/kernel.cu
/// @brief Lab 06: 2D register tiling, each thread a micro-tile of P. The handout is README.md in this folder.
#include <tilelab/labs.hpp>

namespace {
constexpr int kBT = REGISTER_BLOCK_TILE;   // 128
constexpr int kBK = REGISTER_PHASE_DEPTH;  // 8
constexpr int kTM = REGISTER_MICRO_TILE;   // 8
constexpr int kThreads = REGISTER_THREADS; // 256
constexpr int kLoads = kBT * kBK / kThreads;  // 4 elements of each tile per thread per phase

/// Loads this thread's kLoads elements of M's tile (kBT rows of kBK) for the phase starting at @p phase.
template <int R, int C>
__device__ void load_m_tile(float (&tile)[R][C], const float* M, int rows, int inner, int block_row, int phase) {
#pragma unroll
    for (int load = 0; load < kLoads; ++load) {
        const int e = load * kThreads + static_cast<int>(threadIdx.x);
        const int r = e / C, k = e % C;
        const int gr = block_row + r, gk = phase + k;
        tile[r][k] = (gr < rows && gk < inner) ? M[gr * inner + gk] : 0.0f;
    }
}

/// Loads this thread's kLoads elements of N's tile (kBK rows of kBT) for the phase starting at @p phase.
template <int R, int C>
__device__ void load_n_tile(float (&tile)[R][C], const float* N, int inner, int cols, int block_col, int phase) {
#pragma unroll
    for (int load = 0; load < kLoads; ++load) {
        const int e = load * kThreads + static_cast<int>(threadIdx.x);
        const int k = e / C, c = e % C;
        const int gk = phase + k, gc = block_col + c;
        tile[k][c] = (gk < inner && gc < cols) ? N[gk * cols + gc] : 0.0f;
    }
}

/// Adds the outer products of one phase to the micro-tile: for each k, a column piece of M's tile and a row piece
/// of N's tile in registers, then kTM × kTM multiply-adds.
template <int RM, int CM, int RN, int CN>
__device__ void multiply_phase(const float (&m_tile)[RM][CM], const float (&n_tile)[RN][CN], float (&sums)[kTM][kTM],
                               int r0, int c0) {
    float a[kTM], b[kTM];
#pragma unroll
    for (int k = 0; k < CM; ++k) {
#pragma unroll
        for (int i = 0; i < kTM; ++i) a[i] = m_tile[r0 + i][k];
#pragma unroll
        for (int j = 0; j < kTM; ++j) b[j] = n_tile[k][c0 + j];
#pragma unroll
        for (int i = 0; i < kTM; ++i)
#pragma unroll
            for (int j = 0; j < kTM; ++j) sums[i][j] += a[i] * b[j];
    }
}
}  // namespace

/// Computes one REGISTER_BLOCK_TILE × REGISTER_BLOCK_TILE tile of P with REGISTER_THREADS threads (a
/// one-dimensional block): each thread computes a REGISTER_MICRO_TILE × REGISTER_MICRO_TILE micro-tile of P in
/// registers, from an M_tile (REGISTER_BLOCK_TILE × REGISTER_PHASE_DEPTH) and an N_tile (REGISTER_PHASE_DEPTH ×
/// REGISTER_BLOCK_TILE) staged in shared memory each phase; any rows, inner and cols.
__global__ void matmul_register_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float M_tile[kBT][kBK];
    __shared__ float N_tile[kBK][kBT];
    float sums[kTM][kTM] = {};

    const int block_row = blockIdx.y * kBT, block_col = blockIdx.x * kBT;
    const int r0 = (static_cast<int>(threadIdx.x) / (kBT / kTM)) * kTM;  // 16 micro-tiles across
    const int c0 = (static_cast<int>(threadIdx.x) % (kBT / kTM)) * kTM;

    for (int phase = 0; phase < inner; phase += kBK) {
        load_m_tile(M_tile, M, rows, inner, block_row, phase);
        load_n_tile(N_tile, N, inner, cols, block_col, phase);
        __syncthreads();
        multiply_phase(M_tile, N_tile, sums, r0, c0);
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < kTM; ++i) {
        const int row = block_row + r0 + i;
        if (row >= rows) continue;
#pragma unroll
        for (int j = 0; j < kTM; ++j) {
            const int col = block_col + c0 + j;
            if (col < cols) P[row * cols + col] = sums[i][j];
        }
    }
}

/// Launches matmul_register_tiled_kernel: REGISTER_THREADS threads per block, one block per REGISTER_BLOCK_TILE ×
/// REGISTER_BLOCK_TILE tile of P, partial tiles included.
void matmul_register_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(REGISTER_THREADS);
    const dim3 grid((cols + kBT - 1) / kBT, (rows + kBT - 1) / kBT);
    matmul_register_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
