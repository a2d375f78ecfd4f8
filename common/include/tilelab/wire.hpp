/// @file wire.hpp
/// @brief The channel between the checker and a lab's runner: framed messages over two pipes the checker owns.
///
/// The checker (grader/src) holds the inputs, the reference and the verdict; the runner (grader/runner) is the
/// only process that contains a student's code. The checker sends one request at a time and reads one reply;
/// whatever the runner sends is data to be checked, never a verdict. Every frame is a magic number, a byte
/// count and that many bytes; every field inside is read with bounds checks, so garbage fails cleanly.
#pragma once

#include <tilelab/cpu/operand_probe.hpp>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <unistd.h>
#include <vector>

namespace tilelab::wire {

/// First four bytes of every frame ("TLB1").
inline constexpr std::uint32_t frame_magic = 0x31424C54u;
/// The largest frame either side accepts: a 4096² product's P and timings, with room to spare.
inline constexpr std::uint64_t max_frame_bytes = std::uint64_t{1} << 31;

/// What the checker asks the runner to do.
enum class Op : std::uint32_t {
    hello = 1,      ///< Reply: the device's name (or Status::no_device).
    multiply,       ///< Multiply given inputs in guarded device buffers, with the launcher or the contract launch.
    attributes,     ///< Reply: the kernel's shared memory, registers, blocks per multiprocessor, shared accesses.
    perf_launches,  ///< The gate's timed request: the kernel launched once on each operand set of the last perf_fill,
                    ///< a wait, each result's digest (tilelab/gate_data.hpp) and the program's own event time.
    timed,          ///< Lab 04: call matmul_timed on host inputs.
    kernel_time,    ///< Lab 04: the kit's own event timing of the lab 03 kernel on one shape.
    timed_failure,  ///< Lab 04: call matmul_timed on sizes no GPU can hold; free memory before and after.
    free_memory,    ///< Reply: the device's free and total bytes.
    perf_load,      ///< The performance gate's device buffers: a side and a number of operand sets.
    perf_fill,      ///< The gate's operand sets drawn afresh from the checker's seed (tilelab/gate_data.hpp).
    watched_multiply,  ///< CPU backend: a multiply (contract launch) whose reply adds which thread wrote each
                       ///< element of P (OutputWrite records, see below).
    scaled_multiply,   ///< CPU backend: a SharedStoreScale, then a multiply whose kernel runs with every float it
                       ///< stores into shared memory scaled by it (the shared-memory check); multiply's reply.
    pipelined_multiply,  ///< A multiply (contract launch) whose reply adds a SharedArrivals record: how the bytes
                         ///< written into shared memory got there (the pipeline check; zeros but on the CPU backend).
    load_lab,  ///< The runner host (grader/runner/runner_host.cpp): load another lab's module (path, tile width) and
               ///< answer for it from now on; a runner built with its lab answers Status::unsupported.
    perf_keep,  ///< A copy, kept in device memory, of one result of the last perf_launches (chosen by the checker
                ///< after the digests came); reply: its number, for perf_kept.
    perf_kept,  ///< Reply: the kept copy of that number, which is then freed: the gate reads its audits back after
                ///< it has let go of the GPU, instead of 16 MiB through the pipe while every other check waits.
    probed_multiply,  ///< CPU backend: the operand probe's hooks (u32, tilelab/cpu/operand_probe.hpp), the blocks
                      ///< to run (u32 count, 0 for all; u64 seed), the seed of its second values (u64), whether the
                      ///< runner draws M and N (u8; u64 seed: tilelab/gate_data.hpp's product_operand), then a
                      ///< multiply run with the probe on; multiply's reply, then a ProbeCounts record (the technique
                      ///< checks). Drawn: the request's M and N are empty, and the reply's P is the WrittenElement
                      ///< records of the elements the kernel wrote.
    perf_samples,  ///< Elements of the results of the last perf_launches, at places the checker chose after the
                   ///< digests came (u64 records: places in the loaded sets' results, set s's element i at
                   ///< s × side² + i); reply: their values (floats). The gate samples every result.
};

/// What the CPU backend's emulator counted in a probed multiply (tilelab/cpu/operand_probe.hpp).
using ProbeCounts = ::tilelab::cpu::ProbeCounts;

/// What the CPU backend's emulator counted in one request's launches (every reply to a multiply carries it; on a GPU,
/// counted is 0 and the rest zeros).
struct LaunchCounts {
    std::uint8_t counted;              ///< 1 when the emulator counted (the CPU backend).
    std::uint64_t threads;             ///< CUDA threads run.
    std::uint64_t shared_reads;        ///< Reads of shared-memory elements.
    std::uint64_t shared_writes;       ///< Writes of shared-memory elements.
    std::uint64_t global_words_read;   ///< Words read from device memory (M and N through the kernel's checked
                                       ///< pointers, vector loads, copies' sources).
};

/// How a pipelined multiply's kernel filled shared memory (the emulator's count, every block of the launch).
struct SharedArrivals {
    std::uint64_t stored;      ///< Bytes the kernel's own stores wrote into shared memory.
    std::uint64_t copied;      ///< Bytes asynchronous copies (__pipeline_memcpy_async) landed there.
    std::uint64_t overlapped;  ///< Of copied, bytes whose copy was in flight while the block read shared memory.
};

/// The factor of a scaled multiply: a product computed from tiles of M and N comes back scaled by its square.
struct SharedStoreScale {
    float factor;  ///< Multiplies every floating-point value the kernel stores into shared memory.
};

/// One element of P changed by one CUDA thread in a watched multiply: linear indices, x fastest, as CUDA numbers
/// blocks and threads. The reply lists one record per element and thread that changed it.
struct OutputWrite {
    std::uint32_t element;  ///< row * cols + col.
    std::uint32_t block;    ///< blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z).
    std::uint32_t thread;   ///< threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z).
};

/// An element of P that a drawn probed multiply's kernel wrote (its reply lists only those: at the performance
/// gate's shape, the emulator runs a few blocks, and the rest of P stays poisoned).
struct WrittenElement {
    std::uint32_t element;  ///< row * cols + col.
    float value;            ///< What the kernel wrote there.
};

/// How the runner carried out a request.
enum class Status : std::int32_t {
    ok = 0,
    cuda_error = 1,   ///< A CUDA call or the kernel failed: code, name and message follow.
    exception = 2,    ///< The student's code threw: message follows.
    no_device = 3,    ///< No usable GPU.
    unsupported = 4,  ///< The request does not apply to this lab.
};

/// Which of the kit's matrices an out-of-bounds access reached (FaultSite).
enum class Matrix : std::uint8_t {
    none = 0,  ///< None of the kit's (no access reported, or a buffer the lab's code allocated).
    M = 1,     ///< The left operand, rows × inner.
    N = 2,     ///< The right operand, inner × cols.
    P = 3,     ///< The product, rows × cols.
};

/// Where the out-of-bounds access that failed a request landed, as the CPU backend's emulator saw it: the last
/// fields of every reply's header (all zero where there was none, and on a GPU). The checker tells the student what
/// happened in its own words from these numbers, checked, and the shape it asked for; never from the runner's text.
struct FaultSite {
    std::uint8_t access = 0;     ///< 0 not known, 1 a read, 2 a write.
    Matrix matrix = Matrix::none;  ///< The kit's matrix it reached; none: no access reported, or another buffer.
    std::uint8_t host_code = 0;  ///< 1: host code (the launcher) touched device memory, not a kernel.
    std::int64_t element = 0;    ///< The element's index from the matrix's first (negative: before it).
};

/// Which launch a multiply request uses.
enum class LaunchMode : std::uint32_t {
    launcher = 0,  ///< The student's launcher (its own grid and block).
    contract = 1,  ///< The kit launches the student's kernel itself, with the contract's grid and block.
};

/// Builds a frame's payload.
class Writer {
public:
    /// Appends @p value's bytes (a plain value: a number, an enum).
    template <class T>
    Writer& put(const T& value) {
        static_assert(std::is_trivially_copyable_v<T>, "only plain values travel");
        const auto* p = reinterpret_cast<const unsigned char*>(&value);
        bytes_.insert(bytes_.end(), p, p + sizeof(T));
        return *this;
    }
    /// Appends @p text, preceded by its length.
    Writer& put_string(const std::string& text) {
        put<std::uint64_t>(text.size());
        bytes_.insert(bytes_.end(), text.begin(), text.end());
        return *this;
    }
    /// Appends @p count floats, preceded by the count.
    Writer& put_floats(const float* values, std::size_t count) {
        put<std::uint64_t>(count);
        const auto* p = reinterpret_cast<const unsigned char*>(values);
        bytes_.insert(bytes_.end(), p, p + count * sizeof(float));
        return *this;
    }
    /// Appends @p records (plain values), preceded by their count.
    template <class T>
    Writer& put_records(const std::vector<T>& records) {
        static_assert(std::is_trivially_copyable_v<T>, "only plain values travel");
        put<std::uint64_t>(records.size());
        const auto* p = reinterpret_cast<const unsigned char*>(records.data());
        bytes_.insert(bytes_.end(), p, p + records.size() * sizeof(T));
        return *this;
    }
    /// Appends a vector of floats, preceded by its size.
    Writer& put_floats(const std::vector<float>& values) { return put_floats(values.data(), values.size()); }
    /// The payload built so far.
    const std::vector<unsigned char>& bytes() const noexcept { return bytes_; }

private:
    std::vector<unsigned char> bytes_;
};

/// Reads a frame's payload; after the first read past the end every value is zero and ok() is false.
class Reader {
public:
    /// Reads @p bytes, which must outlive the reader.
    explicit Reader(const std::vector<unsigned char>& bytes) : at_(bytes.data()), end_(bytes.data() + bytes.size()) {}
    /// The next plain value.
    template <class T>
    T get() {
        static_assert(std::is_trivially_copyable_v<T>, "only plain values travel");
        T value{};
        if (!take(sizeof(T))) return value;
        std::memcpy(&value, at_ - sizeof(T), sizeof(T));
        return value;
    }
    /// The next string (length first).
    std::string get_string() {
        const auto size = get<std::uint64_t>();
        if (!take(size)) return {};
        return std::string(reinterpret_cast<const char*>(at_ - size), static_cast<std::size_t>(size));
    }
    /// The next vector of floats (count first).
    std::vector<float> get_floats() {
        const auto count = get<std::uint64_t>();
        if (count > max_frame_bytes / sizeof(float) || !take(count * sizeof(float))) return {};
        std::vector<float> values(static_cast<std::size_t>(count));
        std::memcpy(values.data(), at_ - count * sizeof(float), values.size() * sizeof(float));
        return values;
    }
    /// The next vector of plain records (count first), as put_records wrote it.
    template <class T>
    std::vector<T> get_records() {
        static_assert(std::is_trivially_copyable_v<T>, "only plain values travel");
        const auto count = get<std::uint64_t>();
        if (count > max_frame_bytes / sizeof(T) || !take(count * sizeof(T))) return {};
        std::vector<T> records(static_cast<std::size_t>(count));
        std::memcpy(records.data(), at_ - count * sizeof(T), records.size() * sizeof(T));
        return records;
    }
    /// False once a read went past the end.
    bool ok() const noexcept { return ok_; }
    /// True when every byte was read and none was missing.
    bool at_end() const noexcept { return ok_ && at_ == end_; }

private:
    bool take(std::uint64_t size) {
        if (!ok_ || size > static_cast<std::uint64_t>(end_ - at_)) {
            ok_ = false;
            return false;
        }
        at_ += size;
        return true;
    }
    const unsigned char* at_;
    const unsigned char* end_;
    bool ok_ = true;
};

/// Writes all of @p size bytes to @p fd; false on any error (the other side has gone).
inline bool write_all(int fd, const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    while (size > 0) {
        const ssize_t n = ::write(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

/// Sends one frame.
inline bool send_frame(int fd, const std::vector<unsigned char>& payload) {
    const std::uint32_t magic = frame_magic;
    const std::uint64_t size = payload.size();
    return write_all(fd, &magic, sizeof magic) && write_all(fd, &size, sizeof size) &&
           write_all(fd, payload.data(), payload.size());
}

/// Reads exactly @p size bytes, blocking; false at end of file or on an error.
inline bool read_all(int fd, void* data, std::size_t size) {
    auto* p = static_cast<unsigned char*>(data);
    while (size > 0) {
        const ssize_t n = ::read(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

/// Reads one frame, blocking (the runner's side: it has nothing else to do).
inline bool receive_frame(int fd, std::vector<unsigned char>& payload) {
    std::uint32_t magic = 0;
    std::uint64_t size = 0;
    if (!read_all(fd, &magic, sizeof magic) || magic != frame_magic) return false;
    if (!read_all(fd, &size, sizeof size) || size > max_frame_bytes) return false;
    payload.resize(static_cast<std::size_t>(size));
    return read_all(fd, payload.data(), payload.size());
}

}  // namespace tilelab::wire
