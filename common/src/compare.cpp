#include "tilelab/compare.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace tilelab {

float float_with_bits(std::uint32_t bits) {
    float x;
    std::memcpy(&x, &bits, sizeof x);
    return x;
}

bool has_bits(float x, std::uint32_t bits) {
    std::uint32_t actual;
    std::memcpy(&actual, &x, sizeof actual);
    return actual == bits;
}

double tolerance(int inner, double magnitude, InputPrecision precision) {
    constexpr double unit_roundoff = 1.0 / 16777216.0;  // 2^-24, float32
    // The floor keeps products of tiny values from demanding more than float32 can hold.
    if (precision == InputPrecision::fp32)
        return 2.0 * inner * unit_roundoff * magnitude + std::numeric_limits<float>::min();
    constexpr double tf32_roundoff = 1.0 / 2048.0;  // 2^-11: 10 explicit mantissa bits, rounded to nearest
    const double rounded_magnitude = (1.0 + tf32_roundoff) * (1.0 + tf32_roundoff) * magnitude;  // bounds Σ|ã·ñ|
    return (2.0 * tf32_roundoff + tf32_roundoff * tf32_roundoff) * magnitude +
           2.0 * inner * unit_roundoff * rounded_magnitude + std::numeric_limits<float>::min();
}

Comparison compare(const float* got, const ReferenceProduct& reference, std::size_t keep) {
    Comparison result;
    const std::size_t count = reference.value.size();
    result.status.assign(count, ElementStatus::correct);
    for (std::size_t i = 0; i < count; ++i) {
        const float x = got[i];
        ElementStatus status = ElementStatus::correct;
        if (is_unwritten(x)) {
            status = ElementStatus::unwritten;
            ++result.unwritten;
        } else if (!(std::fabs(x - reference.value[i]) <= tolerance(reference.inner, reference.magnitude[i], reference.input_precision))) {
            // Written as "not (error <= bound)" so that NaN counts as wrong.
            status = ElementStatus::wrong;
            ++result.wrong;
        } else {
            continue;
        }
        result.status[i] = status;
        if (result.first_bad.size() < keep) {
            const int row = static_cast<int>(i / static_cast<std::size_t>(reference.cols));
            const int col = static_cast<int>(i % static_cast<std::size_t>(reference.cols));
            result.first_bad.push_back({row, col, x, reference.value[i]});
        }
    }
    return result;
}

}  // namespace tilelab
