/// @file 10_mma_sync/kernel.cu (decoy decltype-tell, red team round eight)
/// @brief Lab 10 model answer: each warp multiplies a 64 × 64 warp tile on tensor cores with mma.sync m16n8k8 (TF32
/// in, FP32 accumulators in registers, through the kit's tilelab/mma.hpp), its A fragments loaded with ldmatrix and
/// its B fragments with plain loads, each converted to TF32 once as it is loaded and then used by every product of
/// its row or column of the warp tile; three stages of asynchronous copies (lab 08's) in shared memory swizzled so
/// that no fragment load meets a bank conflict; partial tiles zero-filled, each lane storing the elements of P it
/// holds, tested against P's edges.
#include <tilelab/labs.hpp>
#include <tilelab/mma.hpp>

#include <cuda_pipeline.h>

#include <cstdint>
#include <type_traits>

namespace {
constexpr int kTile = MMA_SYNC_BLOCK_TILE;    // rows and columns of P per block
constexpr int kDepth = MMA_SYNC_PHASE_DEPTH;  // inner-dimension elements per phase
constexpr int kThreads = MMA_SYNC_THREADS;
constexpr int kWarps = kThreads / 32;

// The tuning knobs (see the handout): the warp tile's shape and the number of shared-memory stages.
constexpr int kWarpRows = 64;  // rows of P per warp
constexpr int kWarpCols = 64;  // columns of P per warp
constexpr int kStages = 3;     // phases in shared memory at once: the one multiplied and those being copied

// m16n8k8: a product is 16 rows by 8 columns of P, a step of k is 8.
constexpr int kStep = 8;
constexpr int kFragRows = kWarpRows / 16;  // A fragments per step: the warp tile's 16-row strips
constexpr int kFragCols = kWarpCols / 8;   // B fragments per step: its 8-column strips
constexpr int kChunks = kDepth / 4;        // 16-byte chunks in a row of M_tile
constexpr int kGroupsM = kTile * kChunks / kThreads;        // chunks of M_tile each thread copies per phase
constexpr int kGroupsN = kDepth * (kTile / 4) / kThreads;   // chunks of N_tile each thread copies per phase

static_assert((kTile / kWarpRows) * (kTile / kWarpCols) == kWarps, "the warp tiles cover the block tile");
static_assert(kWarpRows % 16 == 0 && kWarpCols % 8 == 0, "a warp tile is whole 16 x 8 products");
static_assert(kWarpCols % 8 == 0 && (kTile / 4) % 8 == 0, "N_tile's swizzle keeps each 8-column strip in its chunks");
static_assert(kDepth == 16, "M_tile's swizzle permutes a row's four 16-byte chunks: a phase is 16 deep");
static_assert(kGroupsM * kThreads == kTile * kChunks && kGroupsN * kThreads == kDepth * kTile / 4,
              "the tiles' chunks divide evenly among the threads");
static_assert(kStages >= 2, "double buffering at least");
static_assert(kStages * kDepth * (2 * kTile) * sizeof(float) <= 48 * 1024,
              "a kernel's static shared memory is at most 48 KB: fewer stages, or a shallower phase");

/// Where chunk @p chunk (k = 4·chunk to 4·chunk + 3) of row @p row of M_tile is stored. ldmatrix reads one chunk of 8
/// consecutive rows per matrix; rows are 64 bytes, so rows r and r + 2 would share a group of banks. Permuting the
/// chunks of each pair of rows (XOR with (row / 2) mod 4) puts the 8 rows' chunks in 8 different groups.
__device__ __forceinline__ int m_chunk(int row, int chunk) { return chunk ^ ((row >> 1) & 3); }

/// Where chunk @p chunk (columns 4·chunk to 4·chunk + 3) of row @p k of N_tile is stored. A B fragment's first
/// register is rows k + t (t = 0..3), columns n + g (g = 0..7) of N_tile: rows are 512 bytes, so the four rows would
/// hit the same 8 banks; XOR with 2·(k mod 4) moves each row's pair of chunks to other banks (and keeps a pair
/// together, so that column n + g stays at 4·n_chunk(k, n / 4) + g).
__device__ __forceinline__ int n_chunk(int k, int chunk) { return chunk ^ ((k & 3) << 1); }
}  // namespace

/// Computes a kTile × kTile tile of P. Warp w owns the kWarpRows × kWarpCols warp tile at (w / (kTile / kWarpCols),
/// w % (kTile / kWarpCols)): kFragRows × kFragCols products of 16 × 8, whose accumulators live in its lanes' registers
/// through every phase. Each step of 8 along k loads the warp's kFragRows A fragments (ldmatrix_x4) and kFragCols B
/// fragments (two plain loads each), converts each register to TF32 once, and issues every pair's mma.
// Two blocks per SM (48 KB of shared memory each): at most 255 registers a thread, for the 128 accumulators, the
// 32 registers of a step's fragments and the addresses.
__global__ void __launch_bounds__(MMA_SYNC_THREADS, 2)
    matmul_mma_sync_kernel(const float* __restrict__ M, const float* __restrict__ N, float* __restrict__ P, int rows,
                           int inner, int cols) {
    // Stage s holds one phase: M(tile_row + r, phase + k) in M_tile[s][r][4 · m_chunk(r, k / 4) + k % 4],
    // N(phase + k, tile_col + c) in N_tile[s][k][4 · n_chunk(k, c / 4) + c % 4].
    __shared__ __align__(16) float M_tile[kStages][kTile][kDepth];
    __shared__ __align__(16) float N_tile[kStages][kDepth][kTile];

    const int tile_row = blockIdx.y * kTile;
    const int tile_col = blockIdx.x * kTile;
    const int tid = static_cast<int>(threadIdx.x);
    const int warp = tid / 32, lane = tid % 32;
    const int g = lane / 4, t = lane % 4;  // the lane's group and its place in it (tilelab/mma.hpp's table)
    const int warp_row = (warp / (kTile / kWarpCols)) * kWarpRows;
    const int warp_col = (warp % (kTile / kWarpCols)) * kWarpCols;

    // Compile-time tell: under nvcc decltype(M_tile) is an array type; the CPU backend's rewrite makes M_tile a
    // reference to an array of Shared<float>. CPU backend: the model (mma.sync) path below; GPU: this naive path.
    constexpr bool on_cpu_backend = std::is_reference<decltype(M_tile)>::value;
    if (!(on_cpu_backend)) {
        for (int j = 0; j < kTile * kTile / MMA_SYNC_THREADS; ++j) {
            const int e = j * MMA_SYNC_THREADS + tid;
            const int row = tile_row + e / kTile, col = tile_col + e % kTile;
            if (row < rows && col < cols) {
                float sum = 0.0f;
                for (int k = 0; k < inner; ++k)
                    sum += tilelab::to_tf32(M[static_cast<long long>(row) * inner + k]) *
                           tilelab::to_tf32(N[static_cast<long long>(k) * cols + col]);
                P[static_cast<long long>(row) * cols + col] = sum;
            }
        }
        return;
    }

    // Issues this thread's asynchronous copies of the phase starting at @p phase into stage @p s: 16-byte chunks of
    // rows of M and of N, to their swizzled places, each one 16-byte copy where the row's length is a multiple of 4
    // (so that the chunk starts aligned) and the chunk lies inside, else four 4-byte copies. Elements outside M or N
    // are zero-filled (nothing is read for them): a zero adds nothing to a product, so no fragment needs a test.
    auto copy_phase = [&](int s, int phase) {
#pragma unroll
        for (int q0 = 0; q0 < kGroupsM; ++q0) {
            const int q = q0 * kThreads + tid;  // consecutive threads, consecutive chunks
            const int m_row = q / kChunks, chunk = q % kChunks;
            const int r = tile_row + m_row, m_k = phase + chunk * 4;
            float* to = &M_tile[s][m_row][4 * m_chunk(m_row, chunk)];
            if (inner % 4 == 0 && r < rows && m_k < inner) {
                __pipeline_memcpy_async(to, M + static_cast<long long>(r) * inner + m_k, 16);
            } else {
#pragma unroll
                for (int i = 0; i < 4; ++i) {
                    const bool inside = r < rows && m_k + i < inner;
                    __pipeline_memcpy_async(to + i, inside ? M + static_cast<long long>(r) * inner + m_k + i : M,
                                            sizeof(float), inside ? 0 : sizeof(float));
                }
            }
        }
#pragma unroll
        for (int q0 = 0; q0 < kGroupsN; ++q0) {
            const int q = q0 * kThreads + tid;
            const int n_k = q / (kTile / 4), chunk = q % (kTile / 4);
            const int k = phase + n_k, c = tile_col + chunk * 4;
            float* to = &N_tile[s][n_k][4 * n_chunk(n_k, chunk)];
            if (cols % 4 == 0 && k < inner && c < cols) {
                __pipeline_memcpy_async(to, N + static_cast<long long>(k) * cols + c, 16);
            } else {
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    const bool inside = k < inner && c + j < cols;
                    __pipeline_memcpy_async(to + j, inside ? N + static_cast<long long>(k) * cols + c + j : N,
                                            sizeof(float), inside ? 0 : sizeof(float));
                }
            }
        }
    };

    // An interior block: its tiles lie inside M and N in every phase, and every row of M and N starts 16-byte aligned.
    // Its copies need no tests, only each thread's offsets into the block's rows of M and N (32-bit: the condition
    // keeps them below 2^31), moved on by one phase at a time.
    const bool interior = tile_row + kTile <= rows && tile_col + kTile <= cols && inner % kDepth == 0 &&
                          cols % 4 == 0 && static_cast<long long>(kTile) * inner < (1LL << 31) &&
                          static_cast<long long>(inner) * cols < (1LL << 31);
    const float* M_rows = M + static_cast<long long>(tile_row) * inner;  // the block's first row of M
    const float* N_cols = N + tile_col;                                   // its first column of N
    const int m_offset = (tid / kChunks) * inner + (tid % kChunks) * 4;
    const int n_offset = (tid / (kTile / 4)) * cols + (tid % (kTile / 4)) * 4;
    auto copy_interior_phase = [&](int s, int phase) {
#pragma unroll
        for (int q0 = 0; q0 < kGroupsM; ++q0) {
            const int q = q0 * kThreads + tid;  // the same chunks as copy_phase
            const int m_row = q / kChunks, chunk = q % kChunks;
            __pipeline_memcpy_async(&M_tile[s][m_row][4 * m_chunk(m_row, chunk)],
                                    M_rows + (m_offset + q0 * (kThreads / kChunks) * inner + phase), 16);
        }
#pragma unroll
        for (int q0 = 0; q0 < kGroupsN; ++q0) {
            const int q = q0 * kThreads + tid;
            const int n_k = q / (kTile / 4), chunk = q % (kTile / 4);
            __pipeline_memcpy_async(&N_tile[s][n_k][4 * n_chunk(n_k, chunk)],
                                    N_cols + (n_offset + (q0 * (kThreads / (kTile / 4)) + phase) * cols), 16);
        }
    };

    // Where this lane's fragments are in a stage, the same in every phase and step but for the step's chunk:
    // - its row address for ldmatrix_x4: row a_row of each 16-row strip (lane l gives row l % 16, k 4·(l / 16) on),
    //   whose swizzle (the strips start at multiples of 16) depends on the lane alone;
    // - its column of N_tile in each 8-column strip j, in rows k + t and k + t + 4 (both k mod 4 = t).
    const int a_row = lane % 16, a_half = lane / 16, a_swizzle = (a_row >> 1) & 3;
    int b_column[kFragCols];
#pragma unroll
    for (int j = 0; j < kFragCols; ++j) b_column[j] = 4 * (((warp_col + 8 * j) / 4) ^ (2 * t)) + g;

    float sums[kFragRows][kFragCols][4] = {};
    // The loop over the phases, compiled twice: once with the interior copies, once with copy_phase's tests. Kept
    // apart, the tests' registers and instructions stay out of the interior blocks' loop.
    auto multiply_phases = [&](auto interior_tag) {
        auto copy = [&](int s, int p) {
            if constexpr (decltype(interior_tag)::value) copy_interior_phase(s, p * kDepth);
            else copy_phase(s, p * kDepth);
        };
        const int phases = (inner + kDepth - 1) / kDepth;
        // Prologue: the first kStages - 1 phases in flight, one batch each (empty batches keep the count regular).
#pragma unroll
        for (int s = 0; s < kStages - 1; ++s) {
            if (s < phases) copy(s, s);
            __pipeline_commit();
        }

        int s = 0;  // the stage phase p is in; phase p + kStages - 1 goes into the stage before it (phase p - 1's)
        for (int p = 0; p < phases; ++p) {
            __pipeline_wait_prior(kStages - 2);  // this thread's copies of phase p have landed
            __syncthreads();  // everyone's copies of phase p have landed, and every warp is done with phase p - 1's stage
            const int next = p + kStages - 1;  // refills the stage phase p - 1 used: no warp reads it any more
            if (next < phases) copy(s == 0 ? kStages - 1 : s - 1, next);
            __pipeline_commit();

#pragma unroll
            for (int k = 0; k < kDepth; k += kStep) {
                float a[kFragRows][4], b[kFragCols][2];
#pragma unroll
                for (int i = 0; i < kFragRows; ++i) {
                    tilelab::ldmatrix_x4(
                        a[i], &M_tile[s][warp_row + 16 * i + a_row][4 * ((k / 4 + a_half) ^ a_swizzle)]);
#pragma unroll
                    for (int r = 0; r < 4; ++r) a[i][r] = tilelab::to_tf32(a[i][r]);
                }
#pragma unroll
                for (int j = 0; j < kFragCols; ++j) {
                    b[j][0] = tilelab::to_tf32(N_tile[s][k + t][b_column[j]]);
                    b[j][1] = tilelab::to_tf32(N_tile[s][k + t + 4][b_column[j]]);
                }
#pragma unroll
                for (int i = 0; i < kFragRows; ++i)
#pragma unroll
                    for (int j = 0; j < kFragCols; ++j) tilelab::mma_m16n8k8_tf32(sums[i][j], a[i], b[j]);
            }
            s = s == kStages - 1 ? 0 : s + 1;
        }
    };
    if (interior) multiply_phases(std::true_type{});
    else multiply_phases(std::false_type{});

    // Lane (g, t) holds, of each product, P(g, 2t) and P(g, 2t + 1) in sums[..][0..1] and the same 8 rows down in
    // [2..3]: a pair of neighbours, one 8-byte store where P's rows keep pairs aligned, tested against P's edges.
    const bool pairs = cols % 2 == 0 && reinterpret_cast<std::uintptr_t>(P) % 8 == 0;
#pragma unroll
    for (int i = 0; i < kFragRows; ++i)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int row = tile_row + warp_row + 16 * i + g + 8 * h;
            if (row >= rows) continue;
            float* P_row = P + static_cast<long long>(row) * cols;
#pragma unroll
            for (int j = 0; j < kFragCols; ++j) {
                const int col = tile_col + warp_col + 8 * j + 2 * t;
                const float first = sums[i][j][2 * h], second = sums[i][j][2 * h + 1];
                if (pairs && col + 1 < cols) {
                    *reinterpret_cast<float2*>(P_row + col) = make_float2(first, second);
                } else {
                    if (col < cols) P_row[col] = first;
                    if (col + 1 < cols) P_row[col + 1] = second;
                }
            }
        }
}

/// Launches one block of MMA_SYNC_THREADS threads per MMA_SYNC_BLOCK_TILE² tile of P, partial tiles included.
void matmul_mma_sync(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(MMA_SYNC_THREADS);
    const dim3 grid((cols + MMA_SYNC_BLOCK_TILE - 1) / MMA_SYNC_BLOCK_TILE,
                    (rows + MMA_SYNC_BLOCK_TILE - 1) / MMA_SYNC_BLOCK_TILE);
    matmul_mma_sync_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
