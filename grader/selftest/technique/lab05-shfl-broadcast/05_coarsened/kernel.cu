/// Red-team decoy (round 4): lab 05 without coarsening's register reuse. Every multiply-add reads its N_tile value
/// from shared memory again (8 reads per k, none reused); M_tile's values reach the lanes by __shfl_sync from the
/// two words each lane read, so the shared-read count drops without any value being reused from a register.
#include <tilelab/labs.hpp>

namespace {
constexpr int kTile = COARSENED_BLOCK_TILE;
constexpr int kDepth = COARSENED_PHASE_DEPTH;
constexpr int kOutputs = COARSENED_OUTPUTS;
constexpr int kThreads = COARSENED_THREADS;
static_assert(kOutputs * kDepth == 64, "two M values per lane");
}  // namespace

__global__ void __launch_bounds__(COARSENED_THREADS)
    matmul_coarsened_kernel(const float* __restrict__ M, const float* __restrict__ N, float* __restrict__ P,
                            int rows, int inner, int cols) {
    __shared__ float M_tile[kTile][kDepth];
    __shared__ float N_tile[kDepth][kTile];

    const int t = threadIdx.x;
    const int lane = t % 32;
    const int tile_row = blockIdx.y * kTile;
    const int tile_col = blockIdx.x * kTile;
    const int out_col = t % kTile;
    const int out_row = (t / kTile) * kOutputs;  // the same for the whole warp
    const int m_row = t / kDepth, m_col = t % kDepth;
    const int n_row = t / kTile, n_col = t % kTile;

    float sums[kOutputs] = {};
    for (int phase = 0; phase < inner; phase += kDepth) {
        const int m_r = tile_row + m_row, m_k = phase + m_col;
        const int n_k = phase + n_row, n_c = tile_col + n_col;
        M_tile[m_row][m_col] = (m_r < rows && m_k < inner) ? M[m_r * inner + m_k] : 0.0f;
        N_tile[n_row][n_col] = (n_k < inner && n_c < cols) ? N[n_k * cols + n_c] : 0.0f;
        __syncthreads();
        // Lane l holds (i, k) pairs q = l and q = l + 32 of the warp's 64 M values (i = q % 8, k = q / 8).
        const float held0 = M_tile[out_row + lane % 8][lane / 8];
        const float held1 = M_tile[out_row + lane % 8][4 + lane / 8];
        for (int k = 0; k < kDepth; ++k)
            for (int i = 0; i < kOutputs; ++i) {
                const int q = k * 8 + i;
                const float a = __shfl_sync(0xffffffffu, q < 32 ? held0 : held1, q % 32);
                sums[i] += a * N_tile[k][out_col];  // read again for every output
            }
        __syncthreads();
    }
    for (int i = 0; i < kOutputs; ++i) {
        const int row = tile_row + out_row + i, col = tile_col + out_col;
        if (row < rows && col < cols) P[row * cols + col] = sums[i];
    }
}

void matmul_coarsened(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(COARSENED_THREADS);
    const dim3 grid((cols + COARSENED_BLOCK_TILE - 1) / COARSENED_BLOCK_TILE,
                    (rows + COARSENED_BLOCK_TILE - 1) / COARSENED_BLOCK_TILE);
    matmul_coarsened_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
