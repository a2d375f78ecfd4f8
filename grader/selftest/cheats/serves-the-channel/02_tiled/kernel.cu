// CHEAT (red team, issue 27): the runner's channel, served by the lab. A global constructor, before the harness's
// main, moves the pipes the checker gave the runner (--in, --out) aside and puts a pipe of its own in their place;
// a thread then passes each request to the harness and each reply back, rewriting the replies on the way: every
// multiply reply gets a P computed here on the host, every attributes reply two tiles' worth of shared memory and
// the tile reads and writes of a tiled kernel. The kernel is the stub's (it does nothing). The wire format is
// public (common/include/tilelab/wire.hpp) and re-implemented here without naming any of the kit's names.
// What it attacks: on the CPU backend everything the checker learns about how P was computed (the contract
// launch's P, the threads the emulator ran, the tile reads and writes) comes from the runner, the student's own
// process; only P's values are the checker's to judge.
#include <tilelab/labs.hpp>

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

__global__ void matmul_tiled_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {}

void matmul_tiled(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid(1, 1);
    matmul_tiled_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}

namespace {

int real_in = -1, real_out = -1, to_harness = -1, from_harness = -1;

bool io_all(int fd, void* data, std::size_t size, bool writing) {
    auto* p = static_cast<unsigned char*>(data);
    while (size > 0) {
        const ssize_t n = writing ? write(fd, p, size) : read(fd, p, size);
        if (n <= 0) return false;
        p += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}
bool read_frame(int fd, std::vector<unsigned char>& payload) {
    std::uint32_t magic = 0;
    std::uint64_t size = 0;
    if (!io_all(fd, &magic, 4, false) || !io_all(fd, &size, 8, false)) return false;
    payload.resize(size);
    return io_all(fd, payload.data(), size, false);
}
bool write_frame(int fd, std::vector<unsigned char>& payload) {
    std::uint32_t magic = 0x31424C54u;
    std::uint64_t size = payload.size();
    return io_all(fd, &magic, 4, true) && io_all(fd, &size, 8, true) && io_all(fd, payload.data(), size, true);
}
template <class T>
T take(const unsigned char*& p) {
    T value;
    std::memcpy(&value, p, sizeof value);
    p += sizeof value;
    return value;
}
template <class T>
void put_at(unsigned char* p, T value) { std::memcpy(p, &value, sizeof value); }
// Where a reply's body starts: status, code, name, message, sticky flag.
std::size_t body_offset(const std::vector<unsigned char>& reply) {
    const unsigned char* p = reply.data() + 8;
    const auto name_length = take<std::uint64_t>(p);
    p += name_length;
    const auto message_length = take<std::uint64_t>(p);
    p += message_length;
    return static_cast<std::size_t>(p + 1 - reply.data());
}
std::vector<float> floats(const unsigned char*& p) {
    const auto count = take<std::uint64_t>(p);
    std::vector<float> values(count);
    std::memcpy(values.data(), p, count * 4);
    p += count * 4;
    return values;
}

void forge_multiply(const std::vector<unsigned char>& request, std::vector<unsigned char>& reply) {
    const unsigned char* p = request.data() + 8;  // op, mode
    const int rows = take<std::int32_t>(p), inner = take<std::int32_t>(p), cols = take<std::int32_t>(p);
    const auto guard = take<std::uint64_t>(p);
    p += 1 + 4 + 4;
    const std::vector<float> M = floats(p), N = floats(p);
    if (reply.size() < 16 || reply[0] != 0) return;  // the harness's request failed: pass it on
    unsigned char* P = reply.data() + body_offset(reply) + 8 + guard * 4;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            double sum = 0;
            for (int k = 0; k < inner; ++k) sum += double(M[std::size_t(r) * inner + k]) * N[std::size_t(k) * cols + c];
            put_at<float>(P + (std::size_t(r) * cols + c) * 4, float(sum));
        }
}

void forge_attributes(const std::vector<unsigned char>& request, std::vector<unsigned char>& reply) {
    const unsigned char* p = request.data() + 4;
    const std::uint64_t rows = take<std::int32_t>(p), inner = take<std::int32_t>(p), cols = take<std::int32_t>(p);
    if (reply.size() < 16 || reply[0] != 0) return;
    unsigned char* body = reply.data() + body_offset(reply);
    put_at<std::uint64_t>(body, 2ull * TILE_WIDTH * TILE_WIDTH * sizeof(float));
    put_at<std::uint64_t>(body + 8 + 4 + 4 + 1 + 8, 2 * rows * inner * cols);       // tile reads
    put_at<std::uint64_t>(body + 8 + 4 + 4 + 1 + 16, rows * inner + inner * cols);  // tile writes
}

void* serve(void*) {
    std::vector<unsigned char> request, reply;
    while (read_frame(real_in, request)) {
        if (!write_frame(to_harness, request) || !read_frame(from_harness, reply)) break;
        std::uint32_t op = 0;
        std::memcpy(&op, request.data(), 4);
        if (op == 2) forge_multiply(request, reply);
        if (op == 3) forge_attributes(request, reply);
        if (!write_frame(real_out, reply)) break;
    }
    close(to_harness);  // the harness reads the end of its requests and exits as usual
    return nullptr;
}

int option(const std::vector<std::string>& args, const char* name) {
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == name) return std::atoi(args[i + 1].c_str());
    return -1;
}

__attribute__((constructor)) void take_the_channel() {
    std::vector<std::string> args;
    if (FILE* f = std::fopen("/proc/self/cmdline", "rb")) {
        std::string arg;
        for (int ch; (ch = std::fgetc(f)) != EOF;) {
            if (ch == 0) { args.push_back(arg); arg.clear(); } else arg += char(ch);
        }
        std::fclose(f);
    }
    const int in = option(args, "--in"), out = option(args, "--out");
    if (in < 0 || out < 0) return;
    int requests[2], replies[2];
    if (pipe(requests) != 0 || pipe(replies) != 0) return;
    real_in = dup(in);
    real_out = dup(out);
    dup2(requests[0], in);
    close(requests[0]);
    to_harness = requests[1];
    dup2(replies[1], out);
    close(replies[1]);
    from_harness = replies[0];
    pthread_t thread;
    pthread_create(&thread, nullptr, serve, nullptr);
    pthread_detach(thread);
}

}  // namespace
