/// @file grader/selftest/accept-styles/uintptr-alignment/07_vectorized/kernel.cu
/// @brief Lab 07 that takes the 16-byte path wherever the actual address is 16-byte aligned, not only where a row's
/// length is a multiple of 4: the test is on the pointer itself, as NVIDIA's "CUDA Pro Tip: Increase Performance with
/// Vectorized Memory Access" and many SGEMM write-ups phrase it. Every form of the test: `reinterpret_cast<uintptr_t>`
/// of a __device__ helper's pointer parameter and of a float4 pointer, `(size_t)` of a helper's parameter and of a
/// row of P, `(uintptr_t)&tile[k][0]` of a shared row. M's tile is staged transposed; each thread an 8 x 8
/// micro-tile in two halves of rows and of columns, 64 apart (so that a warp's float4 reads of a tile row are
/// consecutive).
#include <tilelab/labs.hpp>

#include <cstddef>
#include <cstdint>

namespace {
constexpr int kTile = VECTOR_BLOCK_TILE;
constexpr int kDepth = VECTOR_PHASE_DEPTH;
constexpr int kThreads = VECTOR_THREADS;
constexpr int kPad = VECTOR_SHARED_PADDING;
constexpr int kHalf = kTile / 2;  // a thread's outputs: 4 rows (columns) in each half of the tile
static_assert(kTile * kDepth == 4 * kThreads, "each thread stages four elements of each tile per phase");
static_assert(VECTOR_MICRO_TILE == 8, "two groups of four rows and of four columns per thread");

/// Whether @p p may be read or written as a float4: its address is a multiple of 16 bytes.
__device__ __forceinline__ bool aligned16(const float* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }

/// The @p count (0 to 4) elements at @p p, zeros after them: one 16-byte load when all four are there and the
/// address is aligned, else one load per element.
__device__ __forceinline__ float4 load_up_to_four(const float* p, int count) {
    if (count >= 4 && aligned16(p)) return *reinterpret_cast<const float4*>(p);
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (count > 0) v.x = p[0];
    if (count > 1) v.y = p[1];
    if (count > 2) v.z = p[2];
    if (count > 3) v.w = p[3];
    return v;
}

/// Stores the first @p count (0 to 4) elements of @p v at @p p: one 16-byte store when all four go and the address
/// is aligned, else one store per element.
__device__ __forceinline__ void store_up_to_four(float* p, int count, float4 v) {
    if (count >= 4 && (size_t)p % 16 == 0) {
        *reinterpret_cast<float4*>(p) = v;
        return;
    }
    if (count > 0) p[0] = v.x;
    if (count > 1) p[1] = v.y;
    if (count > 2) p[2] = v.z;
    if (count > 3) p[3] = v.w;
}
}  // namespace

__global__ void __launch_bounds__(VECTOR_THREADS)
    matmul_vectorized_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ __align__(16) float Mt[kDepth][kTile + kPad];  // Mt[k][r] = M(row0 + r, k0 + k)
    __shared__ __align__(16) float Ns[kDepth][kTile];         // Ns[k][c] = N(k0 + k, col0 + c)

    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
    const int ty = tid / 16, tx = tid % 16;  // outputs at rows ty*4 + {0..3} and kHalf + ty*4 + {0..3}, columns alike
    const int m_r = tid / (kDepth / 4), m_k = (tid % (kDepth / 4)) * 4;  // four consecutive k of one row of M
    const int n_k = tid / (kTile / 4), n_c = (tid % (kTile / 4)) * 4;    // four consecutive columns of one row of N

    float acc[8][8] = {};
    for (int k0 = 0; k0 < inner; k0 += kDepth) {
        {
            const int r = row0 + m_r, k = k0 + m_k;
            const int count = r < rows ? (inner - k < 4 ? inner - k : 4) : 0;
            const float4 v = load_up_to_four(M + static_cast<std::size_t>(r < rows ? r : 0) * inner + k, count);
            Mt[m_k + 0][m_r] = v.x;
            Mt[m_k + 1][m_r] = v.y;
            Mt[m_k + 2][m_r] = v.z;
            Mt[m_k + 3][m_r] = v.w;
        }
        {
            const int k = k0 + n_k, c = col0 + n_c;
            const int count = k < inner ? (cols - c < 4 ? (cols - c > 0 ? cols - c : 0) : 4) : 0;
            const float4 v = load_up_to_four(N + static_cast<std::size_t>(k < inner ? k : 0) * cols + c, count);
            if ((uintptr_t)&Ns[n_k][n_c] % 16 == 0) {
                *reinterpret_cast<float4*>(&Ns[n_k][n_c]) = v;
            } else {
                Ns[n_k][n_c] = v.x, Ns[n_k][n_c + 1] = v.y, Ns[n_k][n_c + 2] = v.z, Ns[n_k][n_c + 3] = v.w;
            }
        }
        __syncthreads();
        for (int k = 0; k < kDepth; ++k) {
            const float4* m4 = reinterpret_cast<const float4*>(&Mt[k][0]);
            const float4* n4 = reinterpret_cast<const float4*>(&Ns[k][0]);
            float a[8], b[8];
            if (reinterpret_cast<uintptr_t>(m4) % 16 == 0) {
                const float4 lo = m4[ty], hi = m4[kHalf / 4 + ty];
                a[0] = lo.x, a[1] = lo.y, a[2] = lo.z, a[3] = lo.w, a[4] = hi.x, a[5] = hi.y, a[6] = hi.z, a[7] = hi.w;
            } else {
                for (int i = 0; i < 4; ++i) a[i] = Mt[k][ty * 4 + i], a[4 + i] = Mt[k][kHalf + ty * 4 + i];
            }
            const float4 lo = n4[tx], hi = n4[kHalf / 4 + tx];
            b[0] = lo.x, b[1] = lo.y, b[2] = lo.z, b[3] = lo.w, b[4] = hi.x, b[5] = hi.y, b[6] = hi.z, b[7] = hi.w;
            for (int i = 0; i < 8; ++i)
                for (int j = 0; j < 8; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }

    for (int i = 0; i < 8; ++i) {
        const int r = row0 + (i < 4 ? ty * 4 + i : kHalf + ty * 4 + i - 4);
        if (r >= rows) continue;
        for (int half = 0; half < 2; ++half) {
            const int c = col0 + half * kHalf + tx * 4;
            float* out = P + static_cast<std::size_t>(r) * cols + c;
            const float* v = &acc[i][half * 4];
            const int count = cols - c < 4 ? (cols - c > 0 ? cols - c : 0) : 4;
            if (count == 4 && (size_t)out % 16 == 0)
                *reinterpret_cast<float4*>(out) = make_float4(v[0], v[1], v[2], v[3]);
            else
                store_up_to_four(out, count, make_float4(v[0], v[1], v[2], v[3]));
        }
    }
}

void matmul_vectorized(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 grid((cols + VECTOR_BLOCK_TILE - 1) / VECTOR_BLOCK_TILE, (rows + VECTOR_BLOCK_TILE - 1) / VECTOR_BLOCK_TILE);
    matmul_vectorized_kernel<<<grid, VECTOR_THREADS>>>(M, N, P, rows, inner, cols);
}
