// Scaled shared stores (tilelab/cpu/emulator.hpp): the shared-memory check runs a multiply a second time with every
// floating-point value stored into shared memory multiplied by a factor, to see which operands of P's products
// went through the tiles. The factor lives here, set by the kit's runner between launches, never by a kernel.
#include <tilelab/cpu/emulator.hpp>

#include <cstring>

namespace tilelab::cpu {

namespace detail {

float shared_store_scale = 1.0f;

void scale_shared_words(void* words, std::size_t bytes) noexcept {
    const float scale = shared_store_scale;
    if (scale == 1.0f) return;
    if (operand_probe_on) {  // the technique checks' probe in place of a scale (operand_probe.hpp)
        probe_shared_words_stored(words, bytes);
        return;
    }
    auto* byte = static_cast<unsigned char*>(words);
    for (std::size_t at = 0; at + sizeof(float) <= bytes; at += sizeof(float)) {
        float value;  // the words may not be aligned for a float: copy them
        std::memcpy(&value, byte + at, sizeof value);
        value *= scale;
        std::memcpy(byte + at, &value, sizeof value);
    }
}

}  // namespace detail

void scale_shared_stores(float scale) noexcept { detail::shared_store_scale = scale; }

}  // namespace tilelab::cpu
