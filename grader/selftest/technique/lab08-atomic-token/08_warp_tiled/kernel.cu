/// Red team: no pipeline. One shared-memory stage; each phase's asynchronous copies are waited for right after they
/// are issued, so no copy is ever in flight while the kernel multiplies. The multiply-adds' tile reads go through
/// integer atomics (atomicOr(..., 0)), which the CPU backend's read counts do not see; what it does count is a few
/// 16-byte "token" reads of the tiles' padding between commit and wait (as many as the counted reads after the
/// wait), which make every copy look "in flight while its thread read shared memory".
#include <tilelab/labs.hpp>

#include <cuda_pipeline.h>

namespace {
constexpr int kTile = WARP_TILED_BLOCK_TILE;    // 128
constexpr int kDepth = WARP_TILED_PHASE_DEPTH;  // 16
constexpr int kThreads = WARP_TILED_THREADS;    // 256
constexpr int kMicro = WARP_TILED_MICRO_TILE;   // 8
constexpr int kLdM = kDepth + 4;                // a padding chunk per row: the token reads' target
constexpr int kGroups = kTile * kDepth / (4 * kThreads);
constexpr int kTokens = 6;
}  // namespace

__device__ float quiet_read(float* element) {
    return __int_as_float(atomicOr(reinterpret_cast<int*>(element), 0));
}

__global__ void __launch_bounds__(WARP_TILED_THREADS)
    matmul_warp_tiled_kernel(const float* __restrict__ M, const float* __restrict__ N, float* __restrict__ P,
                             int rows, int inner, int cols) {
    __shared__ __align__(16) float M_tile[kTile][kLdM];
    __shared__ __align__(16) float N_tile[kDepth][kTile];

    const int t = threadIdx.x;
    const int tile_row = blockIdx.y * kTile;
    const int tile_col = blockIdx.x * kTile;
    const int micro_row = (t / 16) * kMicro, micro_col = (t % 16) * kMicro;

    auto copy_phase = [&](int phase) {
        for (int g = 0; g < kGroups; ++g) {
            const int q = g * kThreads + t;
            const int m_row = q / (kDepth / 4), m_col = (q % (kDepth / 4)) * 4;
            const int r = tile_row + m_row, m_k = phase + m_col;
            if (inner % 4 == 0 && r < rows && m_k < inner) {
                __pipeline_memcpy_async(&M_tile[m_row][m_col], M + static_cast<long long>(r) * inner + m_k, 16);
            } else {
                for (int i = 0; i < 4; ++i) {
                    const bool inside = r < rows && m_k + i < inner;
                    __pipeline_memcpy_async(&M_tile[m_row][m_col + i],
                                            inside ? M + static_cast<long long>(r) * inner + m_k + i : M, sizeof(float),
                                            inside ? 0 : sizeof(float));
                }
            }
            const int n_k = q / (kTile / 4), n_col = (q % (kTile / 4)) * 4;
            const int k = phase + n_k, c = tile_col + n_col;
            if (cols % 4 == 0 && k < inner && c < cols) {
                __pipeline_memcpy_async(&N_tile[n_k][n_col], N + static_cast<long long>(k) * cols + c, 16);
            } else {
                for (int j = 0; j < 4; ++j) {
                    const bool inside = k < inner && c + j < cols;
                    __pipeline_memcpy_async(&N_tile[n_k][n_col + j],
                                            inside ? N + static_cast<long long>(k) * cols + c + j : N, sizeof(float),
                                            inside ? 0 : sizeof(float));
                }
            }
        }
    };

    float sums[kMicro][kMicro] = {};
    float token = 0.0f;
    for (int phase = 0; phase < inner; phase += kDepth) {
        copy_phase(phase);
        __pipeline_commit();
        for (int i = 0; i < kTokens; ++i) {  // the padding: no copy writes it
            const float4 v = *reinterpret_cast<const float4*>(&M_tile[(t + 37 * i) % kTile][kDepth]);
            token += 0.0f * v.x;
        }
        __pipeline_wait_prior(0);  // this phase's copies, at once: nothing overlaps the multiply-adds
        __syncthreads();
        for (int i = 0; i < kTokens; ++i) {  // as many counted reads of the landed tiles
            const float4 v = *reinterpret_cast<const float4*>(&N_tile[(t + i) % kDepth][((t / kDepth + 5 * i) % (kTile / 4)) * 4]);
            token += 0.0f * v.x;
        }
        __syncthreads();  // the atomics below count as writes for the race checks: after every plain read
        for (int k = 0; k < kDepth; ++k) {
            float m[kMicro], n[kMicro];
            for (int i = 0; i < kMicro; ++i) m[i] = quiet_read(&M_tile[micro_row + i][k]);
            for (int j = 0; j < kMicro; ++j) n[j] = quiet_read(&N_tile[k][micro_col + j]);
            for (int i = 0; i < kMicro; ++i)
                for (int j = 0; j < kMicro; ++j) sums[i][j] += m[i] * n[j];
        }
        __syncthreads();
    }
    static_cast<void>(token);
    for (int i = 0; i < kMicro; ++i)
        for (int j = 0; j < kMicro; ++j) {
            const int row = tile_row + micro_row + i, col = tile_col + micro_col + j;
            if (row < rows && col < cols) P[row * cols + col] = sums[i][j];
        }
}

void matmul_warp_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(WARP_TILED_THREADS);
    const dim3 grid((cols + WARP_TILED_BLOCK_TILE - 1) / WARP_TILED_BLOCK_TILE,
                    (rows + WARP_TILED_BLOCK_TILE - 1) / WARP_TILED_BLOCK_TILE);
    matmul_warp_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
