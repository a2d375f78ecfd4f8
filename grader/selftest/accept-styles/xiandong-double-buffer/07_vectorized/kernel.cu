/// @file grader/selftest/accept-styles/xiandong-double-buffer/07_vectorized/kernel.cu
/// @brief Lab 07 as Liu Xiandong's How_to_optimize_in_GPU (sgemm, the "How to optimize SGEMM on NVIDIA GPU"
/// series) writes its double-buffered SGEMM (style: template parameters BLOCK_SIZE_M, BLOCK_SIZE_K, BLOCK_SIZE_N,
/// THREAD_SIZE_Y, THREAD_SIZE_X, ENABLE_DOUBLE_BUFFER; the OFFSET and FETCH_FLOAT4 macros; As[2][BK][BM] and
/// Bs[2][BK][BN] in shared memory, the next tile read from global memory into ldg_a_reg/ldg_b_reg while the current
/// one is multiplied; frag_a[2]/frag_b[2] register double buffering, one k ahead; a do-while over tile_idx with
/// write_stage_idx/load_stage_idx; one __syncthreads() per tile), at the lab's 256 threads (tx, ty from a
/// one-dimensional block, as the kit launches it). The original reads A and B only as float4s for sizes that are
/// multiples of the tiles; here a guarded scalar path covers a row whose length is not a multiple of 4, the tiles'
/// edges (zeros) and the stores, and reads of the const inputs use a const FETCH_FLOAT4_CONST.
#include <tilelab/labs.hpp>

#define OFFSET(row, col, ld) ((row) * (ld) + (col))
#define FETCH_FLOAT4(pointer) (reinterpret_cast<float4*>(&(pointer))[0])
#define FETCH_FLOAT4_CONST(pointer) (reinterpret_cast<const float4*>(&(pointer))[0])

namespace {
/// Four consecutive floats of a row from column @p col (zeros past @p limit): one float4 load where it may.
__device__ __forceinline__ float4 ldg4(const float* row, int col, int limit, bool vec) {
    if (vec && col + 3 < limit) return FETCH_FLOAT4_CONST(row[col]);
    float4 v;
    v.x = col + 0 < limit ? row[col + 0] : 0.0f;
    v.y = col + 1 < limit ? row[col + 1] : 0.0f;
    v.z = col + 2 < limit ? row[col + 2] : 0.0f;
    v.w = col + 3 < limit ? row[col + 3] : 0.0f;
    return v;
}
}  // namespace

template <const int BLOCK_SIZE_M,  // height of block of C that each thread block calculate
          const int BLOCK_SIZE_K,  // width of block of A that each thread block load into shared memory
          const int BLOCK_SIZE_N,  // width of block of C that each thread block calculate
          const int THREAD_SIZE_Y, // height of block of C that each thread calculate
          const int THREAD_SIZE_X, // width of block of C that each thread calculate
          const bool ENABLE_DOUBLE_BUFFER>  // whether enable double buffering or not
__device__ void Sgemm(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, const int M,
                      const int N, const int K) {
    static_assert(ENABLE_DOUBLE_BUFFER, "this kernel is the double-buffered one");
    // Block index
    int bx = blockIdx.x;
    int by = blockIdx.y;

    // the threads number in Block of X,Y
    const int THREAD_X_PER_BLOCK = BLOCK_SIZE_N / THREAD_SIZE_X;
    const int THREAD_Y_PER_BLOCK = BLOCK_SIZE_M / THREAD_SIZE_Y;
    const int THREAD_NUM_PER_BLOCK = THREAD_Y_PER_BLOCK * THREAD_X_PER_BLOCK;

    // thread id in cur Block
    const int tid = threadIdx.x;
    int tx = tid % THREAD_X_PER_BLOCK;
    int ty = tid / THREAD_X_PER_BLOCK;

    // shared memory
    __shared__ __align__(16) float As[2][BLOCK_SIZE_K][BLOCK_SIZE_M];
    __shared__ __align__(16) float Bs[2][BLOCK_SIZE_K][BLOCK_SIZE_N];
    // registers for C
    float accum[THREAD_SIZE_Y][THREAD_SIZE_X] = {0};
    // registers for A and B
    __align__(16) float frag_a[2][THREAD_SIZE_Y];
    __align__(16) float frag_b[2][THREAD_SIZE_X];
    // registers load global memory
    const int ldg_num_a = BLOCK_SIZE_M * BLOCK_SIZE_K / (THREAD_NUM_PER_BLOCK * 4);
    const int ldg_num_b = BLOCK_SIZE_K * BLOCK_SIZE_N / (THREAD_NUM_PER_BLOCK * 4);
    __align__(16) float ldg_a_reg[4 * ldg_num_a];
    __align__(16) float ldg_b_reg[4 * ldg_num_b];

    // threads number in one row
    const int A_TILE_THREAD_PER_ROW = BLOCK_SIZE_K / 4;
    const int B_TILE_THREAD_PER_ROW = BLOCK_SIZE_N / 4;

    // row number and col number that needs to be loaded by this thread
    const int A_TILE_ROW_START = tid / A_TILE_THREAD_PER_ROW;
    const int B_TILE_ROW_START = tid / B_TILE_THREAD_PER_ROW;

    const int A_TILE_COL = tid % A_TILE_THREAD_PER_ROW * 4;
    const int B_TILE_COL = tid % B_TILE_THREAD_PER_ROW * 4;

    // row stride that thread uses to load multiple rows of a tile
    const int A_TILE_ROW_STRIDE = THREAD_NUM_PER_BLOCK / A_TILE_THREAD_PER_ROW;
    const int B_TILE_ROW_STRIDE = THREAD_NUM_PER_BLOCK / B_TILE_THREAD_PER_ROW;

    const bool vecA = K % 4 == 0, vecB = N % 4 == 0;
    const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

    // load one tile's share of this thread from global memory into ldg_a_reg / ldg_b_reg
    auto load_global = [&](int tile_idx) {
#pragma unroll
        for (int i = 0; i < BLOCK_SIZE_M; i += A_TILE_ROW_STRIDE) {
            int ldg_index = i / A_TILE_ROW_STRIDE * 4;
            const int row = BLOCK_SIZE_M * by + A_TILE_ROW_START + i;
            FETCH_FLOAT4(ldg_a_reg[ldg_index]) =
                row < M ? ldg4(&A[OFFSET(row, 0, K)], A_TILE_COL + tile_idx, K, vecA) : zero;
        }
#pragma unroll
        for (int i = 0; i < BLOCK_SIZE_K; i += B_TILE_ROW_STRIDE) {
            int ldg_index = i / B_TILE_ROW_STRIDE * 4;
            const int row = tile_idx + B_TILE_ROW_START + i;
            FETCH_FLOAT4(ldg_b_reg[ldg_index]) =
                row < K ? ldg4(&B[OFFSET(row, 0, N)], B_TILE_COL + BLOCK_SIZE_N * bx, N, vecB) : zero;
        }
    };
    // store the registers into stage `stage` of shared memory, A transposed
    auto store_shared = [&](int stage) {
#pragma unroll
        for (int i = 0; i < BLOCK_SIZE_M; i += A_TILE_ROW_STRIDE) {
            int ldg_index = i / A_TILE_ROW_STRIDE * 4;
            As[stage][A_TILE_COL][A_TILE_ROW_START + i] = ldg_a_reg[ldg_index];
            As[stage][A_TILE_COL + 1][A_TILE_ROW_START + i] = ldg_a_reg[ldg_index + 1];
            As[stage][A_TILE_COL + 2][A_TILE_ROW_START + i] = ldg_a_reg[ldg_index + 2];
            As[stage][A_TILE_COL + 3][A_TILE_ROW_START + i] = ldg_a_reg[ldg_index + 3];
        }
#pragma unroll
        for (int i = 0; i < BLOCK_SIZE_K; i += B_TILE_ROW_STRIDE) {
            int ldg_index = i / B_TILE_ROW_STRIDE * 4;
            FETCH_FLOAT4(Bs[stage][B_TILE_ROW_START + i][B_TILE_COL]) = FETCH_FLOAT4(ldg_b_reg[ldg_index]);
        }
    };
    // load row k of stage `stage` into frag_a[f] / frag_b[f]
    auto load_frag = [&](int f, int stage, int k) {
#pragma unroll
        for (int thread_y = 0; thread_y < THREAD_SIZE_Y; thread_y += 4)
            FETCH_FLOAT4(frag_a[f][thread_y]) = FETCH_FLOAT4(As[stage][k][THREAD_SIZE_Y * ty + thread_y]);
#pragma unroll
        for (int thread_x = 0; thread_x < THREAD_SIZE_X; thread_x += 4)
            FETCH_FLOAT4(frag_b[f][thread_x]) = FETCH_FLOAT4(Bs[stage][k][THREAD_SIZE_X * tx + thread_x]);
    };
    auto mma = [&](int f) {
#pragma unroll
        for (int thread_y = 0; thread_y < THREAD_SIZE_Y; ++thread_y)
#pragma unroll
            for (int thread_x = 0; thread_x < THREAD_SIZE_X; ++thread_x)
                accum[thread_y][thread_x] += frag_a[f][thread_y] * frag_b[f][thread_x];
    };

    // transfer first tile from global mem to shared mem
    load_global(0);
    store_shared(0);
    __syncthreads();
    // load first k of the tile from shared memory to register
    load_frag(0, 0, 0);

    int write_stage_idx = 1;
    int tile_idx = 0;
    do {
        tile_idx += BLOCK_SIZE_K;
        // load next tile from global mem
        if (tile_idx < K) load_global(tile_idx);

        int load_stage_idx = write_stage_idx ^ 1;

#pragma unroll
        for (int j = 0; j < BLOCK_SIZE_K - 1; ++j) {
            // load next k from shared mem to register
            load_frag((j + 1) % 2, load_stage_idx, j + 1);
            // compute C THREAD_SIZE_X x THREAD_SIZE_Y
            mma(j % 2);
        }

        if (tile_idx < K) {
            store_shared(write_stage_idx);
            // use double buffer, only need one sync
            __syncthreads();
            // switch
            write_stage_idx ^= 1;
        }

        // load first k of the next tile from shared mem to register, for the next iteration
        load_frag(0, load_stage_idx ^ 1, 0);
        // compute last k mma THREAD_SIZE_X x THREAD_SIZE_Y
        mma(1);
    } while (tile_idx < K);

    // store back to C
#pragma unroll
    for (int thread_y = 0; thread_y < THREAD_SIZE_Y; ++thread_y) {
        const int row = BLOCK_SIZE_M * by + ty * THREAD_SIZE_Y + thread_y;
        if (row >= M) continue;
#pragma unroll
        for (int thread_x = 0; thread_x < THREAD_SIZE_X; thread_x += 4) {
            const int col = BLOCK_SIZE_N * bx + tx * THREAD_SIZE_X + thread_x;
            if (vecB && col + 3 < N) {
                FETCH_FLOAT4(C[OFFSET(row, col, N)]) = FETCH_FLOAT4(accum[thread_y][thread_x]);
            } else {
                for (int e = 0; e < 4; ++e)
                    if (col + e < N) C[OFFSET(row, col + e, N)] = accum[thread_y][thread_x + e];
            }
        }
    }
}

__global__ void matmul_vectorized_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    Sgemm<VECTOR_BLOCK_TILE, VECTOR_PHASE_DEPTH, VECTOR_BLOCK_TILE, VECTOR_MICRO_TILE, VECTOR_MICRO_TILE, true>(
        M, N, P, rows, cols, inner);
}

void matmul_vectorized(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const int BLOCK_SIZE_M = VECTOR_BLOCK_TILE, BLOCK_SIZE_N = VECTOR_BLOCK_TILE;
    dim3 dimBlock(VECTOR_THREADS);
    dim3 dimGrid((cols + BLOCK_SIZE_N - 1) / BLOCK_SIZE_N, (rows + BLOCK_SIZE_M - 1) / BLOCK_SIZE_M);
    matmul_vectorized_kernel<<<dimGrid, dimBlock>>>(M, N, P, rows, inner, cols);
}
