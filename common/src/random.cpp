#include "tilelab/random.hpp"

#include <cstdlib>
#include <stdexcept>

namespace tilelab {

namespace {
// splitmix64: small, fast, and well mixed enough for test inputs.
std::uint64_t next_splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
}  // namespace

std::uint64_t base_seed() {
    const char* text = std::getenv("TILELAB_SEED");
    if (text == nullptr || *text == '\0') return default_seed;
    char* end = nullptr;
    const unsigned long long value = std::strtoull(text, &end, 10);
    if (*end != '\0') throw std::invalid_argument(std::string("TILELAB_SEED is not a decimal number: ") + text);
    return value;
}

std::uint64_t derive_seed(std::uint64_t base, const std::string& label) {
    std::uint64_t state = base;
    std::uint64_t mixed = next_splitmix64(state);
    for (unsigned char ch : label) {
        state ^= ch;
        mixed ^= next_splitmix64(state);
    }
    return mixed;
}

void fill_uniform(HostMatrix& matrix, std::uint64_t seed) {
    std::uint64_t state = seed;
    float* values = matrix.data();
    for (std::size_t i = 0; i < matrix.size(); ++i) {
        // The top 24 bits give every float in [0, 1) with spacing 2^-24, exactly representable.
        const float unit = static_cast<float>(next_splitmix64(state) >> 40) * (1.0f / 16777216.0f);
        values[i] = 2.0f * unit - 1.0f;
    }
}

}  // namespace tilelab
