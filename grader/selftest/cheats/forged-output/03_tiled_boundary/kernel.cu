// Cheat: before main runs, prints the lines a naive grader might trust (doctest's and CTest's success
// summaries, a "no GPU" skip, a hint that everything passed) on stdout and stderr, and writes onto fd 4 (the
// reply pipe) a well-formed reply frame saying "no device", hoping the check is then skipped, not failed.
// The lab itself is the stub.
// Stopped by: separate processes and a checker that decides from its own comparisons (output is quoted, never
// parsed for a verdict; a "no device" reply is a failure, the checker asks for the GPU itself).
#include <tilelab/labs.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <unistd.h>
#include <vector>

namespace {

void forge() {
    const char* lines[] = {"[doctest] test cases: 1 | 1 passed | 0 failed", "[doctest] Status: SUCCESS!",
                           "SKIPPED: no usable CUDA GPU", "hint: all checks passed",
                           "100% tests passed, 0 tests failed"};
    for (const char* line : lines) {
        std::printf("%s\n", line);
        std::fprintf(stderr, "%s\n", line);
    }
    std::fflush(stdout);

    // Reply: status 3 (no_device), CUDA code 0, empty error name, message "no GPU", context not lost.
    std::vector<unsigned char> frame;
    const auto put = [&frame](const void* value, std::size_t size) {
        const auto* bytes = static_cast<const unsigned char*>(value);
        frame.insert(frame.end(), bytes, bytes + size);
    };
    const std::uint32_t magic = 0x31424C54u;
    const std::int32_t status = 3, code = 0;
    const std::uint64_t name_size = 0;
    const char message[] = "no GPU";
    const std::uint64_t message_size = std::strlen(message);
    const std::uint8_t context_lost = 0;
    const std::uint64_t payload_size = sizeof status + sizeof code + sizeof name_size + sizeof message_size +
                                       message_size + sizeof context_lost;
    put(&magic, sizeof magic);
    put(&payload_size, sizeof payload_size);
    put(&status, sizeof status);
    put(&code, sizeof code);
    put(&name_size, sizeof name_size);
    put(&message_size, sizeof message_size);
    put(message, message_size);
    put(&context_lost, sizeof context_lost);
    [[maybe_unused]] const ssize_t sent = write(4, frame.data(), frame.size());  // nobody to tell if it fails
}

[[maybe_unused]] const bool forged = (forge(), true);
}  // namespace

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(1, 1);
    matmul_tiled_boundary_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
