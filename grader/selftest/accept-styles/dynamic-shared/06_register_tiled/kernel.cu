/// @file grader/selftest/accept-styles/dynamic-shared/06_register_tiled/kernel.cu
/// @brief Lab 06 with its tiles in dynamic shared memory: one `extern __shared__ float smem[]` carved into M's tile,
/// stored transposed (k-major, so a thread's 8 rows are consecutive), and N's tile, sized by the launcher's third
/// <<< >>> argument. Each thread an 8 × 8 micro-tile, its column of M_tile and row of N_tile in registers at each k
/// (siboehm's 2D block tiling).
#include <tilelab/labs.hpp>

#include <cstddef>

namespace {
constexpr int kTile = REGISTER_BLOCK_TILE;
constexpr int kDepth = REGISTER_PHASE_DEPTH;
constexpr int kMicro = REGISTER_MICRO_TILE;
constexpr int kThreads = REGISTER_THREADS;
constexpr int kLoads = kTile * kDepth / kThreads;  // elements of each tile a thread stages per phase
constexpr std::size_t kSharedBytes = 2 * kTile * kDepth * sizeof(float);
}  // namespace

__global__ void matmul_register_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    extern __shared__ float smem[];
    float* Mt = smem;                  // Mt[k * kTile + r] = M(row0 + r, k0 + k)
    float* Ns = smem + kDepth * kTile;  // Ns[k * kTile + c] = N(k0 + k, col0 + c)

    const int t = threadIdx.x;
    const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
    const int my_row = (t / (kTile / kMicro)) * kMicro, my_col = (t % (kTile / kMicro)) * kMicro;

    float acc[kMicro][kMicro] = {};
    for (int k0 = 0; k0 < inner; k0 += kDepth) {
        for (int l = 0; l < kLoads; ++l) {
            const int e = l * kThreads + t;
            const int r = e / kDepth, k = e % kDepth;  // consecutive threads read consecutive k of a row of M
            Mt[k * kTile + r] = row0 + r < rows && k0 + k < inner ? M[(row0 + r) * inner + k0 + k] : 0.0f;
            const int nk = e / kTile, c = e % kTile;
            Ns[nk * kTile + c] = k0 + nk < inner && col0 + c < cols ? N[(k0 + nk) * cols + col0 + c] : 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < kDepth; ++k) {
            float a[kMicro], b[kMicro];
            for (int i = 0; i < kMicro; ++i) a[i] = Mt[k * kTile + my_row + i];
            for (int j = 0; j < kMicro; ++j) b[j] = Ns[k * kTile + my_col + j];
            for (int i = 0; i < kMicro; ++i)
                for (int j = 0; j < kMicro; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < kMicro; ++i) {
        const int r = row0 + my_row + i;
        for (int j = 0; j < kMicro; ++j) {
            const int c = col0 + my_col + j;
            if (r < rows && c < cols) P[r * cols + c] = acc[i][j];
        }
    }
}

void matmul_register_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    matmul_register_tiled_kernel<<<grid, dim3(kThreads), kSharedBytes>>>(M, N, P, rows, inner, cols);
}
