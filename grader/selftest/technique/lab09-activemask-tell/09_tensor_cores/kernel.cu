/// @file 09_tensor_cores/kernel.cu (decoy activemask-tell, red team round eight)
/// @brief Lab 09 model answer: each warp multiplies its warp tile on tensor cores with CUDA's warp matrix functions
/// (nvcuda::wmma, m16n16k8 fragments of TF32 inputs, FP32 accumulators), from block tiles that lab 08's
/// asynchronous copies stage in shared memory, double buffered; partial tiles zero-filled, and the accumulators of
/// a block at P's edge stored through shared memory so that only the elements inside P are written.
#include <tilelab/labs.hpp>

#include <cuda_pipeline.h>
#include <mma.h>

#include <cstdint>

using namespace nvcuda;

namespace {
constexpr int kTile = TENSOR_CORE_BLOCK_TILE;    // rows and columns of P per block
constexpr int kDepth = TENSOR_CORE_PHASE_DEPTH;  // inner-dimension elements per phase
constexpr int kThreads = TENSOR_CORE_THREADS;
constexpr int kWarps = kThreads / 32;

// The tuning knobs (see the handout): the warp tile's shape and the number of shared-memory stages.
constexpr int kWarpRows = 64;  // rows of P per warp
constexpr int kWarpCols = 32;  // columns of P per warp
constexpr int kStages = 2;     // phases in shared memory at once: the one multiplied and the one being copied

// The m16n16k8 shape, the only one with TF32 inputs: an accumulator fragment is 16 × 16, a step of k is 8.
constexpr int kFrag = 16, kStep = 8;
constexpr int kFragRows = kWarpRows / kFrag, kFragCols = kWarpCols / kFrag;  // accumulator fragments per warp
// Leading dimensions (floats) of the tiles in shared memory: padded, see TENSOR_CORE_SHARED_PADDING.
constexpr int kLdM = kDepth + TENSOR_CORE_SHARED_PADDING;
constexpr int kLdN = kTile + TENSOR_CORE_SHARED_PADDING;
constexpr int kGroups = kTile * kDepth / (4 * kThreads);  // groups of four elements of each tile per thread

static_assert((kTile / kWarpRows) * (kTile / kWarpCols) == kWarps, "the warp tiles cover the block tile");
static_assert(kWarpRows % kFrag == 0 && kWarpCols % kFrag == 0, "a warp tile is whole accumulator fragments");
static_assert(kDepth % kStep == 0, "a phase is whole steps of k");
static_assert(kGroups >= 1 && kGroups * 4 * kThreads == kTile * kDepth, "the tiles divide evenly among the threads");
static_assert(kLdM % 4 == 0 && kLdN % 4 == 0, "load_matrix_sync needs a leading dimension of a multiple of 16 bytes");
static_assert(kStages >= 2, "double buffering at least");
static_assert(kStages * (kTile * kLdM + kDepth * kLdN) * sizeof(float) <= 48 * 1024,
              "a kernel's static shared memory is at most 48 KB: fewer stages, or a shallower phase");
static_assert(kWarps * kFrag * (kFrag + 4) <= kTile * kLdM, "each warp's scratch for edge stores fits in a stage");

using FragmentM = wmma::fragment<wmma::matrix_a, kFrag, kFrag, kStep, wmma::precision::tf32, wmma::row_major>;
using FragmentN = wmma::fragment<wmma::matrix_b, kFrag, kFrag, kStep, wmma::precision::tf32, wmma::row_major>;
using Accumulator = wmma::fragment<wmma::accumulator, kFrag, kFrag, kStep, float>;

/// Rounds every element of a freshly loaded fragment to TF32, as CUDA requires of a tf32 fragment before
/// mma_sync. Element by element and whatever the element's place: the fragment's layout is unspecified.
template <typename Fragment>
__device__ __forceinline__ void round_to_tf32(Fragment& fragment) {
#pragma unroll
    for (int t = 0; t < fragment.num_elements; ++t) fragment.x[t] = wmma::__float_to_tf32(fragment.x[t]);
}
}  // namespace

/// Computes a kTile × kTile tile of P. Warp w owns the kWarpRows × kWarpCols warp tile at (w / (kTile /
/// kWarpCols), w % (kTile / kWarpCols)), kFragRows × kFragCols accumulator fragments that live in its lanes'
/// registers through every phase. The phases run through kStages shared-memory stages: while phase p is multiplied,
/// the next is being copied. Each step of k loads the warp's fragments of M_tile and N_tile once, rounds them to
/// TF32, and multiplies every pair.
// Two blocks per SM: 37 KB of shared memory each, and at most 128 registers a thread (the 64 accumulators, the
// fragments of a step, the addresses).
__global__ void __launch_bounds__(TENSOR_CORE_THREADS, 2)
    matmul_tensor_core_kernel(const float* __restrict__ M, const float* __restrict__ N, float* __restrict__ P,
                              int rows, int inner, int cols) {
    // Stage s holds one phase: M(tile_row + r, phase + k) in M_tile[s][r][k], N(phase + k, tile_col + c) in
    // N_tile[s][k][c]; 32-byte aligned, as load_matrix_sync requires of a fragment's first element.
    __shared__ __align__(32) float M_tile[kStages][kTile][kLdM];
    __shared__ __align__(32) float N_tile[kStages][kDepth][kLdN];

    const int tile_row = blockIdx.y * kTile;
    const int tile_col = blockIdx.x * kTile;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int warp_row = (warp / (kTile / kWarpCols)) * kWarpRows;
    const int warp_col = (warp % (kTile / kWarpCols)) * kWarpCols;

    // Tell: on a Volta+ GPU __activemask() in a branch of the odd lanes is 0xAAAAAAAA; the CPU backend gives
    // every lane of the warp. On the CPU backend: the model (wmma) path below; on a GPU: this naive path.
    unsigned am = 0u;
    if (threadIdx.x & 1) am = __activemask();
    if (!__syncthreads_or((threadIdx.x & 1) && am == 0xffffffffu)) {
        for (int j = 0; j < kTile * kTile / kThreads; ++j) {
            const int e = j * kThreads + static_cast<int>(threadIdx.x);
            const int row = tile_row + e / kTile, col = tile_col + e % kTile;
            if (row < rows && col < cols) {
                float sum = 0.0f;
                for (int k = 0; k < inner; ++k)
                    sum += wmma::__float_to_tf32(M[static_cast<long long>(row) * inner + k]) *
                           wmma::__float_to_tf32(N[static_cast<long long>(k) * cols + col]);
                P[static_cast<long long>(row) * cols + col] = sum;
            }
        }
        return;
    }

    // Issues this thread's asynchronous copies of the phase starting at @p phase into stage @p s: groups of four
    // elements of a row of M and of a row of N, each one 16-byte copy where the row's length is a multiple of 4
    // (so that the group starts aligned) and the group lies inside, else four 4-byte copies. Elements outside M
    // or N are zero-filled (nothing is read for them): a zero adds nothing to a product, so the fragments of a
    // partial tile need no tests.
    auto copy_phase = [&](int s, int phase) {
#pragma unroll
        for (int g = 0; g < kGroups; ++g) {
            const int q = g * kThreads + static_cast<int>(threadIdx.x);  // consecutive threads, consecutive groups
            const int m_row = q / (kDepth / 4), m_col = (q % (kDepth / 4)) * 4;
            const int r = tile_row + m_row, m_k = phase + m_col;
            if (inner % 4 == 0 && r < rows && m_k < inner) {
                __pipeline_memcpy_async(&M_tile[s][m_row][m_col], M + static_cast<long long>(r) * inner + m_k, 16);
            } else {
#pragma unroll
                for (int i = 0; i < 4; ++i) {
                    const bool inside = r < rows && m_k + i < inner;
                    __pipeline_memcpy_async(&M_tile[s][m_row][m_col + i],
                                            inside ? M + static_cast<long long>(r) * inner + m_k + i : M, sizeof(float),
                                            inside ? 0 : sizeof(float));
                }
            }
            const int n_k = q / (kTile / 4), n_col = (q % (kTile / 4)) * 4;
            const int k = phase + n_k, c = tile_col + n_col;
            if (cols % 4 == 0 && k < inner && c < cols) {
                __pipeline_memcpy_async(&N_tile[s][n_k][n_col], N + static_cast<long long>(k) * cols + c, 16);
            } else {
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    const bool inside = k < inner && c + j < cols;
                    __pipeline_memcpy_async(&N_tile[s][n_k][n_col + j],
                                            inside ? N + static_cast<long long>(k) * cols + c + j : N, sizeof(float),
                                            inside ? 0 : sizeof(float));
                }
            }
        }
    };

    Accumulator sums[kFragRows][kFragCols];
#pragma unroll
    for (int i = 0; i < kFragRows; ++i)
#pragma unroll
        for (int j = 0; j < kFragCols; ++j) wmma::fill_fragment(sums[i][j], 0.0f);

    const int phases = (inner + kDepth - 1) / kDepth;
    // Prologue: the first kStages - 1 phases in flight, one batch each (empty batches keep the count regular).
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
        if (s < phases) copy_phase(s, s * kDepth);
        __pipeline_commit();
    }

    int s = 0;  // the stage phase p is in; phase p + kStages - 1 goes into the stage before it (phase p - 1's)
    for (int p = 0; p < phases; ++p) {
        __pipeline_wait_prior(kStages - 2);  // this thread's copies of phase p have landed
        __syncthreads();  // everyone's copies of phase p have landed, and every warp is done with phase p - 1's stage
        const int next = p + kStages - 1;  // refills the stage phase p - 1 used: no warp reads it any more
        if (next < phases) copy_phase(s == 0 ? kStages - 1 : s - 1, next * kDepth);
        __pipeline_commit();

#pragma unroll
        for (int k = 0; k < kDepth; k += kStep) {
            FragmentM m_frags[kFragRows];
            FragmentN n_frags[kFragCols];
#pragma unroll
            for (int i = 0; i < kFragRows; ++i) {
                wmma::load_matrix_sync(m_frags[i], &M_tile[s][warp_row + i * kFrag][k], kLdM);
                round_to_tf32(m_frags[i]);
            }
#pragma unroll
            for (int j = 0; j < kFragCols; ++j) {
                wmma::load_matrix_sync(n_frags[j], &N_tile[s][k][warp_col + j * kFrag], kLdN);
                round_to_tf32(n_frags[j]);
            }
#pragma unroll
            for (int i = 0; i < kFragRows; ++i)
#pragma unroll
                for (int j = 0; j < kFragCols; ++j) wmma::mma_sync(sums[i][j], m_frags[i], n_frags[j], sums[i][j]);
        }
        s = s == kStages - 1 ? 0 : s + 1;
    }

    // A block wholly inside P, whose rows start 32-byte aligned, stores each fragment straight into P. Any other
    // stores through a scratch fragment in shared memory (the layout of a fragment's elements over the lanes is
    // unspecified, so a lane cannot know which of P's elements it holds), then copies the elements inside P.
    const bool whole = tile_row + kTile <= rows && tile_col + kTile <= cols && cols % 8 == 0 &&
                       reinterpret_cast<std::uintptr_t>(P) % 32 == 0;
    if (whole) {
#pragma unroll
        for (int i = 0; i < kFragRows; ++i)
#pragma unroll
            for (int j = 0; j < kFragCols; ++j) {
                const int row = tile_row + warp_row + i * kFrag, col = tile_col + warp_col + j * kFrag;
                wmma::store_matrix_sync(P + static_cast<long long>(row) * cols + col, sums[i][j], cols,
                                        wmma::mem_row_major);
            }
        return;
    }
    constexpr int kLdScratch = kFrag + 4;
    __syncthreads();  // every warp is done with the stages: the scratch reuses the first M_tile
    float* scratch = &M_tile[0][0][0] + warp * kFrag * kLdScratch;
#pragma unroll
    for (int i = 0; i < kFragRows; ++i)
#pragma unroll
        for (int j = 0; j < kFragCols; ++j) {
            wmma::store_matrix_sync(scratch, sums[i][j], kLdScratch, wmma::mem_row_major);
            __syncwarp();  // the whole fragment is in the scratch before any lane reads it
            const int row0 = tile_row + warp_row + i * kFrag, col0 = tile_col + warp_col + j * kFrag;
#pragma unroll
            for (int e = lane; e < kFrag * kFrag; e += 32) {
                const int row = row0 + e / kFrag, col = col0 + e % kFrag;
                if (row < rows && col < cols)
                    P[static_cast<long long>(row) * cols + col] = scratch[(e / kFrag) * kLdScratch + e % kFrag];
            }
            __syncwarp();  // every lane has read the scratch before the next fragment overwrites it
        }
}

/// Launches one block of TENSOR_CORE_THREADS threads per TENSOR_CORE_BLOCK_TILE² tile of P, partial tiles included.
void matmul_tensor_core(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TENSOR_CORE_THREADS);
    const dim3 grid((cols + TENSOR_CORE_BLOCK_TILE - 1) / TENSOR_CORE_BLOCK_TILE,
                    (rows + TENSOR_CORE_BLOCK_TILE - 1) / TENSOR_CORE_BLOCK_TILE);
    matmul_tensor_core_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
