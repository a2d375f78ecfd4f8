// CHEAT (red team, issue 27): the answers from the known seed. Unless the instructor sets TILELAB_SEED, every
// grading once drew its inputs from the same public default seed (20261122, printed in every check's output), with
// the kit's public generator (common/src/random.cpp: derive_seed, fill_uniform; the magnitudes of M's rows and N's
// columns, grader/src/check_shape.cpp) and the public shapes and their names (grader/src/shapes.cpp). So a kernel can
// draw M and N itself, as the launcher's inputs ("M <shape>") or as those of the kit's own launch ("contract M
// <shape>"), whichever gives the M[0] it was passed, and multiply those: it reads nothing of the inputs but M[0], and
// never N. Here for every shape of at most 156 rows and columns (lab 01's tiny and edge checks among them); on a
// larger one it writes nothing. Valid CUDA on a GPU too.
// It used to ship P itself, a table of 19,000 floats for lab 01's 65 tiny and edge shapes at TILE_WIDTH 16, which
// stopped matching any input once the kit's operands changed (rows and columns scaled by powers of two); drawing
// the inputs keeps the cheat what it is, at every tile width.
// What stops it: inputs nobody can predict: a seed drawn at random for every grading (grade.cmake), and kept from
// the lab's programs (the sandbox removes TILELAB_SEED from their environment).
#include <tilelab/labs.hpp>

namespace {
typedef unsigned long long u64;

constexpr u64 default_seed = 20261122ull;  // common/include/tilelab/random.hpp

__device__ u64 next_splitmix64(u64& state) {
    u64 z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// derive_seed(base, label) as random.cpp computes it, the label fed one character at a time.
struct Label {
    u64 state, mixed;
    __device__ explicit Label(u64 base) : state(base), mixed(next_splitmix64(state)) {}
    __device__ void add(char c) {
        state ^= static_cast<unsigned char>(c);
        mixed ^= next_splitmix64(state);
    }
    __device__ void add(const char* text) {
        while (*text != '\0') add(*text++);
    }
    __device__ void add(int number) {  // in decimal
        char digits[12];
        int n = 0;
        do digits[n++] = static_cast<char>('0' + number % 10); while ((number /= 10) > 0);
        while (n > 0) add(digits[--n]);
    }
};

// derive_seed(base, "<what> <rows>x<inner>x<cols>"): the seed a matrix of the shape is drawn from.
__device__ u64 shape_seed(const char* what, int rows, int inner, int cols) {
    Label label(default_seed);
    label.add(what);
    label.add(' ');
    label.add(rows);
    label.add('x');
    label.add(inner);
    label.add('x');
    label.add(cols);
    return label.mixed;
}

// 2 to the power of the magnitude of line `line` of the matrix drawn from `seed`: std::mt19937_64 seeded with
// derive_seed(seed, "magnitudes"), its line-th number % 73 - 16 (line < 156: the first half of the first twist).
__device__ float magnitude(u64 seed, int line) {
    Label label(seed);
    label.add("magnitudes");
    u64 mt[312];
    mt[0] = label.mixed;
    for (int i = 1; i < 312; ++i) mt[i] = 6364136223846793005ull * (mt[i - 1] ^ (mt[i - 1] >> 62)) + i;
    const u64 x = (mt[line] & 0xFFFFFFFF80000000ull) | (mt[line + 1] & 0x7FFFFFFFull);
    u64 y = mt[line + 156] ^ (x >> 1) ^ ((x & 1) != 0 ? 0xB5026F5AA96619E9ull : 0);
    y ^= (y >> 29) & 0x5555555555555555ull;
    y ^= (y << 17) & 0x71D67FFFEDA60000ull;
    y ^= (y << 37) & 0xFFF7EEE000000000ull;
    y ^= y >> 43;
    float scale = 1.0f;
    for (int e = static_cast<int>(y % 73) - 16; e != 0; e += e > 0 ? -1 : 1) scale *= e > 0 ? 2.0f : 0.5f;
    return scale;
}

// Element `index` of fill_uniform's draw from `seed`, in [-1, 1), before its line's magnitude.
__device__ float uniform(u64 seed, int index) {
    u64 state = seed + static_cast<u64>(index) * 0x9E3779B97F4A7C15ull;
    const float unit = static_cast<float>(next_splitmix64(state) >> 40) * (1.0f / 16777216.0f);
    return 2.0f * unit - 1.0f;
}
}  // namespace

__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= rows || col >= cols || rows > 156 || cols > 156) return;
    const char* const names[2][2] = {{"M", "N"}, {"contract M", "contract N"}};
    for (const auto& name : names) {
        const u64 m_seed = shape_seed(name[0], rows, inner, cols);
        if (uniform(m_seed, 0) * magnitude(m_seed, 0) != M[0]) continue;
        const u64 n_seed = shape_seed(name[1], rows, inner, cols);
        const float row_scale = magnitude(m_seed, row), col_scale = magnitude(n_seed, col);
        float sum = 0.0f;
        for (int k = 0; k < inner; ++k)
            sum += uniform(m_seed, row * inner + k) * row_scale * (uniform(n_seed, k * cols + col) * col_scale);
        P[row * cols + col] = sum;
        return;
    }
}

void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    const dim3 block(TILE_WIDTH, TILE_WIDTH);
    const dim3 grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_naive_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);
}
