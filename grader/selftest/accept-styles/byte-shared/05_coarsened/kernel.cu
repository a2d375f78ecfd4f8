/// @file grader/selftest/accept-styles/byte-shared/05_coarsened/kernel.cu
/// @brief Lab 05 with its tiles in dynamic shared memory declared as bytes, as general-purpose kernels declare it:
/// one `extern __shared__ unsigned char smem[]` cast into M's 64 × 8 tile (`reinterpret_cast<float*>`) and N's
/// 8 × 64 tile (a C-style cast of a byte offset), the launcher passing their bytes as the third <<< >>> argument. Each of the 512
/// threads loads one element of each tile per phase and keeps a column of 8 outputs in registers (Kirk & Hwu's
/// thread coarsening, written as siboehm's 1D block tiling).
#include <tilelab/labs.hpp>

#include <cstddef>

namespace {
constexpr int kTile = COARSENED_BLOCK_TILE;
constexpr int kDepth = COARSENED_PHASE_DEPTH;
constexpr int kOut = COARSENED_OUTPUTS;
constexpr std::size_t kSharedBytes = 2 * kTile * kDepth * sizeof(float);
static_assert(kTile * kDepth == COARSENED_THREADS, "one element of each tile per thread and phase");
}  // namespace

__global__ void matmul_coarsened_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    extern __shared__ unsigned char smem[];
    float* Ms = reinterpret_cast<float*>(smem);                         // Ms[r * kDepth + k] = M(row0 + r, k0 + k)
    float* Ns = (float*)(smem + kTile * kDepth * sizeof(float));        // Ns[k * kTile + c] = N(k0 + k, col0 + c)

    const int t = threadIdx.x;
    const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
    const int c = t % kTile, r0 = (t / kTile) * kOut;  // this thread's column and first row of outputs
    const int m_r = t / kDepth, m_k = t % kDepth;
    const int n_k = t / kTile, n_c = t % kTile;

    float out[kOut] = {};
    for (int k0 = 0; k0 < inner; k0 += kDepth) {
        Ms[m_r * kDepth + m_k] = row0 + m_r < rows && k0 + m_k < inner ? M[(row0 + m_r) * inner + k0 + m_k] : 0.0f;
        Ns[n_k * kTile + n_c] = k0 + n_k < inner && col0 + n_c < cols ? N[(k0 + n_k) * cols + col0 + n_c] : 0.0f;
        __syncthreads();  // both tiles are complete before any thread reads them
        for (int k = 0; k < kDepth; ++k) {
            const float b = Ns[k * kTile + c];
            for (int i = 0; i < kOut; ++i) out[i] += Ms[(r0 + i) * kDepth + k] * b;
        }
        __syncthreads();  // every thread is done with the tiles before the next phase overwrites them
    }
    if (col0 + c >= cols) return;
    for (int i = 0; i < kOut; ++i)
        if (row0 + r0 + i < rows) P[(row0 + r0 + i) * cols + col0 + c] = out[i];
}

void matmul_coarsened(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    matmul_coarsened_kernel<<<grid, COARSENED_THREADS, kSharedBytes>>>(M, N, P, rows, inner, cols);
}
