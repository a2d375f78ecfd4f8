// The warp matrix functions of <mma.h> on the CPU backend (TF32, m16n16k8): a rendezvous of the warp's lanes, CUDA's
// rules on ldm and alignment, each lane's element accesses checked as element accesses are, and the warp's product
// computed once when the lanes meet. See common/cpu/include/mma.h for the semantics.
#include <tilelab/cpu/output_reads.hpp>
#include <tilelab/cpu/emulator.hpp>
#include <tilelab/cpu/warp.hpp>
#include <tilelab/cpu/wmma.hpp>

#include "runtime_state.hpp"

#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>

namespace tilelab::cpu::detail {

thread_local const MatrixCallSite* running_matrix_call = nullptr;

namespace {

constexpr unsigned lanes_per_warp = 32;

// Which element of a tile each lane's x[e] holds: for q = 32 e + lane, the tile's element p (row by row) with
// q = (37 p + 11) mod size. 37 is odd, so this is a permutation of a power-of-two size.
struct Mapping {
    int rows = 0, columns = 0, per_lane = 0;
    std::uint8_t row[256] = {}, column[256] = {};
};

constexpr Mapping make_mapping(int rows, int columns) {
    Mapping m;
    m.rows = rows;
    m.columns = columns;
    const int size = rows * columns;
    m.per_lane = size / static_cast<int>(lanes_per_warp);
    for (int p = 0; p < size; ++p) {
        const int q = (37 * p + 11) % size;
        m.row[q] = static_cast<std::uint8_t>(p / columns);
        m.column[q] = static_cast<std::uint8_t>(p % columns);
    }
    return m;
}

constexpr Mapping a_tile = make_mapping(16, 8);
constexpr Mapping b_tile = make_mapping(8, 16);
constexpr Mapping c_tile = make_mapping(16, 16);

const Mapping& mapping_of(MatrixFunction function) {
    switch (function) {
        case MatrixFunction::load_a: return a_tile;
        case MatrixFunction::load_b: return b_tile;
        default: return c_tile;
    }
}

const char* name_of(MatrixFunction function) {
    switch (function) {
        case MatrixFunction::store: return "store_matrix_sync";
        case MatrixFunction::mma: return "mma_sync";
        default: return "load_matrix_sync";
    }
}

std::uint32_t bits_of(float value) noexcept {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

float from_bits(std::uint32_t bits) noexcept {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

constexpr std::uint32_t exponent_mask = 0x7F800000u;
constexpr std::uint32_t low_bits = 0x00001FFFu;  // the 13 mantissa bits TF32 does not have

// The warp's d = a b + c, once all its lanes are at one mma_sync (WarpCollective::run): gathers the tiles from the
// lanes' fragments, multiplies, and gives each lane its elements of d (d may be c: everything is read first).
void multiply(void* const lanes[32]) {
    float a[16][8], b[8][16], c[16][16];
    for (unsigned lane = 0; lane < lanes_per_warp; ++lane) {
        const auto& o = *static_cast<const MatrixOperands*>(lanes[lane]);
        for (int e = 0; e < a_tile.per_lane; ++e) {
            const unsigned q = 32u * static_cast<unsigned>(e) + lane;
            // The technique checks' probe replaces operands as the instruction takes them, never in the fragments.
            a[a_tile.row[q]][a_tile.column[q]] = tf32_operand(operand_probe_on ? probe_mma_operand(o.a[e]) : o.a[e]);
            b[b_tile.row[q]][b_tile.column[q]] = tf32_operand(operand_probe_on ? probe_mma_operand(o.b[e]) : o.b[e]);
        }
        for (int e = 0; e < c_tile.per_lane; ++e) {
            const unsigned q = 32u * static_cast<unsigned>(e) + lane;
            c[c_tile.row[q]][c_tile.column[q]] = o.c[e];
        }
    }
    if (operand_probe_on) probe_tensor_core(&a[0][0], &b[0][0], 16, 8, 16);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            float sum = c[i][j];
            for (int k = 0; k < 8; ++k) sum += a[i][k] * b[k][j];  // the product is exact: one rounding per addition
            c[i][j] = sum;
        }
    for (unsigned lane = 0; lane < lanes_per_warp; ++lane) {
        const auto& o = *static_cast<const MatrixOperands*>(lanes[lane]);
        for (int e = 0; e < c_tile.per_lane; ++e) {
            const unsigned q = 32u * static_cast<unsigned>(e) + lane;
            o.fragment[e] = c[c_tile.row[q]][c_tile.column[q]];
        }
    }
}

// The running thread's linear index in its block.
unsigned linear_thread() {
    const uint3& t = thread_index();
    const dim3& b = block_dim();
    return t.x + b.x * (t.y + b.y * t.z);
}

std::string short_path(const char* file) {
    std::string path = file ? file : "?";
    std::size_t cut = path.rfind('/');
    if (cut != std::string::npos && cut > 0) cut = path.rfind('/', cut - 1);
    return cut == std::string::npos ? path : path.substr(cut + 1);
}

std::string call_site(MatrixFunction function, const char* file, int line) {
    return std::string(name_of(function)) + " at " + short_path(file) + ":" + std::to_string(line);
}

// "As[0][8]", "M[40], row 0, column 40 of M (a 64x64 matrix)" (a matrix the kit's runner named), "float index 40 of a
// device buffer of 4096 floats" or "address 0x...": where @p address is.
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

std::string arguments_of(MatrixFunction function, const std::uint64_t key[3]) {
    if (function == MatrixFunction::mma) return "its fragments";
    return "a pointer to " + place_of(reinterpret_cast<const void*>(static_cast<std::uintptr_t>(key[0]))) +
           " with ldm " + std::to_string(key[1]) + ((key[2] >> 8 & 1u) ? " (column major)" : " (row major)");
}

// Lanes that met at one call with different arguments (WarpCollective::differs): the kernel's fault.
[[noreturn]] void report_different_arguments(const MatrixOperands& o, const WarpCollective& met, const char* file,
                                             int line) {
    kernel_fault(cudaErrorTileLabBarrierDivergence, "warp divergence",
                 call_site(o.function, file, line) + " is a warp matrix function, which all 32 lanes of a warp call "
                 "together with the same arguments, but lane " + std::to_string(met.first) + " of this thread's warp "
                 "gave " + arguments_of(o.function, met.first_key) + " and lane " + std::to_string(met.differs) +
                 " gave " + arguments_of(o.function, met.differs_key) + ". One call moves one tile for the whole "
                 "warp (each lane holds a part of it): compute its pointer and ldm from what is the same for every "
                 "lane of the warp (the warp's index threadIdx.x / 32, the tile's row and column), not from the "
                 "thread's own index");
}

// CUDA's rules for a load's or store's arguments (the programming guide, load_matrix_sync): ldm a multiple of 16
// bytes, the pointer 256-bit aligned.
void check_rules(const MatrixOperands& o, const char* file, int line) {
    // Named only for a fault's message: building it on every call was a tenth of lab 09's emulated time.
    const auto call = [&] { return call_site(o.function, file, line); };
    if (o.ldm % 4 != 0)
        kernel_fault(cudaErrorMisalignedAddress, "misaligned address",
                     call() + " was given ldm " + std::to_string(o.ldm) + ", which is not a multiple of 4: CUDA "
                     "requires ldm, the distance in elements between the starts of consecutive rows (row major) or "
                     "columns (column major), to be a multiple of 4 elements (16 bytes) for float and tf32 matrices "
                     "(cudaErrorMisalignedAddress: misaligned address)\n  hint: give a shared tile rows whose length "
                     "is a multiple of 4 floats (float tile[16][20] has ldm 20); in global memory ldm is the matrix's "
                     "row length, so stage a matrix whose row length is not a multiple of 4 through shared memory");
    // Counted from the start of the buffer (cudaMalloc aligns it to 256 bytes) or of the __shared__ array (a GPU
    // may place it at any 32-byte boundary), so that the verdict does not depend on where the emulator put it.
    std::size_t from_start = reinterpret_cast<std::uintptr_t>(o.memory);
    std::size_t offset = 0;
    const unsigned char* start = nullptr;
    std::size_t bytes = 0;
    if (shared_offset_of(o.memory, &offset))
        from_start = offset - shared_array_start(offset);
    else if (device_allocation_of(o.memory, &start, &bytes))
        from_start = static_cast<std::size_t>(reinterpret_cast<const unsigned char*>(o.memory) - start);
    if (from_start % 32 != 0)
        kernel_fault(cudaErrorMisalignedAddress, "misaligned address",
                     call() + " was given a pointer to " + place_of(o.memory) + ", which is " +
                         std::to_string(from_start % 32) + " bytes past a 32-byte boundary: CUDA requires the "
                         "matrix's first element to be 256-bit (32-byte) aligned (cudaErrorMisalignedAddress: "
                         "misaligned address)\n  hint: start each fragment's tile at a column that is a multiple of "
                         "8 floats, in rows whose length (ldm) is a multiple of 4, counted from the start of the "
                         "array or buffer");
}

// Marks the running thread's accesses as those of a warp matrix function, for a race they run into.
class InMatrixCall {
public:
    explicit InMatrixCall(const MatrixCallSite* site) noexcept { running_matrix_call = site; }
    ~InMatrixCall() { running_matrix_call = nullptr; }
    InMatrixCall(const InMatrixCall&) = delete;
    InMatrixCall& operator=(const InMatrixCall&) = delete;
};

// This lane's loads or stores of its elements of the tile, each checked as an element access.
void move_elements(const MatrixOperands& o, unsigned lane, const char* file, int line) {
    const Mapping& m = mapping_of(o.function);
    const bool write = o.function == MatrixFunction::store;
    std::size_t offset = 0;
    const bool shared = shared_offset_of(o.memory, &offset);
    const unsigned char* start = nullptr;
    std::size_t bytes = 0;
    const bool device = !shared && device_allocation_of(o.memory, &start, &bytes);
    const MatrixCallSite site{name_of(o.function), file, line};
    const InMatrixCall marked(&site);
    for (int e = 0; e < m.per_lane; ++e) {
        const unsigned q = 32u * static_cast<unsigned>(e) + lane;
        const std::size_t row = m.row[q], column = m.column[q];
        float* element = o.memory + (o.column_major ? column * o.ldm + row : row * o.ldm + column);
        const auto* byte = reinterpret_cast<const unsigned char*>(element);
        if (device && (byte < start || byte + sizeof(float) > start + bytes)) {
            const std::ptrdiff_t first = reinterpret_cast<const unsigned char*>(o.memory) - start;
            note_fault_site(byte, write);
            char tile_start[256], outside[256];
            // In the kit's M, N or P, the elements as the student counts them; else counted from the buffer's start.
            const bool named = describe_named_element(o.memory, tile_start, sizeof tile_start) &&
                               describe_named_element(byte, outside, sizeof outside);
            const std::string where =
                named ? std::string(" tile starting at ") + tile_start + " (ldm " + std::to_string(o.ldm) +
                            (o.column_major ? ", column major" : ", row major") + "), and its element (row " +
                            std::to_string(row) + ", column " + std::to_string(column) + " of the tile), " + outside +
                            ", lies outside the matrix "
                      : " tile starting at float index " + std::to_string(first / 4) + " (ldm " +
                            std::to_string(o.ldm) + (o.column_major ? ", column major" : ", row major") +
                            ") of a device buffer of " + std::to_string(bytes / 4) + " floats, and its element (row " +
                            std::to_string(row) + ", column " + std::to_string(column) + "), float index " +
                            std::to_string((byte - start) / 4) + ", lies outside the buffer ";
            kernel_fault(cudaErrorIllegalAddress, "illegal memory access",
                         call_site(o.function, file, line) + (write ? " writes" : " reads") + " the " +
                             std::to_string(m.rows) + " x " + std::to_string(m.columns) + where +
                             "(cudaErrorIllegalAddress: an illegal memory access was encountered; out-of-bounds " +
                             (write ? "write" : "read") + ")\n  hint: load_matrix_sync and store_matrix_sync move "
                             "the whole tile: at the edge of a matrix whose size is not a multiple of 16, stage the "
                             "tile through shared memory (zeros outside the matrix) and store the edge tile's "
                             "elements one by one, with a bounds test");
        }
        if (shared) {
            std::size_t at = 0;
            if (!shared_offset_of(element, &at))
                kernel_fault(cudaErrorIllegalAddress, "illegal memory access",
                             call_site(o.function, file, line) + "'s tile, starting at " + place_of(o.memory) +
                                 " with ldm " + std::to_string(o.ldm) + ", runs past the end of shared memory");
            note_shared_access(element, sizeof(float), write);
        } else if (output_tracked) {
            note_output_access(element, sizeof(float), write ? OutputAccess::write : OutputAccess::read);
        }
        if (write) {
            // An accumulator's element is a result: the probe never takes it for an operand (operand_probe.hpp).
            const float value = o.fragment[e];
            *element = !shared ? value : operand_probe_on ? probe_result_stored(value) : scaled_for_shared(value);
        } else {
            o.fragment[e] = *element;
            if (operand_probe_on) probe_shared_read(element, sizeof(float));  // operand_probe.hpp (global too)
        }
    }
}

}  // namespace

float float_to_tf32(float value) noexcept {
    const std::uint32_t bits = bits_of(value);
    if ((bits & exponent_mask) == exponent_mask) return (bits & 0x007FFFFFu) ? from_bits(bits | 0x00400000u) : value;
    // Half of TF32's last place added to the magnitude, then the low bits dropped: to nearest, ties away from zero
    // (a carry into the exponent is right too, up to infinity).
    return from_bits((bits + 0x00001000u) & ~low_bits);
}

float tf32_operand(float value) noexcept {
    const std::uint32_t bits = bits_of(value);
    if ((bits & exponent_mask) == exponent_mask && (bits & 0x007FFFFFu) != 0) return from_bits(bits | 0x00400000u);
    return from_bits(bits & ~low_bits);
}

void warp_matrix(const MatrixOperands& operands, const char* file, int line) {
    const unsigned linear = linear_thread();
    const unsigned lane = linear % lanes_per_warp;
    if (active_lanes() != 0xFFFFFFFFu) {
        const dim3& b = block_dim();
        const unsigned threads = b.x * b.y * b.z;
        kernel_fault(cudaErrorTileLabBarrierDivergence, "warp divergence",
                     call_site(operands.function, file, line) + " was called by warp " +
                         std::to_string(linear / lanes_per_warp) + ", which has only " +
                         std::to_string(threads - linear / lanes_per_warp * lanes_per_warp) + " lanes: the block has " +
                         std::to_string(threads) + " threads, not a multiple of 32. The warp matrix functions need "
                         "all 32 lanes of a warp: give the block a multiple of 32 threads");
    }
    const bool moves = operands.function != MatrixFunction::mma;
    WarpCollective collective{
        {moves ? static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(operands.memory)) : 0,
         moves ? operands.ldm : 0,
         static_cast<std::uint64_t>(operands.function) | static_cast<std::uint64_t>(operands.column_major) << 8},
        const_cast<MatrixOperands*>(&operands), moves ? nullptr : &multiply};
    warp_call(WarpCall{file, line, name_of(operands.function), 0xFFFFFFFFu, WarpOp::matrix, false, 0, 0, 32, 0,
                       &collective});
    if (collective.differs >= 0) report_different_arguments(operands, collective, file, line);
    if (!moves) return;
    check_rules(operands, file, line);
    move_elements(operands, lane, file, line);
}

}  // namespace tilelab::cpu::detail
