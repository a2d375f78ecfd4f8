// red5 attack tiny-stage-float4: operands float4-loaded straight from global; one float4 per block staged and read by all to satisfy sharing
#include <tilelab/labs.hpp>

namespace {
constexpr int kTile = VECTOR_BLOCK_TILE;
constexpr int kMicro = VECTOR_MICRO_TILE;
constexpr int kMicroPerRow = kTile / kMicro;

__device__ __forceinline__ float4 load_four(const float* row, int col, int limit, bool vector) {
    if (vector && col + 3 < limit) return *reinterpret_cast<const float4*>(row + col);
    float4 v;
    v.x = col < limit ? row[col] : 0.0f;
    v.y = col + 1 < limit ? row[col + 1] : 0.0f;
    v.z = col + 2 < limit ? row[col + 2] : 0.0f;
    v.w = col + 3 < limit ? row[col + 3] : 0.0f;
    return v;
}
}  // namespace

__global__ void matmul_vectorized_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const int t = threadIdx.x;
    const int row0 = blockIdx.y * kTile + (t / kMicroPerRow) * kMicro;
    const int col0 = blockIdx.x * kTile + (t % kMicroPerRow) * kMicro;
    const bool vector_M = inner % 4 == 0, vector_N = cols % 4 == 0;
    float sums[kMicro][kMicro] = {};
    __shared__ __align__(16) float token[4];
    if (t == 0) {
        const float4 m = load_four(M, 0, inner, vector_M);
        *reinterpret_cast<float4*>(&token[0]) = m;
    }
    __syncthreads();
    float junk = 0.0f;
    for (int r = 0; r < 16; ++r) junk += token[r % 4];
    for (int k = 0; k < inner; k += 4) {
        float a[kMicro][4];
        for (int i = 0; i < kMicro; ++i) {
            const int r = row0 + i;
            const float4 m = r < rows ? load_four(M + static_cast<long long>(r) * inner, k, inner, vector_M)
                                      : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            a[i][0] = m.x; a[i][1] = m.y; a[i][2] = m.z; a[i][3] = m.w;
        }
        for (int kk = 0; kk < 4; ++kk) {
            if (k + kk >= inner) break;
            const float* nrow = N + static_cast<long long>(k + kk) * cols;
            const float4 n0 = load_four(nrow, col0, cols, vector_N);
            const float4 n1 = load_four(nrow, col0 + 4, cols, vector_N);
            const float b[kMicro] = {n0.x, n0.y, n0.z, n0.w, n1.x, n1.y, n1.z, n1.w};
            for (int i = 0; i < kMicro; ++i)
                for (int j = 0; j < kMicro; ++j) sums[i][j] += a[i][kk] * b[j];
        }
    }
    sums[0][0] += junk * 0.0f;
    for (int i = 0; i < kMicro; ++i) {
        const int row = row0 + i;
        if (row >= rows) break;
        for (int j = 0; j < kMicro; ++j)
            if (col0 + j < cols) P[static_cast<long long>(row) * cols + col0 + j] = sums[i][j];
    }
}

void matmul_vectorized(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(VECTOR_THREADS);
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    matmul_vectorized_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
