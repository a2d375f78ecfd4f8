// Red team: the tensor cores multiply nothing of P. Each phase's tiles are loaded into fragments and multiplied by
// identity matrices (so the accumulators come out as the tiles themselves, TF32-rounded), repeated so that the
// count of warp matrix multiply-adds matches a real kernel's; every product of P is then a scalar multiply-add.
#include <tilelab/labs.hpp>

#include <mma.h>

using namespace nvcuda;

namespace {
constexpr int kTile = TENSOR_CORE_BLOCK_TILE;   // 128
constexpr int kDepth = TENSOR_CORE_PHASE_DEPTH; // 16
constexpr int kThreads = TENSOR_CORE_THREADS;   // 256
constexpr int kMicro = 8;
constexpr int kSide = kTile / kMicro;           // 16
constexpr int kRepeat = 4;                      // identity products per tile chunk
using FragA = wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major>;
using FragB = wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major>;
using Acc = wmma::fragment<wmma::accumulator, 16, 16, 8, float>;
template <typename F>
__device__ void to_tf32(F& f) {
    for (int t = 0; t < f.num_elements; ++t) f.x[t] = wmma::__float_to_tf32(f.x[t]);
}
}  // namespace

__global__ void matmul_tensor_core_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ __align__(32) float M_stage[kTile][kDepth];
    __shared__ __align__(32) float N_stage[kDepth][kTile];
    __shared__ __align__(32) float M_plain[kDepth][kTile];  // M_plain[k][r]: the laundered tile of M
    __shared__ __align__(32) float N_plain[kDepth][kTile];
    __shared__ __align__(32) float A_id[2][16][8];  // [I; 0] and [0; I]
    __shared__ __align__(32) float B_id[2][8][16];  // [I 0] and [0 I]
    const int t = threadIdx.x, warp = t / 32;
    for (int e = t; e < 2 * 16 * 8; e += kThreads) {
        const int h = e / 128, r = (e / 8) % 16, k = e % 8;
        A_id[h][r][k] = (r == k + 8 * h) ? 1.0f : 0.0f;
        const int kb = (e / 16) % 8, c = e % 16;
        B_id[h][kb][c] = (c == kb + 8 * h) ? 1.0f : 0.0f;
    }
    const int tile_row = blockIdx.y * kTile, tile_col = blockIdx.x * kTile;
    const int micro_row = (t / kSide) * kMicro, micro_col = (t % kSide) * kMicro;
    float sums[kMicro][kMicro] = {};
    for (int phase = 0; phase < inner; phase += kDepth) {
        for (int e = t; e < kTile * kDepth; e += kThreads) {
            const int mr = e / kDepth, mk = e % kDepth, nk = e / kTile, nc = e % kTile;
            M_stage[mr][mk] = (tile_row + mr < rows && phase + mk < inner) ? M[(tile_row + mr) * inner + phase + mk] : 0.0f;
            N_stage[nk][nc] = (phase + nk < inner && tile_col + nc < cols) ? N[(phase + nk) * cols + tile_col + nc] : 0.0f;
        }
        __syncthreads();
        {
            FragA a_id[2], m_frag[2];
            FragB b_id[2], n_frag[2];
            for (int h = 0; h < 2; ++h) {
                wmma::load_matrix_sync(a_id[h], &A_id[h][0][0], 8);
                wmma::load_matrix_sync(b_id[h], &B_id[h][0][0], 16);
                wmma::load_matrix_sync(m_frag[h], &M_stage[warp * 16][8 * h], kDepth);
                wmma::load_matrix_sync(n_frag[h], &N_stage[8 * h][warp * 16], kTile);
                to_tf32(m_frag[h]);
                to_tf32(n_frag[h]);
            }
            Acc m_acc, n_acc;
            for (int rep = 0; rep < kRepeat; ++rep) {
                wmma::fill_fragment(m_acc, 0.0f);
                wmma::fill_fragment(n_acc, 0.0f);
                for (int h = 0; h < 2; ++h) {
                    wmma::mma_sync(m_acc, m_frag[h], b_id[h], m_acc);  // [M_k0 M_k1] = the 16 x 16 chunk of M
                    wmma::mma_sync(n_acc, a_id[h], n_frag[h], n_acc);  // [N_k0; N_k1]
                }
            }
            wmma::store_matrix_sync(&M_plain[0][warp * 16], m_acc, kTile, wmma::mem_col_major);
            wmma::store_matrix_sync(&N_plain[0][warp * 16], n_acc, kTile, wmma::mem_row_major);
        }
        __syncthreads();
        for (int k = 0; k < kDepth; ++k)
            for (int i = 0; i < kMicro; ++i)
                for (int j = 0; j < kMicro; ++j) sums[i][j] += M_plain[k][micro_row + i] * N_plain[k][micro_col + j];
        __syncthreads();
    }
    for (int i = 0; i < kMicro; ++i)
        for (int j = 0; j < kMicro; ++j) {
            const int row = tile_row + micro_row + i, col = tile_col + micro_col + j;
            if (row < rows && col < cols) P[row * cols + col] = sums[i][j];
        }
}

void matmul_tensor_core(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(kThreads);
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    matmul_tensor_core_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
