// Style: N's tile declared as a float4-typed __shared__ array (float4 N_tile4[8][32]) and global loads through __ldg on const float4* (as in the CUDA Samples' and many SGEMM blogs' float4 shared buffers).
/// @file labs/07_vectorized/kernel.cu
/// @brief Lab 07: 16-byte loads and stores, M's tile transposed in shared memory. The handout is README.md here.
#include <tilelab/labs.hpp>

namespace {
constexpr int kTile = VECTOR_BLOCK_TILE;    // 128
constexpr int kDepth = VECTOR_PHASE_DEPTH;  // 8
constexpr int kMicro = VECTOR_MICRO_TILE;   // 8
constexpr int kPad = VECTOR_SHARED_PADDING; // 4
constexpr int kThreads = VECTOR_THREADS;    // 256
constexpr int kVecPerRow = kTile / 4;       // float4s in a row of N's tile
static_assert(kTile * kDepth == 4 * kThreads, "one group of four of each tile per thread");
}  // namespace

/// Computes one VECTOR_BLOCK_TILE × VECTOR_BLOCK_TILE tile of P with VECTOR_THREADS threads, each a
/// VECTOR_MICRO_TILE × VECTOR_MICRO_TILE micro-tile in registers as in lab 06, but moving 16 bytes (a float4) per
/// access: M_tile is stored transposed (VECTOR_PHASE_DEPTH rows of VECTOR_BLOCK_TILE + VECTOR_SHARED_PADDING
/// floats) so that a thread's eight M values for one k are two float4s; any rows, inner and cols.
__global__ void matmul_vectorized_kernel(const float* __restrict__ M, const float* __restrict__ N,
                                         float* __restrict__ P, int rows, int inner, int cols) {
    __shared__ __align__(16) float M_tile_T[kDepth][kTile + kPad];  // M_tile_T[k][r] = M(tile row + r, phase + k)
    __shared__ __align__(16) float4 N_tile4[kDepth][kVecPerRow];    // N_tile4[k][q] = N(phase + k, tile col + 4q ..)

    const int tid = threadIdx.x;
    const int tile_row = blockIdx.y * kTile, tile_col = blockIdx.x * kTile;
    const int ty = tid / (kTile / kMicro), tx = tid % (kTile / kMicro);
    const int m_row = tid / (kDepth / 4), m_k = (tid % (kDepth / 4)) * 4;  // which group of M this thread loads
    const int n_k = tid / kVecPerRow, n_q = tid % kVecPerRow;              // which group of N
    const bool m_vec = (inner & 3) == 0, n_vec = (cols & 3) == 0, p_vec = (cols & 3) == 0;

    float acc[kMicro][kMicro];
#pragma unroll
    for (int i = 0; i < kMicro; ++i)
#pragma unroll
        for (int j = 0; j < kMicro; ++j) acc[i][j] = 0.0f;

    for (int phase = 0; phase < inner; phase += kDepth) {
        // M: four consecutive elements of one row, stored down a column of the transposed tile.
        float4 a = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        const int gr = tile_row + m_row, gk = phase + m_k;
        if (gr < rows) {
            const float* src = M + static_cast<long long>(gr) * inner + gk;
            if (m_vec && gk + 3 < inner) {
                a = __ldg(reinterpret_cast<const float4*>(src));
            } else {
                a.x = gk < inner ? __ldg(src) : 0.0f;
                a.y = gk + 1 < inner ? __ldg(src + 1) : 0.0f;
                a.z = gk + 2 < inner ? __ldg(src + 2) : 0.0f;
                a.w = gk + 3 < inner ? __ldg(src + 3) : 0.0f;
            }
        }
        M_tile_T[m_k + 0][m_row] = a.x;
        M_tile_T[m_k + 1][m_row] = a.y;
        M_tile_T[m_k + 2][m_row] = a.z;
        M_tile_T[m_k + 3][m_row] = a.w;

        // N: four consecutive elements of one row, one float4 element of the float4 tile.
        float4 b = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        const int bk = phase + n_k, bc = tile_col + 4 * n_q;
        if (bk < inner) {
            const float* src = N + static_cast<long long>(bk) * cols + bc;
            if (n_vec && bc + 3 < cols) {
                b = __ldg(reinterpret_cast<const float4*>(src));
            } else {
                b.x = bc < cols ? __ldg(src) : 0.0f;
                b.y = bc + 1 < cols ? __ldg(src + 1) : 0.0f;
                b.z = bc + 2 < cols ? __ldg(src + 2) : 0.0f;
                b.w = bc + 3 < cols ? __ldg(src + 3) : 0.0f;
            }
        }
        N_tile4[n_k][n_q] = b;
        __syncthreads();

#pragma unroll
        for (int k = 0; k < kDepth; ++k) {
            const float4 a0 = *reinterpret_cast<const float4*>(&M_tile_T[k][ty * kMicro]);
            const float4 a1 = *reinterpret_cast<const float4*>(&M_tile_T[k][ty * kMicro + 4]);
            const float4 b0 = N_tile4[k][tx * 2];
            const float4 b1 = N_tile4[k][tx * 2 + 1];
            const float av[kMicro] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float bv[kMicro] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < kMicro; ++i)
#pragma unroll
                for (int j = 0; j < kMicro; ++j) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < kMicro; ++i) {
        const int row = tile_row + ty * kMicro + i;
        if (row < rows) {
            float* dst = P + static_cast<long long>(row) * cols;
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int col = tile_col + tx * kMicro + 4 * h;
                if (p_vec && col + 3 < cols) {
                    *reinterpret_cast<float4*>(dst + col) =
                        make_float4(acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]);
                } else {
#pragma unroll
                    for (int j = 0; j < 4; ++j)
                        if (col + j < cols) dst[col + j] = acc[i][4 * h + j];
                }
            }
        }
    }
}

/// Launches matmul_vectorized_kernel: VECTOR_THREADS threads per block, one block per VECTOR_BLOCK_TILE ×
/// VECTOR_BLOCK_TILE tile of P, partial tiles included.
void matmul_vectorized(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(VECTOR_THREADS);
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    matmul_vectorized_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
