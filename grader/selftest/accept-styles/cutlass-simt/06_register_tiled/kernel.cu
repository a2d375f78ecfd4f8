/// @file grader/selftest/accept-styles/cutlass-simt/06_register_tiled/kernel.cu
/// @brief Lab 06 in the style of CUTLASS's SIMT SGEMM (cutlass/gemm/threadblock/mma_pipelined.h and
/// cutlass/gemm/warp/mma_simt.h), written out without the library, which a lab may not use (style: GemmShape<M, N,
/// K> and MatrixShape<R, C> policy structs; a ThreadblockShape 128 × 128 × 8 split into WarpShape 32 × 64 × 8; a
/// lane layout of 4 × 8 lanes, RowMajorInterleaved<2>, each lane a LaneMmaShape 4 × 4 × 1 repeated 2 × 2 times
/// over its warp tile; Array<float, N> fragments; predicated tile iterators whose row and column guards are
/// computed once at construction, and that take the partial "residue" k-tile first so that every later k-tile
/// is whole; the pipelined mainloop: global memory into register fragments for tile k + 1 while the warps
/// multiply tile k from one of two shared-memory stages, one __syncthreads() per k-tile; A's tile column-major
/// (k-major) in shared memory; a predicated epilogue). CUTLASS_DEVICE is spelled as CUTLASS spells it.
#include <tilelab/labs.hpp>

#define CUTLASS_DEVICE __forceinline__ __device__

namespace simt {

/// A GEMM problem or tile shape (CUTLASS's gemm::GemmShape).
template <int M, int N, int K>
struct GemmShape {
    static constexpr int kM = M;
    static constexpr int kN = N;
    static constexpr int kK = K;
};

/// A 2-D shape (CUTLASS's MatrixShape).
template <int R, int C>
struct MatrixShape {
    static constexpr int kRow = R;
    static constexpr int kColumn = C;
};

/// A fixed-size register array (CUTLASS's Array<T, N>).
template <typename T, int N>
struct Array {
    static constexpr int kElements = N;
    T storage[N];
    CUTLASS_DEVICE T& operator[](int i) { return storage[i]; }
    CUTLASS_DEVICE const T& operator[](int i) const { return storage[i]; }
    CUTLASS_DEVICE void clear() {
#pragma unroll
        for (int i = 0; i < N; ++i) storage[i] = T(0);
    }
};

using ThreadblockShape = GemmShape<REGISTER_BLOCK_TILE, REGISTER_BLOCK_TILE, REGISTER_PHASE_DEPTH>;
using WarpShape = GemmShape<32, 64, REGISTER_PHASE_DEPTH>;
using LaneLayout = MatrixShape<4, 8>;      // lanes of a warp, RowMajorInterleaved<2>
using LaneMmaShape = GemmShape<4, 4, 1>;  // each lane's outer product per k
constexpr int kThreads = REGISTER_THREADS;
constexpr int kWarpCountN = ThreadblockShape::kN / WarpShape::kN;
static_assert((ThreadblockShape::kM / WarpShape::kM) * kWarpCountN * 32 == kThreads, "one warp per warp tile");
/// How many times a lane's LaneMmaShape repeats over its warp tile, down and across.
using Iterations = MatrixShape<WarpShape::kM / (LaneLayout::kRow * LaneMmaShape::kM),
                               WarpShape::kN / (LaneLayout::kColumn * LaneMmaShape::kN)>;
static_assert(Iterations::kRow * LaneMmaShape::kM == REGISTER_MICRO_TILE, "a lane's rows are its micro-tile");
static_assert(Iterations::kColumn * LaneMmaShape::kN == REGISTER_MICRO_TILE, "a lane's columns are its micro-tile");

/// Loads a ThreadblockShape::kM × kK tile of row-major A (contiguous along k): each thread kAccesses elements,
/// k = thread % kK, rows thread / kK + s · (kThreads / kK). Row guards at construction; the k guard only for the
/// residue tile.
struct PredicatedTileIteratorA {
    static constexpr int kStride = kThreads / ThreadblockShape::kK;
    static constexpr int kAccesses = ThreadblockShape::kM / kStride;
    using Fragment = Array<float, kAccesses>;
    const float* pointer;
    int ld;
    int k_column;        // this thread's k within a tile
    int row0;            // this thread's first row within the tile
    unsigned predicates;  // bit s: row row0 + s·kStride lies inside A
    int k_extent;        // columns of the current tile that lie inside (kK except for the residue)

    CUTLASS_DEVICE PredicatedTileIteratorA(const float* A, int rows, int inner, int block_row, int thread_id,
                                           int residue)
        : pointer(A), ld(inner), k_column(thread_id % ThreadblockShape::kK), row0(thread_id / ThreadblockShape::kK),
          predicates(0u), k_extent(residue) {
#pragma unroll
        for (int s = 0; s < kAccesses; ++s)
            if (block_row + row0 + s * kStride < rows) predicates |= 1u << s;
        pointer += static_cast<long long>(block_row + row0) * inner + k_column;
    }
    CUTLASS_DEVICE void load(Fragment& frag) const {
#pragma unroll
        for (int s = 0; s < kAccesses; ++s)
            frag[s] = ((predicates >> s) & 1u) && k_column < k_extent
                          ? pointer[static_cast<long long>(s) * kStride * ld]
                          : 0.0f;
    }
    /// Moves to the next k-tile: past the residue, every tile is whole.
    CUTLASS_DEVICE void operator++() {
        pointer += k_extent;
        k_extent = ThreadblockShape::kK;
    }
};

/// Loads a kK × ThreadblockShape::kN tile of row-major B (contiguous along n): column thread % kN, k rows
/// thread / kN + s · (kThreads / kN). The column guard at construction; the k guard only for the residue tile.
struct PredicatedTileIteratorB {
    static constexpr int kStride = kThreads / ThreadblockShape::kN;
    static constexpr int kAccesses = ThreadblockShape::kK / kStride;
    using Fragment = Array<float, kAccesses>;
    const float* pointer;
    int ld;
    int k_row0;  // this thread's first k within a tile
    bool column_valid;
    int k_extent;

    CUTLASS_DEVICE PredicatedTileIteratorB(const float* B, int cols, int block_col, int thread_id, int residue)
        : pointer(B), ld(cols), k_row0(thread_id / ThreadblockShape::kN),
          column_valid(block_col + thread_id % ThreadblockShape::kN < cols), k_extent(residue) {
        pointer += static_cast<long long>(k_row0) * cols + block_col + thread_id % ThreadblockShape::kN;
    }
    CUTLASS_DEVICE void load(Fragment& frag) const {
#pragma unroll
        for (int s = 0; s < kAccesses; ++s)
            frag[s] = column_valid && k_row0 + s * kStride < k_extent
                          ? pointer[static_cast<long long>(s) * kStride * ld]
                          : 0.0f;
    }
    CUTLASS_DEVICE void operator++() {
        pointer += static_cast<long long>(k_extent) * ld;
        k_extent = ThreadblockShape::kK;
    }
};

/// The warp-level SIMT MMA: accum += A_frag ⊗ B_frag for one k (CUTLASS's warp::MmaSimt with its thread::Mma).
struct MmaSimt {
    using FragmentA = Array<float, Iterations::kRow * LaneMmaShape::kM>;
    using FragmentB = Array<float, Iterations::kColumn * LaneMmaShape::kN>;
    using FragmentC = Array<float, FragmentA::kElements * FragmentB::kElements>;
    CUTLASS_DEVICE void operator()(FragmentC& accum, const FragmentA& a, const FragmentB& b) const {
#pragma unroll
        for (int m = 0; m < FragmentA::kElements; ++m)
#pragma unroll
            for (int n = 0; n < FragmentB::kElements; ++n) accum[m * FragmentB::kElements + n] += a[m] * b[n];
    }
};

}  // namespace simt

__global__ void matmul_register_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    using namespace simt;
    // Shared storage: two stages; A column-major (k-major), B row-major.
    __shared__ float smem_A[2][ThreadblockShape::kK][ThreadblockShape::kM];
    __shared__ float smem_B[2][ThreadblockShape::kK][ThreadblockShape::kN];

    const int thread_idx = threadIdx.x;
    const int warp_idx = thread_idx / 32, lane_idx = thread_idx % 32;
    const int block_row = blockIdx.y * ThreadblockShape::kM, block_col = blockIdx.x * ThreadblockShape::kN;

    // The lane's place in the 4 × 8 lane layout, RowMajorInterleaved<2>.
    const int lane_m = (lane_idx / (2 * LaneLayout::kColumn)) * 2 + lane_idx % 2;
    const int lane_n = (lane_idx % (2 * LaneLayout::kColumn)) / 2;
    const int warp_m = (warp_idx / kWarpCountN) * WarpShape::kM;
    const int warp_n = (warp_idx % kWarpCountN) * WarpShape::kN;

    // The residue k-tile comes first: the rest are whole.
    const int residue = inner % ThreadblockShape::kK == 0 ? ThreadblockShape::kK : inner % ThreadblockShape::kK;
    const int gemm_k_iterations = (inner + ThreadblockShape::kK - 1) / ThreadblockShape::kK;

    PredicatedTileIteratorA iterator_A(M, rows, inner, block_row, thread_idx, residue);
    PredicatedTileIteratorB iterator_B(N, cols, block_col, thread_idx, residue);
    PredicatedTileIteratorA::Fragment tb_frag_A;
    PredicatedTileIteratorB::Fragment tb_frag_B;

    auto store_stage = [&](int stage) {
#pragma unroll
        for (int s = 0; s < PredicatedTileIteratorA::kAccesses; ++s)
            smem_A[stage][iterator_A.k_column][iterator_A.row0 + s * PredicatedTileIteratorA::kStride] = tb_frag_A[s];
#pragma unroll
        for (int s = 0; s < PredicatedTileIteratorB::kAccesses; ++s)
            smem_B[stage][iterator_B.k_row0 + s * PredicatedTileIteratorB::kStride][thread_idx % ThreadblockShape::kN] =
                tb_frag_B[s];
    };

    MmaSimt mma;
    MmaSimt::FragmentC accum;
    accum.clear();
    MmaSimt::FragmentA warp_frag_A;
    MmaSimt::FragmentB warp_frag_B;

    // Prologue: the first (residue) tile into stage 0.
    iterator_A.load(tb_frag_A);
    iterator_B.load(tb_frag_B);
    ++iterator_A;
    ++iterator_B;
    store_stage(0);
    __syncthreads();

    int smem_read_stage = 0;
    for (int k_iter = 0; k_iter < gemm_k_iterations; ++k_iter) {
        const bool has_next = k_iter + 1 < gemm_k_iterations;
        // Global loads of the next tile, in flight while this one is multiplied.
        if (has_next) {
            iterator_A.load(tb_frag_A);
            iterator_B.load(tb_frag_B);
            ++iterator_A;
            ++iterator_B;
        }
#pragma unroll
        for (int warp_mma_k = 0; warp_mma_k < WarpShape::kK; ++warp_mma_k) {
#pragma unroll
            for (int i = 0; i < Iterations::kRow; ++i)
#pragma unroll
                for (int e = 0; e < LaneMmaShape::kM; ++e)
                    warp_frag_A[i * LaneMmaShape::kM + e] =
                        smem_A[smem_read_stage][warp_mma_k]
                              [warp_m + i * LaneLayout::kRow * LaneMmaShape::kM + lane_m * LaneMmaShape::kM + e];
#pragma unroll
            for (int j = 0; j < Iterations::kColumn; ++j)
#pragma unroll
                for (int e = 0; e < LaneMmaShape::kN; ++e)
                    warp_frag_B[j * LaneMmaShape::kN + e] =
                        smem_B[smem_read_stage][warp_mma_k]
                              [warp_n + j * LaneLayout::kColumn * LaneMmaShape::kN + lane_n * LaneMmaShape::kN + e];
            mma(accum, warp_frag_A, warp_frag_B);
        }
        if (has_next) {
            store_stage(smem_read_stage ^ 1);
            __syncthreads();
            smem_read_stage ^= 1;
        }
    }

    // Epilogue: predicated stores of the lane's 8 × 8 outputs.
#pragma unroll
    for (int m = 0; m < MmaSimt::FragmentA::kElements; ++m) {
        const int i = m / LaneMmaShape::kM, e = m % LaneMmaShape::kM;
        const int row = block_row + warp_m + i * LaneLayout::kRow * LaneMmaShape::kM + lane_m * LaneMmaShape::kM + e;
        if (row >= rows) continue;
#pragma unroll
        for (int n = 0; n < MmaSimt::FragmentB::kElements; ++n) {
            const int j = n / LaneMmaShape::kN, f = n % LaneMmaShape::kN;
            const int col = block_col + warp_n + j * LaneLayout::kColumn * LaneMmaShape::kN + lane_n * LaneMmaShape::kN + f;
            if (col < cols) P[static_cast<long long>(row) * cols + col] = accum[m * MmaSimt::FragmentB::kElements + n];
        }
    }
}

void matmul_register_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 grid((cols + simt::ThreadblockShape::kN - 1) / simt::ThreadblockShape::kN,
                    (rows + simt::ThreadblockShape::kM - 1) / simt::ThreadblockShape::kM);
    matmul_register_tiled_kernel<<<grid, simt::kThreads>>>(M, N, P, rows, inner, cols);
}
