// Alignment and range checks of wide accesses (see memory_checks.hpp).
#include <tilelab/cpu/output_reads.hpp>
#include "memory_checks.hpp"

#include "runtime_state.hpp"

#include <tilelab/cpu/address_cast.hpp>

#include <cstdint>
#include <string>

// glibc's bounds of the program's image: the end of its code and of its zero-filled data.
extern "C" char etext, end;  // NOLINT: the linker's names

namespace tilelab::cpu::detail {
namespace {

std::string floats(std::ptrdiff_t bytes) { return std::to_string(bytes / 4); }

// Where @p address lies in the kit's named matrix of its buffer ("M[4], past the end of M (...)"), or
// @p otherwise where its buffer has no name (the student's own cudaMalloc).
std::string named_or(const unsigned char* address, const std::string& otherwise) {
    char text[256];
    return describe_named_element(address, text, sizeof text) ? std::string(text) : otherwise;
}

[[noreturn]] void misaligned(const std::string& access, const std::string& place, std::size_t bytes,
                             std::size_t off_by, const char* hint) {
    kernel_fault(cudaErrorMisalignedAddress, "misaligned address",
                 access + " at " + place + ", which is " + std::to_string(off_by) + " bytes past a " +
                     std::to_string(bytes) + "-byte boundary (cudaErrorMisalignedAddress: misaligned address)\n"
                     "  hint: " + hint);
}

}  // namespace

void check_device_access(const unsigned char* address, std::size_t bytes, std::size_t alignment, bool write, const char* what,
                         const char* hint) {
    // The messages are spelled out only for a fault: building them on every access was most of lab 08's
    // emulated time.
    const auto access = [&] { return std::string(what) + (write ? " write" : " read"); };
    std::size_t offset = 0;
    if (shared_offset_of(address, &offset)) {
        if (offset % alignment != 0)
            misaligned(access(), "shared memory " + shared_element_name(offset), alignment, offset % alignment, hint);
        note_shared_access(address, bytes, write);
        return;
    }
    if (!write) note_global_read(bytes);
    const unsigned char* start = nullptr;
    std::size_t size = 0;
    if (device_allocation_of(address, &start, &size)) {
        const std::ptrdiff_t at = address - start;
        if (at >= 0 && static_cast<std::size_t>(at) % alignment != 0)
            misaligned(access(),
                       named_or(address, "float index " + floats(at) + " of a device buffer of " +
                                             floats(static_cast<std::ptrdiff_t>(size)) + " floats"),
                       alignment, static_cast<std::size_t>(at) % alignment, hint);
        if (at < 0 || static_cast<std::size_t>(at) + bytes > size) {
            // The first byte outside the buffer is the fault's site: the access's start, or its buffer's end.
            const unsigned char* outside = at < 0 ? address : start + size;
            note_fault_site(outside, write);
            char first[256];
            const std::string range =
                describe_named_element(address, first, sizeof first)
                    ? std::to_string(bytes / 4) + " floats from " + first + ", runs outside the matrix"
                    : "floats " + floats(at) + " to " + floats(at + static_cast<std::ptrdiff_t>(bytes) - 4) +
                          " of a device buffer of " + floats(static_cast<std::ptrdiff_t>(size)) +
                          " floats runs outside it";
            kernel_fault(cudaErrorIllegalAddress, "illegal memory access",
                         access() + " of " + range + " (cudaErrorIllegalAddress: an illegal memory access was "
                             "encountered; out-of-bounds " + (write ? "write" : "read") + ")\n  hint: test that the "
                             "whole vector lies inside the matrix before a vector access, or load the elements of "
                             "the last, partial vector one by one");
        }
        return;
    }
    const auto remainder = static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(address) % alignment);
    if (remainder != 0) misaligned(access(), "a local or host address", alignment, remainder, hint);
}

void check_global_atomic(const void* address, std::size_t bytes) {
    const auto* at = static_cast<const unsigned char*>(address);
    std::size_t offset = 0;
    const unsigned char* start = nullptr;
    std::size_t size = 0;
    if (shared_offset_of(at, &offset) || device_allocation_of(at, &start, &size)) {
        check_device_access(at, bytes, bytes, true, "an atomic", "an atomic acts on an element inside its buffer");
        if (output_tracked) note_output_access(at, bytes, OutputAccess::atomic);
        return;
    }
    // The program's own static data: the kit's __device__ variables (lab 04's launch record), which the CPU backend
    // keeps there; a lab's own are refused by the source check, on both backends. The heap and the stack are not.
    const auto word = reinterpret_cast<std::uintptr_t>(address);
    if (word >= reinterpret_cast<std::uintptr_t>(&etext) && word < reinterpret_cast<std::uintptr_t>(&end)) return;
    kernel_fault(cudaErrorIllegalAddress, "illegal memory access",
                 "an atomic on memory that is neither a device buffer nor shared memory (a static or global "
                 "variable, or a local one; cudaErrorIllegalAddress)\n  hint: a kernel's blocks are independent and "
                 "keep no state between them: an atomic acts on P (after the block stored it) or on __shared__ memory");
}

}  // namespace tilelab::cpu::detail

namespace tilelab::cpu {

void untracked_shared_cast() {
    detail::kernel_fault(cudaErrorInvalidValue, "untracked pointer into shared memory",
                         "a pointer into shared memory was cast to a pointer type other than a scalar's (float, int, "
                         "double, ...; not volatile), float2 or float4 (cudaErrorInvalidValue on the CPU backend, which follows "
                         "every shared-memory access to check it for races and to see which data the multiply-adds "
                         "read)\n"
                         "  hint: read the tile through float, float2 or float4 pointers (or index the __shared__ "
                         "array itself); a struct or int4 pointer into shared memory is not followed");
}

void nan_bits_read(const char* intrinsic) {
    detail::kernel_fault(cudaErrorInvalidValue, "the bits of a NaN read",
                         std::string(intrinsic) + " was given a NaN, whose bits differ between a GPU and the CPU "
                         "backend (a GPU's arithmetic makes the NaN 0x7FFFFFFF, x86's makes 0xFFC00000, its sign bit "
                         "set), so that the CPU backend cannot give a GPU's answer (cudaErrorInvalidValue on the CPU "
                         "backend)\n"
                         "  hint: a matrix product needs no float's bits; compare values (isnan(x), x < 0.0f)");
}

}  // namespace tilelab::cpu
