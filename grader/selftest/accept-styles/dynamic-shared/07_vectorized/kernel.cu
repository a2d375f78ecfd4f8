/// @file grader/selftest/accept-styles/dynamic-shared/07_vectorized/kernel.cu
/// @brief Lab 07 with its tiles in dynamic shared memory: one `extern __shared__ __align__(16) float smem[]` carved
/// into M's tile, transposed and padded, and N's tile, the launcher passing their bytes as the third <<< >>>
/// argument. float4 loads from global memory where a row's length is a multiple of 4, float4 reads of both tiles,
/// float4 stores into P where they fit (NVIDIA's vectorized memory access tip on siboehm's kernel 6).
#include <tilelab/labs.hpp>

#include <cstddef>

namespace {
constexpr int kTile = VECTOR_BLOCK_TILE;
constexpr int kDepth = VECTOR_PHASE_DEPTH;
constexpr int kMicro = VECTOR_MICRO_TILE;
constexpr int kLdM = kTile + VECTOR_SHARED_PADDING;  // a padded row of the transposed M tile
constexpr std::size_t kSharedBytes = (kDepth * kLdM + kDepth * kTile) * sizeof(float);
static_assert(kTile * kDepth == 4 * VECTOR_THREADS, "one float4 of each tile per thread and phase");
static_assert(kLdM % 4 == 0 && (kDepth * kLdM) % 4 == 0, "the tiles' rows stay 16-byte aligned");
}  // namespace

__global__ void __launch_bounds__(VECTOR_THREADS)
    matmul_vectorized_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    extern __shared__ __align__(16) float smem[];
    float* Mt = smem;                 // Mt[k * kLdM + r] = M(row0 + r, k0 + k)
    float* Ns = smem + kDepth * kLdM;  // Ns[k * kTile + c] = N(k0 + k, col0 + c)

    const int t = threadIdx.x;
    const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
    const int my_row = (t / (kTile / kMicro)) * kMicro, my_col = (t % (kTile / kMicro)) * kMicro;
    const int m_r = t / (kDepth / 4), m_k = (t % (kDepth / 4)) * 4;
    const int n_k = t / (kTile / 4), n_c = (t % (kTile / 4)) * 4;

    float acc[kMicro][kMicro] = {};
    for (int k0 = 0; k0 < inner; k0 += kDepth) {
        float4 m;
        const int r = row0 + m_r, k = k0 + m_k;
        if (inner % 4 == 0 && r < rows && k + 3 < inner) {
            m = *reinterpret_cast<const float4*>(&M[r * inner + k]);
        } else {
            m.x = r < rows && k < inner ? M[r * inner + k] : 0.0f;
            m.y = r < rows && k + 1 < inner ? M[r * inner + k + 1] : 0.0f;
            m.z = r < rows && k + 2 < inner ? M[r * inner + k + 2] : 0.0f;
            m.w = r < rows && k + 3 < inner ? M[r * inner + k + 3] : 0.0f;
        }
        Mt[(m_k + 0) * kLdM + m_r] = m.x;
        Mt[(m_k + 1) * kLdM + m_r] = m.y;
        Mt[(m_k + 2) * kLdM + m_r] = m.z;
        Mt[(m_k + 3) * kLdM + m_r] = m.w;
        float4 n;
        const int nk = k0 + n_k, c = col0 + n_c;
        if (cols % 4 == 0 && nk < inner && c + 3 < cols) {
            n = *reinterpret_cast<const float4*>(&N[nk * cols + c]);
        } else {
            n.x = nk < inner && c < cols ? N[nk * cols + c] : 0.0f;
            n.y = nk < inner && c + 1 < cols ? N[nk * cols + c + 1] : 0.0f;
            n.z = nk < inner && c + 2 < cols ? N[nk * cols + c + 2] : 0.0f;
            n.w = nk < inner && c + 3 < cols ? N[nk * cols + c + 3] : 0.0f;
        }
        *reinterpret_cast<float4*>(&Ns[n_k * kTile + n_c]) = n;
        __syncthreads();
        for (int kk = 0; kk < kDepth; ++kk) {
            const float4 a0 = *reinterpret_cast<const float4*>(&Mt[kk * kLdM + my_row]);
            const float4 a1 = *reinterpret_cast<const float4*>(&Mt[kk * kLdM + my_row + 4]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Ns[kk * kTile + my_col]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Ns[kk * kTile + my_col + 4]);
            const float a[kMicro] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b[kMicro] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
            for (int i = 0; i < kMicro; ++i)
                for (int j = 0; j < kMicro; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < kMicro; ++i) {
        const int r = row0 + my_row + i;
        if (r >= rows) break;
        for (int half = 0; half < 2; ++half) {
            const int c = col0 + my_col + 4 * half;
            const float* v = acc[i] + 4 * half;
            if (cols % 4 == 0 && c + 3 < cols) {
                *reinterpret_cast<float4*>(&P[r * cols + c]) = make_float4(v[0], v[1], v[2], v[3]);
            } else {
                for (int j = 0; j < 4; ++j)
                    if (c + j < cols) P[r * cols + c + j] = v[j];
            }
        }
    }
}

void matmul_vectorized(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    matmul_vectorized_kernel<<<grid, VECTOR_THREADS, kSharedBytes>>>(M, N, P, rows, inner, cols);
}
