// Lab 04's lab 03 kernel: the kit's model answer (solutions/03_tiled_boundary/kernel.cu), built into the kit under
// the contract's names so that a student's matmul_timed links against it, and instrumented to record its
// launches (tilelab/kernel_record.hpp) in memory of its own that the runner reads back after each call.
//
// The model answer is copied below, verbatim but for its kernel's name and kind: a __device__ function, the body
// the recording kernel runs. A copy, so that a kit shipped without solutions/ (Gradescope) builds lab 04; the
// self-test selftest.lab04-kernel-is-the-model fails when it drifts from solutions/03_tiled_boundary/kernel.cu. One
// file, so that the CPU backend's rewrite reaches all of it (it does not follow #include).
#include <tilelab/cuda_check.hpp>
#include <tilelab/gate_data.hpp>
#include <tilelab/kernel_record.hpp>
#include <tilelab/labs.hpp>

#include <cstring>

#include "lab04_record.hpp"

__device__ void tilelab_lab03_model_body(const float* M, const float* N, float* P, int rows, int inner, int cols);

// --- begin: solutions/03_tiled_boundary/kernel.cu, its kernel renamed ---
/// @file solutions/03_tiled_boundary/kernel.cu
/// @brief Lab 03 model answer: the tiled kernel for any shape, with partial tiles zero-filled.
#include <tilelab/labs.hpp>

/// Computes one TILE_WIDTH × TILE_WIDTH tile of P for any rows, inner and cols. Tile elements that fall
/// outside M or N are loaded as 0.0f, so they add nothing to the sum; threads outside P still load and
/// still reach both barriers, and only skip the final store.
__device__ void tilelab_lab03_model_body(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {
    __shared__ float M_tile[TILE_WIDTH][TILE_WIDTH];
    __shared__ float N_tile[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;

    float sum = 0.0f;
    const int phases = (inner + TILE_WIDTH - 1) / TILE_WIDTH;  // the last phase may cover a partial tile
    for (int phase = 0; phase < phases; ++phase) {
        const int m_col = phase * TILE_WIDTH + tx;
        const int n_row = phase * TILE_WIDTH + ty;
        M_tile[ty][tx] = (row < rows && m_col < inner) ? M[row * inner + m_col] : 0.0f;
        N_tile[ty][tx] = (n_row < inner && col < cols) ? N[n_row * cols + col] : 0.0f;
        __syncthreads();  // the tiles are complete before any thread reads them

        for (int k = 0; k < TILE_WIDTH; ++k) sum += M_tile[ty][k] * N_tile[k][tx];
        __syncthreads();  // every thread is done with the tiles before the next phase overwrites them
    }
    if (row < rows && col < cols) P[row * cols + col] = sum;
}

/// Launches one block per tile of P, rounding up so that partial tiles get a block too.
void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
// --- end: solutions/03_tiled_boundary/kernel.cu ---

namespace {

// The record: device memory the kernel writes, which the student's code has no name for.
__device__ tilelab::KernelRecord tilelab_lab04_record;

// Adds to a counter of the record from many threads at once.
__device__ void tilelab_lab04_count(unsigned long long* counter) {
    atomicAdd(counter, 1ull);
}

}  // namespace

/// The model kernel, which also records that it ran: thread 0 of each block counts the block, thread 0 of
/// block 0 the launch, its grid, block, pointers and sizes; the threads of P's first and last elements (the
/// contract's mapping: x over columns, y over rows) the values they stored.
__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    tilelab::KernelRecord& record = tilelab_lab04_record;
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
        tilelab_lab04_count(reinterpret_cast<unsigned long long*>(&record.blocks));
        if (blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0) {
            tilelab_lab04_count(reinterpret_cast<unsigned long long*>(&record.launches));
            record.grid[0] = gridDim.x, record.grid[1] = gridDim.y, record.grid[2] = gridDim.z;
            record.block[0] = blockDim.x, record.block[1] = blockDim.y, record.block[2] = blockDim.z;
            record.M = reinterpret_cast<unsigned long long>(M);
            record.N = reinterpret_cast<unsigned long long>(N);
            record.P = reinterpret_cast<unsigned long long>(P);
            record.rows = rows, record.inner = inner, record.cols = cols;
        }
    }
#ifdef TILELAB_CPU_BACKEND
    // The CPU backend's evidence for operands in managed or pinned memory (timed_evidence.cpp), whose contents reach
    // the device with no copy the runtime could trace: digests of the M and N this launch read, taken by thread 0 of
    // block 0 before any thread loads them, which the checker recomputes from its own M and N. (In the kernel, not
    // a __device__ helper: the CPU backend's rewrite turns a helper's pointers into its own kind; the raw parameters
    // (tools/tilelab_cuda_to_cpp), since the kit's own reads are no kernel's.) Not on a GPU: one
    // thread reading all of M and N would change the time lab 04 measures.
    const bool first_thread = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
    if (first_thread && blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0 && rows > 0 && inner > 0 && cols > 0) {
        record.M_digest = tilelab::gate::digest(tilelab_raw_M, static_cast<std::uint64_t>(rows) * inner);
        record.N_digest = tilelab::gate::digest(tilelab_raw_N, static_cast<std::uint64_t>(inner) * cols);
    }
#endif
    tilelab_lab03_model_body(M, N, P, rows, inner, cols);
#ifdef TILELAB_CPU_BACKEND
    // ... and the digest of the whole P this launch wrote, taken by the block that finishes last (the one whose count
    // completes the grid), which the checker compares with the P it got back: the host's P is the kernel's, every
    // element. Launches run one after another, so the counter is back at 0 for the next.
    __syncthreads();  // every thread of this block has stored its element of P
    if (first_thread && atomicAdd(reinterpret_cast<unsigned long long*>(&record.blocks_digested), 1ull) + 1 ==
                            static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z) {
        record.blocks_digested = 0;
        // The raw parameter (tools/tilelab_cuda_to_cpp): the kit's own read of every block's P is no kernel's.
        record.P_digest =
            rows > 0 && cols > 0 ? tilelab::gate::digest(tilelab_raw_P, static_cast<std::uint64_t>(rows) * cols) : 0;
        record.digested = 1;
    }
#endif
    const long long row = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y;
    const long long col = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (threadIdx.z != 0 || blockIdx.z != 0 || rows <= 0 || cols <= 0) return;
    if (row == 0 && col == 0) {
        record.first = P[0];  // this thread's own store: visible to it
        record.first_written = 1;
    }
    if (row == rows - 1 && col == cols - 1) {
        record.last = P[static_cast<long long>(rows) * cols - 1];
        record.last_written = 1;
    }
}

void tilelab::runner::reset_lab04_record() {
    const tilelab::KernelRecord zero{};
#ifdef TILELAB_CPU_BACKEND
    tilelab_lab04_record = zero;
#else
    TILELAB_CUDA_CHECK(cudaMemcpyToSymbol(tilelab_lab04_record, &zero, sizeof zero));
#endif
}

tilelab::KernelRecord tilelab::runner::read_lab04_record() {
    tilelab::KernelRecord record{};
#ifdef TILELAB_CPU_BACKEND
    std::memcpy(&record, &tilelab_lab04_record, sizeof record);
#else
    TILELAB_CUDA_CHECK(cudaMemcpyFromSymbol(&record, tilelab_lab04_record, sizeof record));
#endif
    return record;
}
