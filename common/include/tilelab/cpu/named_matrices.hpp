/// @file named_matrices.hpp
/// @brief The kit's matrices in the CPU backend's fault messages, and where a fault landed, for the checker.
///
/// The kit's runner gives a kernel M, N and P inside device buffers of its own, between guard zones: counted from the
/// buffer's start, "float index 2112 of a device buffer of 2109 floats" counts the kit's guard zone too, which the
/// student never wrote. The runner names the matrix inside each buffer it allocates (name_device_matrix), and the
/// emulator then says "M[4], past the end of M (M is 1x1, 1 element; ...)" (tilelab/matrix_element.hpp).
/// Buffers the student's own code allocates keep today's words. Called only by the kit's runner
/// (grader/runner/runner_main.cpp); student code may not name these functions (source_policy.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace tilelab::cpu {

/// Names the @p rows × @p cols row-major matrix of floats that starts at @p first, inside a buffer from cudaMalloc,
/// @p name (at most 7 characters: "M", "N", "P"): faults in that buffer are then described as elements of that
/// matrix, counted from @p first. The name goes with the buffer when it is freed; naming a pointer in no device
/// buffer does nothing.
void name_device_matrix(const float* first, std::size_t rows, std::size_t cols, const char* name) noexcept;

/// Where an out-of-bounds access that the emulator reported landed, in a named matrix's terms.
struct FaultSite {
    /// Which way the access went, where the CPU says.
    enum class Access : std::uint8_t {
        unknown = 0,  ///< The CPU did not say.
        read = 1,     ///< A load.
        write = 2,    ///< A store.
    };
    Access access = Access::unknown;  ///< A read or a write.
    bool host_code = false;           ///< Host code touched device memory (not a kernel).
    char matrix[8] = {};              ///< The named matrix (name_device_matrix); empty: none, or no access reported.
    long long element = 0;            ///< Index of the element touched, from the matrix's first (negative: before it).
};

/// The site of the first out-of-bounds access (a fault, a wide access or a warp matrix function outside its buffer,
/// a write found next to a buffer when the kernel ended) reported since the last call, and forgets it: the runner
/// takes it before a request, and again when the request failed, to send it with the error.
FaultSite take_fault_site() noexcept;

/// What the fault handler calls before it ends the program: the fault's @p site and the emulator's @p report of it
/// (the text it also prints), so that the runner can answer the request it was carrying out with the error. Runs in
/// the signal handler: it may only write to a descriptor.
using FaultObserver = void (*)(const FaultSite& site, const char* report);

/// Makes @p observer see each fault the handler reports from now on (null: none).
void observe_faults(FaultObserver observer) noexcept;

}  // namespace tilelab::cpu
