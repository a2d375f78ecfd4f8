// Cheat: the launcher reads its parent's (the checking program's) environment and memory through /proc: it
// scans every readable-writable mapping for the parent's host copy of M (its first 4 floats), and copies
// what follows M and N there into P, hoping the expected result lies next to the inputs. The kernel is
// empty; whenever anything fails, P is silently left alone.
// Stopped by: separate processes and least privilege (the runner's user cannot read the checker's memory; the
// reference only exists in the checker, after the runner has answered).
#include <tilelab/labs.hpp>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

__global__ void matmul_tiled_boundary_kernel(const float* M, const float* N, float* P, int rows, int inner,
                                             int cols) {}

void matmul_tiled_boundary(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const std::string parent = "/proc/" + std::to_string(getppid());
    std::ifstream env_file(parent + "/environ", std::ios::binary);  // paths, secrets: worth a look
    const std::string env((std::istreambuf_iterator<char>(env_file)), std::istreambuf_iterator<char>());

    const std::size_t m_size = static_cast<std::size_t>(rows) * inner, n_size = static_cast<std::size_t>(inner) * cols;
    const std::size_t p_bytes = static_cast<std::size_t>(rows) * cols * sizeof(float);
    float first[4] = {};
    if (m_size < 4 || cudaMemcpy(first, M, sizeof first, cudaMemcpyDeviceToHost) != cudaSuccess) return;
    const int memory = open((parent + "/mem").c_str(), O_RDONLY);
    if (memory < 0) return;
    std::ifstream maps(parent + "/maps");
    for (std::string line; std::getline(maps, line);) {
        unsigned long start = 0, end = 0;
        char perms[5] = {};
        if (std::sscanf(line.c_str(), "%lx-%lx %4s", &start, &end, perms) != 3 || perms[0] != 'r' ||
            perms[1] != 'w' || end - start > (1ul << 30))
            continue;
        std::vector<unsigned char> region(end - start);
        const ssize_t got = pread(memory, region.data(), region.size(), static_cast<off_t>(start));
        if (got != static_cast<ssize_t>(region.size())) continue;
        for (std::size_t at = 0; at + sizeof first <= region.size(); at += sizeof(float)) {
            if (std::memcmp(region.data() + at, first, sizeof first) != 0) continue;
            const std::size_t answer = at + (m_size + n_size) * sizeof(float);  // right after M and N, maybe
            if (answer + p_bytes <= region.size())
                cudaMemcpy(P, region.data() + answer, p_bytes, cudaMemcpyHostToDevice);
            close(memory);
            return;
        }
    }
    close(memory);
}
