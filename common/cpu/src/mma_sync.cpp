// tilelab/mma.hpp on the CPU backend: mma.sync.m16n8k8 with TF32 operands and ldmatrix, as warp calls whose work
// is done once when the warp's 32 lanes meet, with the PTX ISA's lane-to-element mapping (tilelab/mma.hpp's table).
// See tilelab/cpu/mma_sync.hpp for what is emulated and checked.
#include <tilelab/cpu/emulator.hpp>
#include <tilelab/cpu/mma_sync.hpp>
#include <tilelab/cpu/warp.hpp>
#include <tilelab/cpu/wmma.hpp>

#include "runtime_state.hpp"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>

namespace tilelab::cpu {
namespace {
std::atomic<unsigned long long> multiply_adds{0};
}  // namespace

unsigned long long mma_sync_multiply_adds() noexcept { return multiply_adds.load(); }

namespace detail {
namespace {

constexpr unsigned lanes_per_warp = 32;
constexpr unsigned row_bytes = 16;  // a row of an ldmatrix matrix: 8 16-bit or 4 32-bit elements

// What the lanes agree on, so that two different wrappers called on one line do not meet.
enum class Kind : std::uint64_t { mma = 1, ldmatrix = 2 };

const char* const mma_name = "tilelab::mma_m16n8k8_tf32";

const char* ldmatrix_name(int matrices) {
    return matrices == 4 ? "tilelab::ldmatrix_x4" : "tilelab::ldmatrix_x2";
}

std::string short_path(const char* file) {
    std::string path = file ? file : "?";
    std::size_t cut = path.rfind('/');
    if (cut != std::string::npos && cut > 0) cut = path.rfind('/', cut - 1);
    return cut == std::string::npos ? path : path.substr(cut + 1);
}

std::string call_site(const char* name, const char* file, int line) {
    return std::string(name) + " at " + short_path(file) + ":" + std::to_string(line);
}

// The running thread's lane and whether its whole warp exists (a warp call needs all 32 lanes).
unsigned lane_of_running_thread(const char* name, const char* file, int line) {
    const uint3& t = thread_index();
    const dim3& b = block_dim();
    const unsigned linear = t.x + b.x * (t.y + b.y * t.z);
    if (active_lanes() != 0xFFFFFFFFu) {
        const unsigned threads = b.x * b.y * b.z;
        kernel_fault(cudaErrorTileLabBarrierDivergence, "warp divergence",
                     call_site(name, file, line) + " was called by warp " + std::to_string(linear / lanes_per_warp) +
                         ", which has only " + std::to_string(threads - linear / lanes_per_warp * lanes_per_warp) +
                         " lanes: the block has " + std::to_string(threads) + " threads, not a multiple of 32. "
                         "mma.sync and ldmatrix are executed by all 32 lanes of a warp at once: give the block a "
                         "multiple of 32 threads");
    }
    return linear % lanes_per_warp;
}

// ---------------------------------------------------------------------------------------------------------------
// mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32

struct MmaOperands {
    float* accumulator;  // c[0..3] in, d[0..3] out
    const float* a;      // a[0..3]
    const float* b;      // b[0..1]
};

// The warp's D = A B + C once its lanes met: lane l = 4 g + t holds A(g, t), A(g + 8, t), A(g, t + 4),
// A(g + 8, t + 4); B(t, g), B(t + 4, g); C(g, 2t), C(g, 2t + 1), C(g + 8, 2t), C(g + 8, 2t + 1) (PTX ISA, "Matrix
// Fragments for mma.m16n8k8", .tf32). Everything is gathered before any lane's accumulator is written.
void multiply(void* const lanes[32]) {
    float a[16][8], b[8][8], c[16][8];
    for (unsigned lane = 0; lane < lanes_per_warp; ++lane) {
        const auto& o = *static_cast<const MmaOperands*>(lanes[lane]);
        const unsigned g = lane / 4, t = lane % 4;
        // The technique check's probe (operand_probe.hpp) sees the operands as they enter the instruction.
        const auto in = [](float value) { return tf32_operand(operand_probe_on ? probe_mma_operand(value) : value); };
        a[g][t] = in(o.a[0]);
        a[g + 8][t] = in(o.a[1]);
        a[g][t + 4] = in(o.a[2]);
        a[g + 8][t + 4] = in(o.a[3]);
        b[t][g] = in(o.b[0]);
        b[t + 4][g] = in(o.b[1]);
        c[g][2 * t] = o.accumulator[0];
        c[g][2 * t + 1] = o.accumulator[1];
        c[g + 8][2 * t] = o.accumulator[2];
        c[g + 8][2 * t + 1] = o.accumulator[3];
    }
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 8; ++j) {
            float sum = c[i][j];
            for (int k = 0; k < 8; ++k) sum += a[i][k] * b[k][j];  // the product is exact: one rounding per addition
            c[i][j] = sum;
        }
    for (unsigned lane = 0; lane < lanes_per_warp; ++lane) {
        const auto& o = *static_cast<const MmaOperands*>(lanes[lane]);
        const unsigned g = lane / 4, t = lane % 4;
        o.accumulator[0] = c[g][2 * t];
        o.accumulator[1] = c[g][2 * t + 1];
        o.accumulator[2] = c[g + 8][2 * t];
        o.accumulator[3] = c[g + 8][2 * t + 1];
    }
    multiply_adds.fetch_add(16 * 8 * 8, std::memory_order_relaxed);
    if (operand_probe_on) probe_tensor_core(&a[0][0], &b[0][0], 16, 8, 8, true);
}

// ---------------------------------------------------------------------------------------------------------------
// ldmatrix.sync.aligned.m8n8.{x2,x4}.shared.b16, read as 8 x 4 matrices of 32-bit elements

struct LoadOperands {
    const unsigned char* row;      // the address this lane gives
    int matrices;                  // 2 or 4
    const unsigned char* from[4];  // set at the meeting: where each of this lane's elements is
    float value[4];                // ... and its value there, read at the meeting
};

// The warp's load once its lanes met: lane l receives, of matrix j, word l % 4 of the row that lane 8 j + l / 4
// gave (each giving lane checked its row before the meeting). The values are read here, all at once, as the one
// instruction does; each lane's reads are then checked as its own when it runs on.
void gather(void* const lanes[32]) {
    const int matrices = static_cast<const LoadOperands*>(lanes[0])->matrices;
    for (unsigned lane = 0; lane < lanes_per_warp; ++lane) {
        auto& o = *static_cast<LoadOperands*>(lanes[lane]);
        for (int j = 0; j < matrices; ++j) {
            const auto& giver = *static_cast<const LoadOperands*>(lanes[8u * static_cast<unsigned>(j) + lane / 4]);
            o.from[j] = giver.row + 4 * (lane % 4);
            std::memcpy(&o.value[j], o.from[j], sizeof(float));
        }
    }
}

// "M_tile[0][3][2]", "M[40], row 0, column 40 of M (a 64x64 matrix)" (a matrix the kit's runner named), "float
// index 40 of a device buffer of 4096 floats" or "address 0x...": where @p address is.
std::string place_of(const void* address) {
    std::size_t offset = 0;
    if (shared_offset_of(address, &offset)) return shared_element_name(offset);
    const unsigned char* start = nullptr;
    std::size_t bytes = 0;
    if (char named[256]; describe_named_element(address, named, sizeof named)) return named;  // M, N or P
    if (device_allocation_of(address, &start, &bytes)) {
        const std::ptrdiff_t at = static_cast<const unsigned char*>(address) - start;
        return "float index " + std::to_string(at / 4) + " of a device buffer of " + std::to_string(bytes / 4) +
               " floats";
    }
    std::ostringstream text;
    text << "address " << address;
    return text.str();
}

// The running lane's row for a load of @p matrices at @p file : @p line: 16 bytes in the block's shared memory,
// 16-byte aligned from the start of its __shared__ array (a GPU may place an array at any 16-byte boundary: the
// verdict must not depend on where the emulator put it); otherwise the kernel stops, naming the lane and the row.
void check_row(const unsigned char* row, int matrices, unsigned lane, const char* name, const char* file, int line) {
    std::size_t offset = 0, last = 0;
    const bool shared = shared_offset_of(row, &offset) && shared_offset_of(row + row_bytes - 1, &last);
    const std::size_t misaligned = shared ? (offset - shared_array_start(offset)) % row_bytes : 0;
    if (shared && misaligned == 0) return;
    const std::string who = call_site(name, file, line) + ": lane " + std::to_string(lane) + " of its warp gave " +
                            place_of(row);
    const std::string rows = "each of lanes 0 to " + std::to_string(8 * matrices - 1) +
                             " gives the address of one row of four floats (lane 8j + i: row i of matrix j)";
    if (!shared)
        kernel_fault(cudaErrorIllegalAddress, "illegal memory access",
                     who + ", which is not 16 bytes of shared memory: ldmatrix reads shared memory only, and " +
                         rows + " (cudaErrorIllegalAddress: an illegal memory access was encountered)\n  hint: stage "
                         "the tile in a __shared__ array first (an asynchronous copy, as in lab 08), then give "
                         "&tile[row][column] of that array");
    kernel_fault(cudaErrorMisalignedAddress, "misaligned address",
                 who + ", which is " + std::to_string(misaligned) + " bytes past a 16-byte boundary: " + rows +
                     ", 16-byte aligned (cudaErrorMisalignedAddress: misaligned address)\n  hint: start the rows at "
                     "a column that is a multiple of 4 floats, in a tile whose rows are a multiple of 4 floats long "
                     "(padding included), declared __align__(16)");
}

// Marks the running thread's accesses as the load's, for a race they run into.
class InMatrixCall {
public:
    explicit InMatrixCall(const MatrixCallSite* site) noexcept { running_matrix_call = site; }
    ~InMatrixCall() { running_matrix_call = nullptr; }
    InMatrixCall(const InMatrixCall&) = delete;
    InMatrixCall& operator=(const InMatrixCall&) = delete;
};

}  // namespace

void mma_m16n8k8_tf32(float* accumulator, const float* a, const float* b, const char* file, int line) {
    lane_of_running_thread(mma_name, file, line);
    MmaOperands operands{accumulator, a, b};
    WarpCollective collective{{0, 0, static_cast<std::uint64_t>(Kind::mma)}, &operands, &multiply};
    warp_call(WarpCall{file, line, mma_name, 0xFFFFFFFFu, WarpOp::matrix, false, 0, 0, 32, 0, &collective});
    // Nothing differs between the lanes' keys but the kind, which only another wrapper on the same line changes.
    if (collective.differs >= 0)
        kernel_fault(cudaErrorTileLabBarrierDivergence, "warp divergence",
                     call_site(mma_name, file, line) + " met another warp function called on the same line: put "
                     "each tensor-core call on a line of its own");
}

void ldmatrix(float* fragment, int matrices, const void* row, const char* file, int line) {
    const char* name = ldmatrix_name(matrices);
    const unsigned lane = lane_of_running_thread(name, file, line);
    const auto* bytes = static_cast<const unsigned char*>(row);
    if (lane < 8u * static_cast<unsigned>(matrices)) check_row(bytes, matrices, lane, name, file, line);
    LoadOperands operands{bytes, matrices, {}, {}};
    WarpCollective collective{{0, static_cast<std::uint64_t>(matrices), static_cast<std::uint64_t>(Kind::ldmatrix)},
                              &operands, &gather};
    warp_call(WarpCall{file, line, name, 0xFFFFFFFFu, WarpOp::matrix, false, 0, 0, 32, 0, &collective});
    if (collective.differs >= 0)
        kernel_fault(cudaErrorTileLabBarrierDivergence, "warp divergence",
                     call_site(name, file, line) + " met another warp function called on the same line: put each "
                     "tensor-core call on a line of its own");
    const MatrixCallSite site{name, file, line};
    const InMatrixCall marked(&site);
    for (int j = 0; j < matrices; ++j) {
        note_shared_access(operands.from[j], sizeof(float), false);
        fragment[j] = operands.value[j];
    }
}

}  // namespace detail
}  // namespace tilelab::cpu
