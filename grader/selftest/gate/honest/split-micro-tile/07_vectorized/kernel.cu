// Gate calibration, honest variant "split-micro-tile" (lab 07): 16-byte loads and stores written differently from
// the model. Thread (ty, tx) = (t / 16, t % 16) owns an 8 x 8 micro-tile split into four 4 x 4 quarters, rows 4 ty
// and 64 + 4 ty, columns 4 tx and 64 + 4 tx (onwards), so that its shared-memory reads are four float4s per k,
// each quarter-warp reading 8 consecutive float4s (no padding needed); M and N arrive by one float4 load each per
// phase where the shape allows, M's tile transposed; P leaves by float4 stores. No unrolling pragmas. It does all
// of lab 07's idea, so it must pass the gate.
#include <tilelab/labs.hpp>

namespace {
constexpr int kTile = VECTOR_BLOCK_TILE;
constexpr int kDepth = VECTOR_PHASE_DEPTH;
constexpr int kThreads = VECTOR_THREADS;
constexpr int kQuarter = kTile / 2;
static_assert(VECTOR_MICRO_TILE == 8 && kThreads == 256, "16 x 16 threads, 8 x 8 outputs each");
static_assert(kTile * kDepth == 4 * kThreads, "one float4 of each tile per thread and phase");

// Four elements of a row from @p col, zero at and past @p limit: one 16-byte load when @p aligned allows.
__device__ float4 four_from(const float* row, int col, int limit, bool aligned) {
    if (aligned && col + 3 < limit) return *reinterpret_cast<const float4*>(row + col);
    return make_float4(col < limit ? row[col] : 0.0f, col + 1 < limit ? row[col + 1] : 0.0f,
                       col + 2 < limit ? row[col + 2] : 0.0f, col + 3 < limit ? row[col + 3] : 0.0f);
}
}  // namespace

__global__ void matmul_vectorized_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    __shared__ __align__(16) float Ms_T[kDepth][kTile];  // Ms_T[k][r] = M(tile_row + r, phase + k)
    __shared__ __align__(16) float Ns[kDepth][kTile];
    const int t = threadIdx.x;
    const int ty = t / 16, tx = t % 16;
    const int tile_row = blockIdx.y * kTile, tile_col = blockIdx.x * kTile;
    const int mr = t / (kDepth / 4), mk = (t % (kDepth / 4)) * 4;  // this thread's float4 of M: row mr, k from mk
    const int nk = t / (kTile / 4), nc = (t % (kTile / 4)) * 4;    // and of N: row nk, columns from nc

    float acc[8][8];
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;
    for (int phase = 0; phase < inner; phase += kDepth) {
        const float4 m = tile_row + mr < rows
                             ? four_from(M + (long long)(tile_row + mr) * inner, phase + mk, inner, inner % 4 == 0)
                             : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        Ms_T[mk][mr] = m.x;
        Ms_T[mk + 1][mr] = m.y;
        Ms_T[mk + 2][mr] = m.z;
        Ms_T[mk + 3][mr] = m.w;
        *reinterpret_cast<float4*>(&Ns[nk][nc]) =
            phase + nk < inner ? four_from(N + (long long)(phase + nk) * cols, tile_col + nc, cols, cols % 4 == 0)
                               : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        __syncthreads();
        for (int k = 0; k < kDepth; ++k) {
            const float4 a0 = *reinterpret_cast<const float4*>(&Ms_T[k][4 * ty]);
            const float4 a1 = *reinterpret_cast<const float4*>(&Ms_T[k][kQuarter + 4 * ty]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Ns[k][4 * tx]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Ns[k][kQuarter + 4 * tx]);
            const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
            for (int i = 0; i < 8; ++i)
                for (int j = 0; j < 8; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < 8; ++i) {
        const int r = tile_row + (i < 4 ? 0 : kQuarter) + 4 * ty + i % 4;
        if (r >= rows) continue;
        float* row = P + (long long)r * cols;
        for (int half = 0; half < 2; ++half) {
            const int c = tile_col + half * kQuarter + 4 * tx;
            const float* v = &acc[i][4 * half];
            if (cols % 4 == 0 && c + 3 < cols) {
                *reinterpret_cast<float4*>(row + c) = make_float4(v[0], v[1], v[2], v[3]);
            } else {
                for (int j = 0; j < 4; ++j)
                    if (c + j < cols) row[c + j] = v[j];
            }
        }
    }
}

void matmul_vectorized(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 grid((cols + VECTOR_BLOCK_TILE - 1) / VECTOR_BLOCK_TILE, (rows + VECTOR_BLOCK_TILE - 1) / VECTOR_BLOCK_TILE);
    matmul_vectorized_kernel<<<grid, VECTOR_THREADS>>>(M, N, P, rows, inner, cols);
}
