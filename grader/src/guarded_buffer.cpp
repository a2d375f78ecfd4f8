#include "guarded_buffer.hpp"

#include <tilelab/compare.hpp>

#include <cstring>

namespace tilelab::grader {

namespace {
#ifdef TILELAB_CPU_BACKEND
constexpr bool guard_zone_after = false;
#else
constexpr bool guard_zone_after = true;
#endif
}  // namespace

GuardedDeviceArray::GuardedDeviceArray(const float* values, std::size_t count, std::size_t guard)
    : count_(count), guard_(guard), guard_after_(guard_zone_after ? guard : 0),
      buffer_(count + guard + guard_after_) {
    std::vector<float> all(buffer_.size(), float_with_bits(guard_bits));
    std::memcpy(all.data() + guard, values, count * sizeof(float));
    buffer_.copy_from_host(all.data(), all.size());
}

void GuardedDeviceArray::download(float* values) const {
    TILELAB_CUDA_CHECK(cudaMemcpy(values, data(), count_ * sizeof(float), cudaMemcpyDeviceToHost));
}

GuardDamage GuardedDeviceArray::check_guards() const {
    std::vector<float> all(buffer_.size());
    buffer_.copy_to_host(all.data(), all.size());
    GuardDamage damage;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const bool in_guard = i < guard_ || i >= guard_ + count_;
        if (!in_guard || has_bits(all[i], guard_bits)) continue;
        if (damage.changed++ == 0)
            damage.first_offset = static_cast<std::ptrdiff_t>(i) - static_cast<std::ptrdiff_t>(guard_);
    }
    return damage;
}

}  // namespace tilelab::grader
